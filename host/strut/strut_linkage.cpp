// The strut model's linkage curves (physics/strut/strut_linkage.h) from a suspension design: ce's
// closed-form corner kinematics sampled over the wheel travel (and, for the steered corners, over
// the Pitman arm's range at design travel), fitted by least squares and checked against the
// samples.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/suspension.h"

namespace fleetdyn {
namespace {

constexpr int kSamples = 41;

// Chebyshev points of [-1, 1] (ends included), where a polynomial fit's error is most even.
std::vector<double> chebyshev_points(int n) {
  std::vector<double> x(n);
  for (int k = 0; k < n; ++k) x[k] = -std::cos(kPi * k / (n - 1));
  return x;
}

// Least-squares polynomial in x of the values y, and its largest deviation from them.
LinkageCurve<double> fit_curve(const std::vector<double>& x, const std::vector<double>& y, double& max_error) {
  const int n = static_cast<int>(x.size());
  Eigen::MatrixXd a(n, kLinkageCoefficients);
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i) {
    double power = 1.0;
    for (int k = 0; k < kLinkageCoefficients; ++k, power *= x[i]) a(i, k) = power;
    b(i) = y[i];
  }
  const Eigen::VectorXd c = a.colPivHouseholderQr().solve(b);
  LinkageCurve<double> curve{};
  for (int k = 0; k < kLinkageCoefficients; ++k) curve.c[k] = c(k);
  max_error = (a * c - b).cwiseAbs().maxCoeff();
  return curve;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Fit one curve and refuse it if the polynomial misses a sample by more than `tolerance`.
LinkageCurve<double> checked_fit(const std::vector<double>& x, const std::vector<double>& y, double tolerance,
                                 const std::string& what) {
  double error = 0.0;
  const LinkageCurve<double> c = fit_curve(x, y, error);
  if (!(error <= tolerance)) {
    throw Error(what + ": the linkage curve is not smooth enough to tabulate (fit error " + num(error) + ", allowed " +
                num(tolerance) + ")");
  }
  return c;
}

}  // namespace

void tabulate_strut_linkage(const CeSuspension<double>& s, StrutParams<double>& p) {
  const std::vector<double> x = chebyshev_points(kSamples);
  for (int corner = 0; corner < kCorners; corner += 2) {  // the left corner of each axle
    const std::string where = std::string("strut linkage, corner ") + corner_name(corner);
    const bool front = corner < 2;
    const double travel_min = -(front ? p.rebound_travel_front : p.rebound_travel_rear) - kLinkageTravelMargin;
    const double travel_max = (front ? p.bump_travel_front : p.bump_travel_rear) + kLinkageTravelMargin;
    if (!(std::isfinite(travel_min) && std::isfinite(travel_max) && travel_min < 0.0 && travel_max > 0.0)) {
      throw Error(where + ": travel range [" + num(travel_min) + ", " + num(travel_max) +
                  "] m must contain the design position 0");
    }
    const double mid = 0.5 * (travel_min + travel_max), half = 0.5 * (travel_max - travel_min);
    const CornerPose<double> design = corner_kinematics(s, corner, 0.0, 0.0).pose;
    std::vector<double> mx(kSamples), my(kSamples), roll(kSamples), yaw(kSamples), length(kSamples);
    for (int k = 0; k < kSamples; ++k) {
      const double travel = mid + half * x[k];
      double lca = 0.0;
      try {
        lca = lca_angle_for_travel(s, corner, travel, 0.0);
      } catch (const Error&) {
        throw Error(where + ": travel " + num(travel) + " m is outside the reach of the linkage (tabulated range [" +
                    num(travel_min) + ", " + num(travel_max) + "] m)");
      }
      const CornerPose<double> pose = corner_kinematics(s, corner, lca, 0.0).pose;
      // The right corner must be the mirror image (the curves are stored once per axle).
      const CornerPose<double> right = corner_kinematics(s, corner + 1, lca_angle_for_travel(s, corner + 1, travel, 0.0), 0.0)
                                           .pose;
      const CornerPose<double> right_design = corner_kinematics(s, corner + 1, 0.0, 0.0).pose;
      const double asymmetry = std::fabs(right.wheel_centre.x - right_design.wheel_centre.x -
                                         (pose.wheel_centre.x - design.wheel_centre.x)) +
                               std::fabs(right.wheel_centre.y - right_design.wheel_centre.y +
                                         (pose.wheel_centre.y - design.wheel_centre.y)) +
                               std::fabs(right.spin_axis.z + pose.spin_axis.z) +
                               std::fabs(right.spin_axis.x + pose.spin_axis.x) +
                               std::fabs(right.spring_length - pose.spring_length);
      if (!(asymmetry < 1e-9)) {
        throw Error(where + ": the right corner is not the left's mirror image at travel " + num(travel) +
                    " m (the strut's curves are stored per axle)");
      }
      mx[k] = pose.wheel_centre.x - design.wheel_centre.x;
      my[k] = pose.wheel_centre.y - design.wheel_centre.y;
      roll[k] = std::asin(pose.spin_axis.z);
      yaw[k] = std::atan2(-pose.spin_axis.x, pose.spin_axis.y);
      length[k] = pose.spring_length;
      if (k > 0 && !(length[k] < length[k - 1])) {
        throw Error(where + ": the spring length does not shorten monotonically with bump at travel " + num(travel) +
                    " m (motion ratio <= 0)");
      }
    }
    AxleLinkage<double>& link = p.linkage.axle[corner / 2];
    link = AxleLinkage<double>{};
    link.travel_mid = mid;
    link.travel_inverse_half = 1.0 / half;
    // Tolerances: 0.05 mm on positions, 0.01 deg on angles (a fifth of what the tests allow).
    const double position = 5e-5, angle = deg_to_rad(0.01);
    link.migration_x = checked_fit(x, mx, position, where + ", wheel-centre migration x");
    link.migration_y = checked_fit(x, my, position, where + ", wheel-centre migration y");
    link.carrier_roll = checked_fit(x, roll, angle, where + ", camber");
    link.carrier_yaw = checked_fit(x, yaw, angle, where + ", toe");
    link.spring_length = checked_fit(x, length, position, where + ", spring length");
    // The path must pass through the design position (the mount) with zero migration.
    link.migration_x.c[0] -= linkage_curve(link.migration_x, -mid / half, 0.0, 1.0 / half).value;
    link.migration_y.c[0] -= linkage_curve(link.migration_y, -mid / half, 0.0, 1.0 / half).value;
  }

  // Ackermann: the left front road-wheel angle against the mean of the two, at design travel,
  // over the Pitman arm's range (heading relative to the design heading, static toe aside). The
  // right wheel mirrors it (checked: its offset at mean d is minus the left's at -d).
  const double pitman_max = s.steering.max_angle;
  auto heading = [&](int corner, double pitman) { return corner_kinematics(s, corner, 0.0, pitman).pose.steer_angle; };
  const double toe0[2] = {heading(0, 0.0), heading(1, 0.0)};
  auto mean_angle = [&](double pitman) { return 0.5 * (heading(0, pitman) - toe0[0] + heading(1, pitman) - toe0[1]); };
  const double steer_half = std::min(std::fabs(mean_angle(pitman_max)), std::fabs(mean_angle(-pitman_max)));
  if (!(steer_half > 1e-3)) throw Error("strut linkage: the steering does not turn the front wheels");
  std::vector<double> sx, offset;
  // Sample the Pitman range densely, keep the points whose mean angle lies inside the range.
  for (int k = 0; k <= 400; ++k) {
    const double pitman = pitman_max * (-1.0 + k / 200.0);
    const double mean = mean_angle(pitman);
    if (std::fabs(mean) > steer_half) continue;
    sx.push_back(mean / steer_half);
    offset.push_back(heading(0, pitman) - toe0[0] - mean);
  }
  AxleLinkage<double>& front = p.linkage.axle[0];
  front.steer_inverse_half = 1.0 / steer_half;
  front.steer_offset = checked_fit(sx, offset, deg_to_rad(0.02), "strut linkage, corner FL, Ackermann");
  front.steer_offset.c[0] -= linkage_curve(front.steer_offset, 0.0, 0.0, 1.0).value;
  // The mirror check: the right wheel's offset at mean angle d equals minus the curve at -d.
  for (double d : {-0.8, -0.3, 0.3, 0.8}) {
    double lo = -pitman_max, hi = pitman_max;  // the Pitman angle of mean angle d * steer_half
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      (mean_angle(mid) < d * steer_half ? lo : hi) = mid;
    }
    const double pitman = 0.5 * (lo + hi);
    const double right = heading(1, pitman) - toe0[1] - mean_angle(pitman);
    const double mirrored = -linkage_curve(front.steer_offset, -d, 0.0, 1.0).value;
    if (!(std::fabs(right - mirrored) < deg_to_rad(0.02))) {
      throw Error(
          "strut linkage: the right front wheel's steering is not the left's mirror image (the strut's "
          "Ackermann curve is stored once)");
    }
  }
  p.linkage.tabulated = 1.0;
}

}  // namespace fleetdyn
