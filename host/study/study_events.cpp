#include "host/study/study_events.h"

#include <cstdio>

#include "fleetdyn/physics/core/math.h"

namespace fleetdyn::study {

namespace {

bool has_path(const Scenario& s) { return s.driver.kind == DriverSpec::Kind::Path; }
bool has_end(const Scenario& s) { return s.driver.kind != DriverSpec::Kind::Table; }

std::string text(const char* format, double a, double b = 0.0, double c = 0.0) {
  char buf[300];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

}  // namespace

std::vector<StudyEvent> study_events(const Scenario& s) {
  const StudySpec& spec = s.study;
  std::vector<StudyEvent> out = {
      {"rollover",
       text("max |roll| relative to the ground > %g deg, or an unbroken two-wheel lift of %g s, or capsized",
            spec.rollover.roll_deg, spec.rollover.two_wheel_lift_s)},
      {"two_wheel_lift", "both wheels of one side off the ground at some time"},
      {"diverged", "the state blew up (frozen at its last sane state)"},
      {"capsized", s.capsize_roll_deg > 0.0
                       ? text("the roll relative to the ground passed %g deg (capsize_roll_deg): frozen there", s.capsize_roll_deg)
                       : std::string("never (capsize_roll_deg: 0)")}};
  if (has_end(s)) {
    out.push_back({"completed", has_path(s) ? "the path's end was reached (closed path: once around)"
                                            : "the steer program finished"});
  }
  if (has_path(s)) {
    const PathEventCriteria& pe = spec.path_events;
    out.push_back({"lane_departure",
                   text("max path deviation > %g m: a side of the %g m wide vehicle crossed the edge of a %g m lane "
                        "centred on the path",
                        pe.lane_departure_deviation(), pe.vehicle_width, pe.lane_width)});
    out.push_back({"path_deviation", text("max path deviation of the body COM > %g m", pe.max_deviation)});
  }
  return out;
}

std::vector<bool> sample_events(const Scenario& s, const double* m, int status) {
  const StudySpec& spec = s.study;
  const bool capsized = status == kStatusRolledOver;
  std::vector<bool> out = {m[metric::max_abs_roll] > deg_to_rad(spec.rollover.roll_deg) ||
                               m[metric::longest_two_wheel_liftoff] >= spec.rollover.two_wheel_lift_s || capsized,
                           m[metric::two_wheel_liftoff_time] > 0.0, status == kStatusDiverged, capsized};
  if (has_end(s)) out.push_back(m[metric::maneuver_end_time] >= 0.0);
  if (has_path(s)) {
    // max_path_deviation is -1 until the driver has located the vehicle on its path.
    out.push_back(m[metric::max_path_deviation] > spec.path_events.lane_departure_deviation());
    out.push_back(m[metric::max_path_deviation] > spec.path_events.max_deviation);
  }
  return out;
}

}  // namespace fleetdyn::study
