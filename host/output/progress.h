// One-line progress bar for long jobs, redrawn in place on a terminal:
//   [#########...............]  38%  t 2.28/6.00 s  1.52M veh-steps/s  ETA 4s
// The caller decides whether to show it (a terminal, not --quiet); a disabled bar prints nothing.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string>

#include "fleetdyn/batch.h"

namespace fleetdyn {

// The bar's text (no carriage return), for a fraction in [0, 1]; eta_s < 0 prints "ETA --".
std::string format_progress_line(double fraction, double sim_time, double total_time, double vehicle_steps_per_s, double eta_s);
// 1234567 -> "1.23M"; 950 -> "950".
std::string format_rate(double per_second);
// 5 -> "5s", 125 -> "2m05s", 7384 -> "2h03m".
std::string format_duration(double seconds);

// Advances the batch by `total` steps of `step` seconds in slices that start at about 0.1 s of
// simulated time and adapt towards 0.25 s of wall time each, synchronizing and calling
// on_slice(steps done) after each, so a progress display moves smoothly for any batch size.
void step_in_slices(Batch& batch, long long total, double step, const std::function<void(long long)>& on_slice);

class ProgressBar {
 public:
  ProgressBar(std::ostream& out, bool enabled, long long total_steps, double step, long long vehicles);
  // Steps done so far; redraws at most every 0.1 s of wall time (always when done == total).
  void update(long long done_steps);
  // Erases the bar so later output starts on a clean line.
  void finish();
  bool enabled() const { return enabled_; }

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream& out_;
  bool enabled_;
  bool drawn_ = false;
  long long total_steps_;
  double step_;
  long long vehicles_;
  Clock::time_point start_, last_draw_;
};

}  // namespace fleetdyn
