#include "host/output/output_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "fleetdyn/error.h"

namespace fleetdyn {

namespace fs = std::filesystem;

#define FLEETDYN_METRIC_INFO(name, unit, doc) MetricInfo{#name, unit, doc},
const MetricInfo kMetricInfo[kMetricCount] = {FLEETDYN_METRIC_FIELDS(FLEETDYN_METRIC_INFO)};

std::string metric_columns() {
  std::string names;
  for (const MetricInfo& m : kMetricInfo)
    names += (names.empty() ? "" : ",") + std::string(m.name) + unit_suffix(m.unit);
  return names;
}
#undef FLEETDYN_METRIC_INFO

bool is_event_time(const MetricInfo& m) { return std::strstr(m.description, "-1 if") != nullptr; }

std::string unit_suffix(const std::string& unit) {
  if (unit.empty() || unit == "-") return "";
  std::string s = "_";
  for (char c : unit) {
    if (c == '/') {
      s += "_per_";
    } else if (c == ' ') {
      s += '_';
    } else if (c != '^') {
      s += c;
    }
  }
  return s;
}

void append_double(std::string& line, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  line += buf;
}

AtomicFile::AtomicFile(const fs::path& target)
    : target_(target),
      temp_(target.parent_path() / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()))) {
  file_ = std::fopen(temp_.c_str(), "wb");
  if (!file_) throw Error("cannot create '" + temp_.string() + "': " + std::strerror(errno));
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

AtomicFile::~AtomicFile() {
  if (file_) std::fclose(file_);
  if (!committed_) {
    std::error_code ec;
    fs::remove(temp_, ec);
  }
}

void AtomicFile::commit() {
  const bool ok = std::fflush(file_) == 0 && !std::ferror(file_) && ::fsync(::fileno(file_)) == 0;
  const int err = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok || !closed) throw Error("cannot write '" + temp_.string() + "': " + std::strerror(err));
  std::error_code ec;
  fs::rename(temp_, target_, ec);
  if (ec) throw Error("cannot rename '" + temp_.string() + "' to '" + target_.string() + "': " + ec.message());
  committed_ = true;
}

void write_text_file(const fs::path& path, const std::string& text) {
  AtomicFile f(path);
  f.write(text);
  f.commit();
}

void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) throw Error("cannot open folder '" + folder.string() + "': " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw Error("cannot sync folder '" + folder.string() + "': " + std::strerror(err));
}

std::string check_output_folder(const std::string& folder) {
  std::error_code ec;
  fs::path p = fs::absolute(folder, ec);
  if (ec) return "output: invalid folder '" + folder + "'";
  if (fs::exists(p, ec) && !fs::is_directory(p, ec)) return "output: '" + folder + "' exists and is not a folder";
  while (!p.empty() && !fs::exists(p, ec)) {
    if (p == p.parent_path()) break;
    p = p.parent_path();
  }
  if (!fs::is_directory(p, ec)) return "output: '" + p.string() + "' (on the way to '" + folder + "') is not a folder";
  if (::access(p.c_str(), W_OK) != 0)
    return "output: cannot create '" + folder + "': '" + p.string() + "' is not writable";
  return "";
}

}  // namespace fleetdyn
