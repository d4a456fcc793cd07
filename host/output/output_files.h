// Writing result files safely and naming their columns: shared by `fleetdyn run` (results.csv,
// summary.json) and studies (samples.csv, summary.json, report.html). Internal to the host services.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>

#include "fleetdyn/physics/core/metrics.h"

namespace fleetdyn {

// A file written under a temporary name in its folder and renamed into place by commit() after
// an fsync, so a crash never leaves a half file under the final name; removed if never committed.
class AtomicFile {
 public:
  explicit AtomicFile(const std::filesystem::path& target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const std::string& s) { std::fwrite(s.data(), 1, s.size(), file_); }
  void commit();  // throws fleetdyn::Error naming the file

 private:
  std::filesystem::path target_, temp_;
  FILE* file_ = nullptr;
  bool committed_ = false;
};

void write_text_file(const std::filesystem::path& path, const std::string& text);  // atomically

// The output folder must be creatable: not an existing file, and its nearest existing ancestor a
// writable folder. Returns an error message ("output: ..."), or "" if fine.
std::string check_output_folder(const std::string& folder);

// fsync a folder, so a file just created or renamed in it survives a power cut.
void sync_folder(const std::filesystem::path& folder);

// Unit as a column-name suffix: "rad/s" -> "_rad_per_s", "m/s^2" -> "_m_per_s2", "-" -> "".
std::string unit_suffix(const std::string& unit);

// Appends v with 17 significant digits (round-trips a double exactly; "nan" for NaN).
void append_double(std::string& line, double v);

struct MetricInfo {
  const char* name;
  const char* unit;
  const char* description;
};
// FLEETDYN_METRIC_FIELDS as a table, indexed by metric::MetricIndex.
extern const MetricInfo kMetricInfo[kMetricCount];
// The metrics' column names in results.csv and samples.csv ("max_abs_roll_rad", ...), in
// kMetricInfo order, comma-separated.
std::string metric_columns();
// Metrics whose "no event" value is -1 (their description says so).
bool is_event_time(const MetricInfo& m);

}  // namespace fleetdyn
