#include "host/study/samples_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fleetdyn/error.h"
#include "host/output/output_files.h"

namespace fleetdyn::study {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(path + ": " + what + (errno ? std::string(": ") + std::strerror(errno) : std::string()));
}

void write_all(int fd, const std::string& path, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, "cannot append rows");
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
}

size_t count_fields(const std::string& line) {
  size_t n = 1;
  for (char c : line) n += c == ',' ? 1 : 0;
  return n;
}

// Whether a row is whole: the expected index first, the expected field count, printable text.
bool row_is_whole(const std::string& line, int64_t expected_index, size_t fields) {
  if (count_fields(line) != fields) return false;
  for (char c : line) {
    if (static_cast<unsigned char>(c) < 0x20) return false;  // NULs from a torn block
  }
  const std::string first = line.substr(0, line.find(','));
  return first == std::to_string(expected_index);
}

}  // namespace

SamplesFile SamplesFile::create(const std::string& path, const std::string& header) {
  errno = 0;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot create the samples file");
  SamplesFile f(path, fd, 0);
  const std::string line = header + "\n";
  write_all(fd, path, line.data(), line.size());
  if (::fsync(fd) != 0) fail(path, "cannot sync");
  sync_folder(std::filesystem::path(path).parent_path());
  return f;
}

SamplesFile SamplesFile::resume(const std::string& path, const std::string& header, std::string* note) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the samples file to resume");
  std::string line;
  if (!std::getline(in, line) || in.eof()) {
    throw Error(path +
                ": has no complete header line; the study cannot be resumed (remove the folder and start again)");
  }
  if (line != header) {
    throw Error(path + ": its columns differ from this study's (was it written by another scenario or version?)");
  }
  const size_t fields = count_fields(header);
  int64_t rows = 0;
  std::streamoff keep = static_cast<std::streamoff>(line.size() + 1);
  while (std::getline(in, line)) {
    if (in.eof()) break;  // the last line has no newline: torn
    if (!row_is_whole(line, rows, fields)) break;
    keep += static_cast<std::streamoff>(line.size() + 1);
    ++rows;
  }
  in.close();
  errno = 0;
  const uintmax_t size = std::filesystem::file_size(path);
  if (static_cast<uintmax_t>(keep) < size) {
    if (::truncate(path.c_str(), keep) != 0) fail(path, "cannot cut off the torn end");
    if (note) {
      *note = "cut " + std::to_string(size - static_cast<uintmax_t>(keep)) +
              " bytes of an unfinished chunk off the end of " + path + " (they are simulated again)";
    }
  }
  errno = 0;
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open the samples file for appending");
  SamplesFile f(path, fd, rows);
  if (::fsync(fd) != 0) fail(path, "cannot sync");
  return f;
}

SamplesFile::SamplesFile(SamplesFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), rows_(other.rows_) {
  other.fd_ = -1;
}

SamplesFile::~SamplesFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SamplesFile::append(const std::string& text, int64_t count) {
  errno = 0;
  try {
    write_all(fd_, path_, text.data(), text.size());
    if (::fsync(fd_) != 0) fail(path_, "cannot sync appended rows");
  } catch (const Error& e) {
    // A full disk or a file-size limit: the rows before this chunk are whole; a torn end is
    // cut off by --resume.
    const std::string folder = std::filesystem::path(path_).parent_path().string();
    throw Error(std::string(e.what()) + " (the " + std::to_string(rows_) +
                " samples done are kept; make room and continue with `fleetdyn run --resume " +
                (folder.empty() ? "." : folder) + "`)");
  }
  rows_ += count;
}

int SamplesTable::column(const std::string& name) const {
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c] == name) return static_cast<int>(c);
  }
  return -1;
}

SamplesTable read_samples(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open");
  SamplesTable t;
  std::string line;
  if (!std::getline(in, line)) throw Error(path + ": empty samples file");
  {
    std::stringstream cells(line);
    std::string name;
    while (std::getline(cells, name, ',')) t.columns.push_back(name);
  }
  t.values.resize(t.columns.size());
  int64_t row = 0;
  while (std::getline(in, line)) {
    size_t c = 0;
    const char* p = line.c_str();
    while (true) {
      char* end = nullptr;
      const double v = std::strtod(p, &end);
      if (end == p || c >= t.columns.size()) throw Error(path + ":" + std::to_string(row + 2) + ": malformed row");
      t.values[c++].push_back(v);
      if (*end == '\0') break;
      if (*end != ',') throw Error(path + ":" + std::to_string(row + 2) + ": malformed row");
      p = end + 1;
    }
    if (c != t.columns.size()) throw Error(path + ":" + std::to_string(row + 2) + ": malformed row");
    ++row;
  }
  return t;
}

}  // namespace fleetdyn::study
