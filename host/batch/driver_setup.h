// The drivers' arguments (fleetdyn/driver.h) checked and stored into a batch's storage: used
// by host/batch/batch.cpp only. Checks throw fleetdyn::Error naming the path, point, vehicle and field,
// like the maneuver tables' do.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/driver.h"
#include "fleetdyn/error.h"
#include "host/batch/batch_storage.h"

namespace fleetdyn {
namespace driver_setup {

inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Points closer than this are one point to a driver that divides by segment lengths (and 1 mm
// is about what fp32 resolves 10 km out).
constexpr double kMinSegment = 1e-3;  // [m]
// Segment indices are kept in the driver state as exact integers, also in fp32.
constexpr int kMaxPathPoints = 1 << 24;

inline void check_paths(const std::vector<Path>& paths, const std::vector<int>& vehicle_path, int vehicles) {
  if (paths.empty()) throw Error("path driver: at least one path is required");
  for (size_t k = 0; k < paths.size(); ++k) {
    const Path& path = paths[k];
    const std::string where = "path " + std::to_string(k);
    const size_t n = path.points.size();
    const size_t needed = path.closed ? 3 : 2;
    if (n < needed) {
      throw Error(where + ": " + (path.closed ? "a closed" : "an open") + " path needs at least " +
                  std::to_string(needed) + " points, got " + std::to_string(n));
    }
    if (n > static_cast<size_t>(kMaxPathPoints)) {
      throw Error(where + ": at most " + std::to_string(kMaxPathPoints) + " points, got " + std::to_string(n));
    }
    for (size_t i = 0; i < n; ++i) {
      const PathPoint& p = path.points[i];
      const std::string at = where + " point " + std::to_string(i);
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.speed)) {
        throw Error(at + ": x, y and speed must be finite");
      }
      if (!(p.speed >= 0.0)) throw Error(at + ": speed must be >= 0 m/s, got " + num(p.speed));
      if (i > 0) {
        const PathPoint& q = path.points[i - 1];
        if (std::hypot(p.x - q.x, p.y - q.y) < kMinSegment) {
          throw Error(at + ": within 1 mm of point " + std::to_string(i - 1) + " (consecutive points must differ)");
        }
      }
    }
    const PathPoint &first = path.points.front(), &last = path.points.back();
    if (path.closed && std::hypot(last.x - first.x, last.y - first.y) < kMinSegment) {
      throw Error(where + " point " + std::to_string(n - 1) +
                  ": a closed path's last point must not repeat its first (the closing segment is implied)");
    }
  }
  if (!vehicle_path.empty()) {
    if (vehicle_path.size() != static_cast<size_t>(vehicles)) {
      throw Error("path driver: vehicle_path must have one entry per vehicle (" + std::to_string(vehicles) + "), got " +
                  std::to_string(vehicle_path.size()));
    }
    for (int v = 0; v < vehicles; ++v) {
      const int k = vehicle_path[static_cast<size_t>(v)];
      if (k < 0 || k >= static_cast<int>(paths.size())) {
        throw Error("path driver: vehicle " + std::to_string(v) + " follows path " + std::to_string(k) + ", but there " +
                    (paths.size() == 1 ? "is 1 path" : "are " + std::to_string(paths.size()) + " paths"));
      }
    }
  }
}

// A setting that must lie in [lo, hi] (open at lo when lo_open).
inline void check_range(const std::string& where, const char* field, double value, double lo, bool lo_open, double hi,
                        const char* unit) {
  const bool ok = std::isfinite(value) && (lo_open ? value > lo : value >= lo) && value <= hi;
  if (!ok) {
    const std::string bound = std::string(lo_open ? "> " : ">= ") + num(lo) +
                              (std::isfinite(hi) ? std::string(" and <= ") + num(hi) : std::string());
    throw Error(where + ": " + field + " must be " + bound + (*unit ? std::string(" ") + unit : std::string()) +
                ", got " + num(value));
  }
}

template <class E>
void check_count(const std::vector<E>& values, int vehicles, const char* what) {
  if (values.size() != 1 && values.size() != static_cast<size_t>(vehicles)) {
    throw Error(std::string(what) + ": expected 1 or " + std::to_string(vehicles) + " entries, got " +
                std::to_string(values.size()));
  }
}

inline std::string entry_name(const char* what, size_t i, size_t count) {
  return std::string(what) + (count == 1 ? " (all vehicles)" : " (vehicle " + std::to_string(i) + ")");
}

// Each entry of a per-vehicle list checked by check(entry, where), after its count.
template <class E, class Check>
void check_entries(const std::vector<E>& values, int vehicles, const char* list, const char* entry, Check&& check) {
  check_count(values, vehicles, list);
  for (size_t i = 0; i < values.size(); ++i) check(values[i], entry_name(entry, i, values.size()));
}

inline void check_path_settings(const std::vector<PathDriverSettings>& settings, int vehicles) {
  check_entries(settings, vehicles, "path driver settings", "path driver settings",
                [](const PathDriverSettings& s, const std::string& where) {
                  if (s.tracker != PathTracker::PurePursuit && s.tracker != PathTracker::Stanley) {
                    throw Error(where + ": unknown tracker " + std::to_string(static_cast<int>(s.tracker)));
                  }
#define FLEETDYN_CHECK_SETTING(name, lo_open, unit) check_range(where, #name, s.name, 0.0, lo_open, INFINITY, unit);
                  FLEETDYN_PATH_DRIVER_SETTINGS(FLEETDYN_CHECK_SETTING)
#undef FLEETDYN_CHECK_SETTING
                });
}

inline void check_steer_programs(const std::vector<SteerProgram>& programs, int vehicles) {
  check_entries(programs, vehicles, "steer programs", "steer program", [](const SteerProgram& p, const std::string& where) {
    if (p.kind != SteerProgramKind::RampHold && p.kind != SteerProgramKind::Fishhook &&
        p.kind != SteerProgramKind::SineWithDwell) {
      throw Error(where + ": unknown kind " + std::to_string(static_cast<int>(p.kind)));
    }
    const auto field = [&](const char* name, double value, double lo, bool lo_open, double hi, const char* unit,
                           bool fishhook_only) {
      if (fishhook_only) {
        if (!std::isfinite(value)) throw Error(where + ": " + name + " must be finite, got " + num(value));
        if (p.kind != SteerProgramKind::Fishhook) return;
      }
      check_range(where, name, value, lo, lo_open, hi, unit);
    };
#define FLEETDYN_CHECK_FIELD(name, lo, lo_open, hi, unit, fishhook_only) \
  field(#name, p.name, lo, lo_open, hi, unit, fishhook_only);
    FLEETDYN_STEER_PROGRAM_FIELDS(FLEETDYN_CHECK_FIELD)
#undef FLEETDYN_CHECK_FIELD
  });
}

// Every vehicle's driver state at its reset values (allocated on first use).
template <class Model, class T>
void reset_driver_state(BatchStorage<Model, T>& host) {
  const size_t n = static_cast<size_t>(host.vehicle_count);
  host.driver_state.resize(kDriverStateSize * n);
  for (int j = 0; j < kDriverStateSize; ++j) {
    for (size_t v = 0; v < n; ++v) host.driver_state[j * n + v] = driver_initial_value<T>(j);
  }
}

// Checked paths and settings into the storage (arclengths summed in double).
template <class Model, class T>
void store_path_driver(BatchStorage<Model, T>& host, const std::vector<Path>& paths,
                       const std::vector<int>& vehicle_path, const std::vector<PathDriverSettings>& settings) {
  host.clear_arrays(kSyncDriver);  // the paths, their settings and the steer programs
  for (const Path& path : paths) {
    host.path_offset.push_back(static_cast<int>(host.path_x.size()));
    host.path_count.push_back(static_cast<int>(path.points.size()));
    host.path_closed.push_back(path.closed ? 1 : 0);
    double s = 0.0;
    for (size_t i = 0; i < path.points.size(); ++i) {
      const PathPoint& p = path.points[i];
      if (i > 0) s += std::hypot(p.x - path.points[i - 1].x, p.y - path.points[i - 1].y);
      host.path_x.push_back(T(p.x));
      host.path_y.push_back(T(p.y));
      host.path_speed.push_back(T(p.speed));
      host.path_s.push_back(T(s));
    }
    host.path_length.push_back(T(path_length(path)));
  }
  host.vehicle_path = vehicle_path;
  for (const PathDriverSettings& s : settings) {
    PathDriverParams<T> p;
    p.tracker = s.tracker == PathTracker::Stanley ? kStanley : kPurePursuit;
#define FLEETDYN_COPY_SETTING(name, ...) p.name = T(s.name);
    FLEETDYN_PATH_DRIVER_SETTINGS(FLEETDYN_COPY_SETTING)
#undef FLEETDYN_COPY_SETTING
    host.path_params.push_back(p);
  }
  host.driver_mode = kDriverPath;
}

template <class Model, class T>
void store_steer_programs(BatchStorage<Model, T>& host, const std::vector<SteerProgram>& programs) {
  host.programs.clear();
  for (const SteerProgram& s : programs) {
    SteerProgramParams<T> p;
    p.kind = s.kind == SteerProgramKind::Fishhook        ? kProgramFishhook
             : s.kind == SteerProgramKind::SineWithDwell ? kProgramSineWithDwell
                                                         : kProgramRampHold;
#define FLEETDYN_COPY_FIELD(name, ...) p.name = T(s.name);
    FLEETDYN_STEER_PROGRAM_FIELDS(FLEETDYN_COPY_FIELD)
#undef FLEETDYN_COPY_FIELD
    host.programs.push_back(p);
  }
  host.driver_mode = kDriverProgram;
}

}  // namespace driver_setup
}  // namespace fleetdyn
