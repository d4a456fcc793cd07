// Helpers shared by the driver tests: paths stored as the batch stores them, polylines, path queries.
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include "fleetdyn/driver.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/drivers/driver.h"

namespace fleetdyn {
namespace test {

constexpr double kDeg = kPi / 180.0;

// ---- host-side paths as the device sees them -------------------------------------------------

// Paths stored the way the batch stores them (host/batch/driver_setup.h), fp64.
struct StoredPaths {
  std::vector<int> offset, count, closed;
  std::vector<double> length, x, y, speed, s;
  explicit StoredPaths(const std::vector<Path>& paths) {
    for (const Path& p : paths) {
      offset.push_back(static_cast<int>(x.size()));
      count.push_back(static_cast<int>(p.points.size()));
      closed.push_back(p.closed ? 1 : 0);
      double arc = 0.0;
      for (size_t i = 0; i < p.points.size(); ++i) {
        if (i > 0) arc += std::hypot(p.points[i].x - p.points[i - 1].x, p.points[i].y - p.points[i - 1].y);
        x.push_back(p.points[i].x);
        y.push_back(p.points[i].y);
        speed.push_back(p.points[i].speed);
        s.push_back(arc);
      }
      length.push_back(path_length(p));
    }
  }
  PathSet<double> set() const {
    return {static_cast<int>(offset.size()),
            offset.data(),
            count.data(),
            closed.data(),
            length.data(),
            x.data(),
            y.data(),
            speed.data(),
            s.data(),
            nullptr};
  }
  PathView<double> view(int path = 0) const { return path_of(set(), path); }
};

inline Path polyline(std::vector<std::pair<double, double>> xy, bool closed = false) {
  Path p;
  p.closed = closed;
  for (const auto& [x, y] : xy) p.points.push_back({x, y, 5.0});
  return p;
}

inline PathQuery<double> at(double x, double y) { return {0.0, 0.0, x, y}; }

}  // namespace test
}  // namespace fleetdyn
