#include "host/study/study_job.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

#include "host/backend/cuda_engine.h"
#include "host/cli/run_job.h"
#include "host/output/output_files.h"
#include "host/output/progress.h"
#include "host/scenario/scenario_json.h"
#include "host/study/process_group.h"
#include "host/study/sample_setup.h"
#include "host/study/samples_file.h"
#include "host/study/study_events.h"
#include "host/study/study_summary.h"
#include "host/study/trajectories_h5.h"
#include "host/study/worst_cases.h"

namespace fleetdyn::study {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using json = nlohmann::ordered_json;

constexpr int kReportTraces = 5;  // worst cases whose time series the report shows

// samples.csv's header: index, validity, sampled values, metrics, events.
std::string samples_header(const Scenario& s) {
  std::string h = "sample,valid";
  for (const auto& p : s.study.parameters) h += "," + p.name + unit_suffix(p.unit);
  h += "," + metric_columns();
  for (const StudyEvent& e : study_events(s)) h += "," + e.name;
  return h;
}

// Progress over samples: "[####....]  38%  3800/10000 samples  1.20k samples/s  ETA 5s".
class SampleProgress {
 public:
  SampleProgress(std::ostream& out, bool enabled, int64_t total, int64_t already,
                 const std::function<void(int64_t, int64_t)>& hook)
      : out_(out), enabled_(enabled), hook_(hook), total_(std::max<int64_t>(1, total)), already_(already), start_(Clock::now()) {}
  void update(double done) {
    if (hook_) hook_(static_cast<int64_t>(done), total_);
    if (!enabled_) return;
    const Clock::time_point now = Clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100) && done < static_cast<double>(total_)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double fresh = done - static_cast<double>(already_);
    const double rate = elapsed > 0.0 && fresh > 0.0 ? fresh / elapsed : -1.0;
    const double eta = rate > 0.0 ? (static_cast<double>(total_) - done) / rate : -1.0;
    const double fraction = std::clamp(done / static_cast<double>(total_), 0.0, 1.0);
    const int filled = static_cast<int>(fraction * 24);
    char buf[200];
    std::snprintf(buf, sizeof buf, "[%s%s] %3d%%  %lld/%lld samples  %s samples/s  ETA %s",
                  std::string(static_cast<size_t>(filled), '#').c_str(),
                  std::string(static_cast<size_t>(24 - filled), '.').c_str(), static_cast<int>(fraction * 100.0),
                  static_cast<long long>(done), static_cast<long long>(total_), format_rate(rate).c_str(),
                  format_duration(eta).c_str());
    out_ << '\r' << buf << "\x1b[K" << std::flush;
    drawn_ = true;
  }
  void finish() {
    if (enabled_ && drawn_) out_ << "\r\x1b[K" << std::flush;
    drawn_ = false;
  }

 private:
  std::ostream& out_;
  bool enabled_, drawn_ = false;
  std::function<void(int64_t, int64_t)> hook_;  // StudyRunOptions::on_progress (unthrottled)
  int64_t total_, already_;
  Clock::time_point start_, last_;
};

struct ChunkResult {
  std::string rows;
  int64_t simulated = 0;  // valid samples (vehicles stepped)
  std::string device;
  BackendKind backend = BackendKind::Cpu;
};

// Samples [first, first + count): their rows of samples.csv.
ChunkResult simulate_chunk(const Scenario& s, const StudyDesign& design, int64_t first, int64_t count, SampleProgress& progress) {
  const StudySpec& spec = s.study;
  const int d = spec.dimensions();
  std::vector<double> values(static_cast<size_t>(count) * d);
  std::vector<SampleSetup> setups(static_cast<size_t>(count));
  std::vector<int> vehicle_of(static_cast<size_t>(count), -1);  // batch slot of each valid sample
  std::vector<const SampleSetup*> simulated;                    // the valid samples, in batch order
  int n = 0;
  for (int64_t i = 0; i < count; ++i) {
    double* v = &values[static_cast<size_t>(i) * d];
    design.values(first + i, v);
    SampleSetup& su = setups[static_cast<size_t>(i)];
    su = sample_setup(s, v, design.base_sample(first + i));
    if (!su.valid) continue;
    vehicle_of[static_cast<size_t>(i)] = n++;
    simulated.push_back(&su);
  }
  ChunkResult out;
  std::vector<double> metrics;
  std::vector<int> status;
  if (n > 0) {
    Batch batch = sample_batch(s, simulated);
    const long long total = scenario_step_count(s);
    step_in_slices(batch, total, s.step, [&](long long done) {
      progress.update(static_cast<double>(first) +
                      static_cast<double>(count) * static_cast<double>(done) / static_cast<double>(total));
    });
    metrics = batch.metrics();
    status = batch.status();
    out.device = batch.device_name();
    out.backend = batch.backend();
  }
  out.simulated = n;
  std::string& rows = out.rows;
  std::vector<double> m(kMetricCount);
  const size_t event_count = study_events(s).size();
  for (int64_t i = 0; i < count; ++i) {
    rows += std::to_string(first + i);
    const int slot = vehicle_of[static_cast<size_t>(i)];
    rows += slot >= 0 ? ",1" : ",0";
    for (int k = 0; k < d; ++k) append_double(rows += ',', values[static_cast<size_t>(i) * d + k]);
    if (slot >= 0) {
      for (int j = 0; j < kMetricCount; ++j) {
        m[static_cast<size_t>(j)] = metrics[static_cast<size_t>(j) * n + slot];
        append_double(rows += ',', m[static_cast<size_t>(j)]);
      }
      for (const bool e : sample_events(s, m.data(), status[static_cast<size_t>(slot)])) rows += e ? ",1" : ",0";
    } else {
      for (size_t j = 0; j < kMetricCount + event_count; ++j) rows += ",nan";
    }
    rows += '\n';
  }
  return out;
}

std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

StudyManifest read_manifest(const std::string& folder) {
  const fs::path path = fs::path(folder) / "study.json";
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw Error("--resume: '" + folder + "' is not a folder");
  if (!fs::exists(path, ec)) {
    throw Error("--resume: '" + folder + "' holds no study (no study.json; was it written by a study run?)");
  }
  json j;
  try {
    j = json::parse(file_text(path));
    StudyManifest m;
    m.scenario_path = j.at("scenario_path").get<std::string>();
    m.scenario_text = j.at("scenario_text").get<std::string>();
    m.version = j.at("fleetdyn_version").get<std::string>();
    m.cli = j.at("cli_overrides");
    return m;
  } catch (const json::exception& e) {
    throw Error(path.string() + ": not a study manifest (" + e.what() + ")");
  }
}

namespace {

// Rank 0: the folder, fresh or resumed, and the samples file to append to. Returns an exit code
// other than kExitOk when the study must not go on (the message is on `err`).
int open_folder(const Scenario& s, const StudyRunOptions& opt, const std::string& header, std::ostream& err,
                std::optional<SamplesFile>* file) {
  const fs::path folder(s.output);
  const fs::path samples_path = folder / "samples.csv";
  std::error_code ec;
  if (opt.resume) {
    const StudyManifest m = read_manifest(s.output);
    if (m.version != fleetdyn_version()) {
      throw Error("--resume: " + s.output + " was written by fleetdyn " + m.version + ", this is " +
                  fleetdyn_version() + ": its results could differ; start the study again");
    }
    std::string note;
    file->emplace(SamplesFile::resume(samples_path.string(), header, &note));
    if (!note.empty() && !opt.quiet) err << "fleetdyn run: " << note << "\n";
    return kExitOk;
  }
  if (fs::exists(samples_path, ec) || fs::exists(folder / "study.json", ec)) {
    err << "fleetdyn run: " << s.output << " already holds a study; continue it with `fleetdyn run --resume "
        << s.output << "`, or choose another --out (nothing was overwritten)\n";
    return kExitBadInput;
  }
  fs::create_directories(folder, ec);
  if (ec) throw Error("cannot create output folder '" + s.output + "': " + ec.message());
  json manifest;
  manifest["fleetdyn_version"] = fleetdyn_version();
  manifest["scenario_path"] = s.path;
  manifest["scenario_text"] = s.text;
  manifest["cli_overrides"] = opt.cli;
  manifest["columns"] = header;
  write_text_file(folder / "study.json", manifest.dump(2) + "\n");
  file->emplace(SamplesFile::create(samples_path.string(), header));
  return kExitOk;
}

// A chunk's result as a message from a rank to rank 0.
std::string encode(const ChunkResult& r) {
  return std::to_string(r.simulated) + " " + std::to_string(static_cast<int>(r.backend)) + "\n" + r.device + "\n" + r.rows;
}
ChunkResult decode(const std::string& bytes) {
  ChunkResult r;
  const size_t a = bytes.find('\n'), b = bytes.find('\n', a + 1);
  std::istringstream head(bytes.substr(0, a));
  int backend = 0;
  head >> r.simulated >> backend;
  r.backend = static_cast<BackendKind>(backend);
  r.device = bytes.substr(a + 1, b - a - 1);
  r.rows = bytes.substr(b + 1);
  return r;
}

// What one rank ran on, for summary.json's "ranks".
struct RankRecord {
  int rank = 0, local_rank = 0, cuda_device = -1;
  std::string host, device = "none (no chunk ran here)";
  json to_json() const {
    return {{"rank", rank},
            {"host", host},
            {"local_rank", local_rank},
            {"cuda_device", cuda_device >= 0 ? json(cuda_device) : json(nullptr)},
            {"device", device}};
  }
  static RankRecord from_json(const json& j) {
    RankRecord r;
    r.rank = j.at("rank").get<int>();
    r.host = j.at("host").get<std::string>();
    r.local_rank = j.at("local_rank").get<int>();
    r.cuda_device = j.at("cuda_device").is_null() ? -1 : j.at("cuda_device").get<int>();
    r.device = j.at("device").get<std::string>();
    return r;
  }
};

// This rank's CUDA device, made current before any batch exists: (local rank mod visible
// devices) when the scenario may run on CUDA and a device is visible, else none (-1).
int select_rank_device(const Scenario& s, const ProcessGroup& group) {
  if (s.backend == BackendKind::Cpu) return -1;
  const int device = cuda_device_for_rank(group.local_rank(), cuda_device_count());
  if (device >= 0) use_cuda_device(device);
  return device;
}

int run_study_sharded(const Scenario& s, const StudyRunOptions& opt, std::ostream& out, std::ostream& err) {
  const ProcessGroup& group = ProcessGroup::world();
  const Clock::time_point t_start = Clock::now();
  RankRecord me;
  me.rank = group.rank();
  me.local_rank = group.local_rank();
  me.host = host_name();
  me.cuda_device = select_rank_device(s, group);
  const StudySpec& spec = s.study;
  const fs::path folder(s.output);
  const fs::path samples_path = folder / "samples.csv";
  const std::string header = samples_header(s);

  // ---- rank 0 opens the folder; every rank learns where to start, or that it must stop --------
  std::optional<SamplesFile> file;
  std::string start = "0";
  if (group.is_root()) {
    const int code = open_folder(s, opt, header, err, &file);
    start = code == kExitOk ? std::to_string(file->rows()) : "exit " + std::to_string(code);
  }
  group.broadcast(start);
  if (start.rfind("exit ", 0) == 0) return std::stoi(start.substr(5));
  const int64_t already = std::stoll(start);

  // ---- the chunks: chunk k of those still to do runs on rank k % size -------------------------
  const StudyDesign design(spec);
  const int64_t runs = design.run_count();
  if (already > runs) {
    throw Error(samples_path.string() + " holds " + std::to_string(already) + " samples, more than this study's " +
                std::to_string(runs));
  }
  const bool cuda = s.backend == BackendKind::Cuda || (s.backend == BackendKind::Auto && cuda_available());
  const int64_t chunk = spec.chunk > 0 ? spec.chunk : (cuda ? kDefaultChunkCuda : kDefaultChunkCpu);
  const int64_t chunks = (runs - already + chunk - 1) / chunk;
  if (group.is_root()) {
    for (const auto& w : s.warnings) err << "fleetdyn run: warning: " << w << "\n";
  }
  SampleProgress progress(err, opt.progress && !opt.quiet && group.is_root(), runs, already,
                          group.is_root() ? opt.on_progress : std::function<void(int64_t, int64_t)>());
  progress.update(static_cast<double>(already));
  const double setup_s = std::chrono::duration<double>(Clock::now() - t_start).count();
  const Clock::time_point t_run = Clock::now();
  const auto chunk_range = [&](int64_t k, int64_t* first, int64_t* count) {
    *first = already + k * chunk;
    *count = std::min(chunk, runs - *first);
  };
  if (!group.is_root()) {
    for (int64_t k = group.rank(); k < chunks; k += group.size()) {
      int64_t first = 0, count = 0;
      chunk_range(k, &first, &count);
      const ChunkResult r = simulate_chunk(s, design, first, count, progress);
      if (!r.device.empty()) me.device = r.device;
      group.send_to_root(encode(r));
    }
    group.send_to_root(me.to_json().dump());  // after its chunks: rank 0 reads it after theirs
    std::string code;
    group.broadcast(code);  // rank 0's exit code, once it has written the summary
    return std::stoi(code);
  }
  int64_t simulated = 0;
  std::string device = "none (no sample left to simulate)";
  BackendKind backend = s.backend;
  for (int64_t k = 0; k < chunks; ++k) {
    int64_t first = 0, count = 0;
    chunk_range(k, &first, &count);
    const int owner = static_cast<int>(k % group.size());
    const ChunkResult r = owner == 0 ? simulate_chunk(s, design, first, count, progress) : decode(group.receive_from(owner));
    file->append(r.rows, count);
    progress.update(static_cast<double>(first + count));
    simulated += r.simulated;
    if (!r.device.empty()) {
      device = group.size() > 1 ? std::to_string(group.size()) + " MPI ranks, each: " + r.device : r.device;
      backend = r.backend;
      if (owner == 0) me.device = r.device;
    }
  }
  json ranks = json::array({me.to_json()});
  for (int rank = 1; rank < group.size(); ++rank) {
    try {
      ranks.push_back(RankRecord::from_json(json::parse(group.receive_from(rank))).to_json());
    } catch (const json::exception& e) {
      throw Error("rank " + std::to_string(rank) + " sent no readable record of its device (" + e.what() + ")");
    }
  }
  progress.finish();
  const double run_s = std::chrono::duration<double>(Clock::now() - t_run).count();

  // ---- summary and report from the whole samples.csv (so a resumed study ends the same) -------
  const SamplesTable table = read_samples(samples_path.string());
  StudyTimings timings;
  timings.setup_s = setup_s;
  timings.wall_time_s = run_s;
  timings.samples_this_run = runs - already;
  timings.simulated_this_run = simulated;
  timings.vehicle_steps_this_run = static_cast<double>(simulated) * static_cast<double>(scenario_step_count(s));
  json summary = study_summary(s, table, timings);
  summary["cli_overrides"] = opt.cli;
  summary["backend"] = backend_name(backend);
  summary["device"] = device;
  summary["processes"] = group.size();
  summary["ranks"] = ranks;  // each rank's node, local rank and device (GPU: local rank mod devices)
  summary["resumed"] = opt.resume;
  summary["samples_done_before_this_run"] = already;
  if (spec.trajectories_worst > 0) summary["files"]["trajectories"] = "trajectories.h5";
  write_text_file(folder / "summary.json", summary.dump(2) + "\n");

  // The report, with the time series of the worst cases simulated again.
  StudyReport report = study_report(s, table, summary);
  report.backend = backend_name(backend);
  report.device = device;
  report.wall_time_s = run_s;
  std::vector<int64_t> worst;
  const int traced = std::max(kReportTraces, spec.trajectories_worst);
  for (const auto& w : summary["worst_cases"]["samples"]) {
    if (static_cast<int>(worst.size()) < traced) worst.push_back(w["sample"].get<int64_t>());
  }
  std::vector<ReportTrace> traces = simulate_traces(s, worst, spec.trajectory_points, "largest " + spec.worst_by);
  if (spec.trajectories_worst > 0) {
    const std::vector<ReportTrace> chosen(traces.begin(),
                                          traces.begin() + std::min<size_t>(traces.size(), spec.trajectories_worst));
    write_trajectories_h5(chosen, (folder / "trajectories.h5").string());
  }
  traces.resize(std::min<size_t>(traces.size(), kReportTraces));
  report.worst_cases = std::move(traces);
  write_report_html(report, (folder / "report.html").string());

  if (!opt.quiet) out << study_text_summary(s, summary, folder.string());
  std::string code = std::to_string(kExitOk);
  group.broadcast(code);
  return kExitOk;
}

}  // namespace

int run_study(const Scenario& s, const StudyRunOptions& opt, std::ostream& out, std::ostream& err) {
  const ProcessGroup& group = ProcessGroup::world();
  if (!built_with_mpi() && launcher_world_size() > 1) {
    throw Error("started by mpirun with " + std::to_string(launcher_world_size()) +
                " processes, but this fleetdyn was built without MPI: every process would run the whole study");
  }
  if (group.size() == 1) return run_study_sharded(s, opt, out, err);
  try {
    return run_study_sharded(s, opt, out, err);
  } catch (const std::exception& e) {
    // One rank failing mid-study would leave the others waiting: end them all. What is on disk
    // is whole chunks, so the study resumes.
    err << "fleetdyn run: rank " << group.rank() << ": " << e.what() << "\n";
    group.abort(kExitFailure);
  }
}

}  // namespace fleetdyn::study
