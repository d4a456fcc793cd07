// samples.csv of a study: a header line, then one row per sample in sample order. Rows are
// appended a chunk at a time with write + fsync, so after a crash (kill -9 included) the file
// holds whole rows of the finished chunks and at most one torn row at its end, which resume
// cuts off. Every row starts with its sample index, so resume can check the rows it keeps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fleetdyn::study {

class SamplesFile {
 public:
  // A new file holding `header` (one line, no newline), synced with its folder; throws
  // fleetdyn::Error if the file exists.
  static SamplesFile create(const std::string& path, const std::string& header);
  // An existing file: the header must equal `header`; rows are kept while each has the header's
  // column count and the next sample index; anything after the first bad row (a torn write)
  // is cut off and reported in `note`. rows() says how many samples are done.
  static SamplesFile resume(const std::string& path, const std::string& header, std::string* note);
  SamplesFile(SamplesFile&& other) noexcept;
  SamplesFile& operator=(SamplesFile&&) = delete;
  SamplesFile(const SamplesFile&) = delete;
  ~SamplesFile();

  int64_t rows() const { return rows_; }
  // Appends whole rows (each ending in '\n') and syncs them to disk before returning.
  void append(const std::string& rows, int64_t count);

 private:
  SamplesFile(std::string path, int fd, int64_t rows) : path_(std::move(path)), fd_(fd), rows_(rows) {}
  std::string path_;
  int fd_ = -1;
  int64_t rows_ = 0;
};

// The whole table, column-major: values[c][r] is column c of row r ("nan" reads as NaN).
struct SamplesTable {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> values;
  int64_t rows() const { return values.empty() ? 0 : static_cast<int64_t>(values[0].size()); }
  int column(const std::string& name) const;  // -1 if absent
};
SamplesTable read_samples(const std::string& path);

}  // namespace fleetdyn::study
