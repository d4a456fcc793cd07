// The HMMWV suspension design (hmmwv_vehicle()) and the construction of the ce model's corner geometry.
#include <cmath>
#include <string>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/suspension.h"
#include "fleetdyn/vehicle_definition.h"

namespace fleetdyn {

SuspensionDesign hmmwv_suspension_design() { return suspension_design(hmmwv_vehicle()); }

const char* corner_name(int corner) {
  static const char* const kNames[kCorners] = {"FL", "FR", "RL", "RR"};
  return (corner >= 0 && corner < kCorners) ? kNames[corner] : "?";
}

namespace {

void require_positive(double value, const std::string& what) {
  if (!(value > 1e-6)) throw Error("suspension design: " + what + " is degenerate (" + std::to_string(value) + " m)");
}

TierodInner<double> inner_point(const CeSuspension<double>& s, int corner, double steer_angle, double steer_rate) {
  return tierod_inner_point(s.corner[corner], s.steering, steering_link_state(s.steering, steer_angle, steer_rate));
}

}  // namespace

CeSuspension<double> make_ce_suspension(const SuspensionDesign& design) {
  CeSuspension<double> s;
  s.steering = make_steering_linkage(design.steering);
  require_positive(s.steering.a, "steering: Pitman pivot to idler pivot");
  require_positive(s.steering.b, "steering: Pitman arm");
  require_positive(s.steering.c, "steering: steering link");
  require_positive(s.steering.d, "steering: idler arm");
  for (int i = 0; i < kCorners; ++i) {
    const bool front = i < 2;
    const double side = (i % 2 == 0) ? 1.0 : -1.0;
    const DoubleWishboneHardpoints<double>& h = front ? design.front : design.rear;
    const std::string where = std::string("suspension design, corner ") + corner_name(i) + ": ";
    require_positive(norm(h.lca_front - h.lca_back), where + "LCA pivot axis");
    require_positive(norm(h.uca_front - h.uca_back), where + "UCA pivot axis");
    require_positive(norm(h.uca_ball - h.lca_ball), where + "kingpin (LCA to UCA ball joint)");
    require_positive(norm(h.tierod_outer - h.tierod_inner), where + "tierod");
    s.corner[i] = make_corner_geometry(h, front ? design.front_axle_x : design.rear_axle_x, side, front);
    const CornerGeometry<double>& g = s.corner[i];
    require_positive(g.uca_radius, where + "UCA ball joint distance from the UCA axis");
    require_positive(g.tierod_radial, where + "tierod outer point distance from the kingpin axis");
    const TierodInner<double> fixed{g.design.tierod_inner, {0, 0, 0}, {0, 0, 0}};
    const CornerPose<double> pose = corner_pose(g, 0.0, fixed);
    const double closure_error = norm(pose.uca_ball - g.design.uca_ball) + norm(pose.tierod_outer - g.design.tierod_outer);
    if (!pose.assembled || !(closure_error < 1e-9)) {
      throw Error(where + "the design hardpoints do not close the wishbone/tierod loops (error " +
                  std::to_string(closure_error) + " m)");
    }
  }
  // A positive steering angle must turn the front-left wheel to the left.
  const double probe = 1e-3;
  const CornerPose<double> left = corner_pose(s.corner[0], 0.0, inner_point(s, 0, probe, 0.0));
  if (left.steer_angle < 0.0) s.steering.input_sign = -1.0;
  return s;
}

CornerKinematics corner_kinematics(const CeSuspension<double>& s, int corner, double lca_angle, double steer_angle) {
  if (corner < 0 || corner >= kCorners) throw Error("corner index " + std::to_string(corner) + " outside 0..3");
  const CornerGeometry<double>& g = s.corner[corner];
  CornerKinematics k;
  const TierodInner<double> still = inner_point(s, corner, steer_angle, 0.0);
  k.pose = corner_pose(g, lca_angle, still);
  k.per_lca_rate = corner_motion(g, k.pose, 1.0, still);
  k.per_steer_rate = corner_motion(g, k.pose, 0.0, inner_point(s, corner, steer_angle, 1.0));
  return k;
}

double lca_angle_for_travel(const CeSuspension<double>& s, int corner, double travel, double steer_angle) {
  if (corner < 0 || corner >= kCorners) throw Error("corner index " + std::to_string(corner) + " outside 0..3");
  const CornerGeometry<double>& g = s.corner[corner];
  const TierodInner<double> still = inner_point(s, corner, steer_angle, 0.0);
  const double design_z = g.design.wheel_centre.z;
  double angle = travel / norm(g.design.lca_ball - g.lca_axis_point);  // small-angle start
  for (int it = 0; it < 50; ++it) {
    const CornerPose<double> pose = corner_pose(g, angle, still);
    const double error = pose.wheel_centre.z - design_z - travel;
    if (std::fabs(error) < 1e-13 && pose.assembled) return angle;
    const double slope = corner_motion(g, pose, 1.0, still).wheel_centre_vel.z;
    if (!pose.assembled || !(std::fabs(slope) > 1e-6)) break;
    angle -= error / slope;
  }
  throw Error(std::string("corner ") + corner_name(corner) + ": wheel travel " + std::to_string(travel) +
              " m is outside the reach of the linkage");
}

double camber_angle(const CornerPose<double>& pose, double side) { return std::asin(-side * pose.spin_axis.z); }

double toe_in_angle(const CornerPose<double>& pose, double side) {
  return std::atan2(side * pose.spin_axis.x, pose.spin_axis.y);
}

}  // namespace fleetdyn
