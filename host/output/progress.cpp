#include "host/output/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace fleetdyn {

std::string format_rate(double v) {
  char buf[32];
  if (!std::isfinite(v) || v < 0.0) return "--";
  if (v >= 1.0e9) {
    std::snprintf(buf, sizeof buf, "%.2fG", v / 1.0e9);
  } else if (v >= 1.0e6) {
    std::snprintf(buf, sizeof buf, "%.2fM", v / 1.0e6);
  } else if (v >= 1.0e3) {
    std::snprintf(buf, sizeof buf, "%.2fk", v / 1.0e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  }
  return buf;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0) return "--";
  const long long s = std::llround(seconds);
  char buf[32];
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%llds", s);
  } else if (s < 3600) {
    std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, (s % 3600) / 60);
  }
  return buf;
}

std::string format_progress_line(double fraction, double sim_time, double total_time, double rate, double eta_s) {
  constexpr int kWidth = 24;
  fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  const int filled = static_cast<int>(fraction * kWidth);
  std::string bar = "[" + std::string(static_cast<size_t>(filled), '#') +
                    std::string(static_cast<size_t>(kWidth - filled), '.') + "]";
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %3d%%  t %.2f/%.2f s  %s veh-steps/s  ETA %s", bar.c_str(),
                static_cast<int>(fraction * 100.0), sim_time, total_time, format_rate(rate).c_str(),
                format_duration(eta_s).c_str());
  return buf;
}

void step_in_slices(Batch& batch, long long total, double step, const std::function<void(long long)>& on_slice) {
  using Clock = std::chrono::steady_clock;
  long long slice = std::max<long long>(1, std::llround(0.1 / step));
  long long done = 0;
  while (done < total) {
    const long long n = std::min({slice, total - done, static_cast<long long>(std::numeric_limits<int>::max())});
    const Clock::time_point t0 = Clock::now();
    batch.step(static_cast<int>(n));
    batch.synchronize();
    done += n;
    on_slice(done);
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    const double scale = dt > 0.0 ? 0.25 / dt : 4.0;
    slice = std::max<long long>(1, static_cast<long long>(static_cast<double>(n) * std::clamp(scale, 0.25, 4.0)));
  }
}

ProgressBar::ProgressBar(std::ostream& out, bool enabled, long long total_steps, double step, long long vehicles)
    : out_(out),
      enabled_(enabled),
      total_steps_(std::max(1LL, total_steps)),
      step_(step),
      vehicles_(vehicles),
      start_(Clock::now()),
      last_draw_(start_) {}

void ProgressBar::update(long long done) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (done < total_steps_ && drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0.0 ? static_cast<double>(vehicles_) * static_cast<double>(done) / elapsed : -1.0;
  const double eta = done > 0 ? elapsed * static_cast<double>(total_steps_ - done) / static_cast<double>(done) : -1.0;
  // "\r" back to the line start, the bar, then erase whatever a longer previous line left behind.
  out_ << '\r'
       << format_progress_line(static_cast<double>(done) / static_cast<double>(total_steps_),
                               static_cast<double>(done) * step_, static_cast<double>(total_steps_) * step_, rate, eta)
       << "\x1b[K" << std::flush;
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!enabled_ || !drawn_) return;
  out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

}  // namespace fleetdyn
