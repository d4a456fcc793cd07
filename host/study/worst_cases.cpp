#include "host/study/worst_cases.h"

#include <algorithm>
#include <cmath>

#include "host/study/sample_setup.h"

namespace fleetdyn::study {

std::vector<ReportTrace> simulate_traces(const Scenario& s, const std::vector<int64_t>& samples, int points,
                                         const std::string& label) {
  const StudyDesign design(s.study);
  std::vector<double> values(static_cast<size_t>(s.study.dimensions()));
  std::vector<ReportTrace> traces;
  std::vector<SampleSetup> setups;
  for (int64_t id : samples) {
    design.values(id, values.data());
    SampleSetup su = sample_setup(s, values.data(), design.base_sample(id));
    if (!su.valid) continue;
    ReportTrace t;
    t.sample = id;
    t.label = label;
    traces.push_back(t);
    setups.push_back(std::move(su));
  }
  const int n = static_cast<int>(traces.size());
  if (n == 0) return traces;
  std::vector<const SampleSetup*> pointers;
  for (const SampleSetup& su : setups) pointers.push_back(&su);
  Batch batch = sample_batch(s, pointers);
  for (ReportTrace& t : traces) {
    t.channels = {{"roll", "rad", {}}, {"pitch", "rad", {}}, {"roll_rate", "rad/s", {}}, {"speed", "m/s", {}}, {"y", "m", {}}};
  }
  const long long total = scenario_step_count(s);
  points = std::max(2, points);
  long long done = 0;
  for (int k = 0; k < points; ++k) {
    const long long target = total * k / (points - 1);
    if (target > done) batch.step(static_cast<int>(target - done));
    done = target;
    const std::vector<VehicleSnapshot> snaps = batch.snapshots();
    for (int v = 0; v < n; ++v) {
      const VehicleSnapshot& x = snaps[static_cast<size_t>(v)];
      ReportTrace& t = traces[static_cast<size_t>(v)];
      t.time.push_back(static_cast<double>(done) * s.step);
      const auto& vel = x.velocity;
      const double sample_values[] = {x.euler[0], x.euler[1], x.omega_body[0],
                                      std::sqrt(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]), x.position[1]};
      for (size_t c = 0; c < t.channels.size(); ++c) {
        // A diverged vehicle is frozen at its last sane state: its line stops there. A capsized
        // one is frozen where it passed the capsize angle, a state as real as any: its line stays.
        t.channels[c].values.push_back(x.status != kStatusDiverged || done == 0 ? sample_values[c] : std::nan(""));
      }
    }
  }
  const std::vector<double> metrics = batch.metrics();
  for (int v = 0; v < n; ++v) {
    for (int j = 0; j < kMetricCount; ++j)
      traces[static_cast<size_t>(v)].metrics.push_back(metrics[static_cast<size_t>(j) * n + v]);
  }
  return traces;
}

}  // namespace fleetdyn::study
