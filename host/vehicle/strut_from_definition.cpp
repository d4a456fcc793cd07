// The strut model's parameters for a vehicle definition: the lumped equivalent of its ce model.
#include <cmath>

#include "fleetdyn/ce.h"
#include "fleetdyn/vehicle.h"
#include "fleetdyn/vehicle_definition.h"

namespace fleetdyn {

StrutParams<double> strut_params_from_definition(const VehicleDefinition& v) {
  const CeParams<double> ce = make_ce_params(v);
  StrutParams<double> p = strut_equivalent_params(ce);
  // strut's max_steer is a road-wheel angle: the mean of the two front wheels' at full input
  // (the Ackermann difference between them is in the tabulated linkage).
  CeSuspension<double> s;
  for (int i = 0; i < kCorners; ++i) s.corner[i] = ce.corner[i];
  s.steering = ce.steering;
  const double full = ce.steering.max_angle;
  const double left = corner_kinematics(s, 0, 0.0, full).pose.steer_angle;
  const double right = corner_kinematics(s, 1, 0.0, full).pose.steer_angle;
  p.max_steer = 0.5 * (std::fabs(left) + std::fabs(right));
  finalize_vehicle_params(p);
  return p;
}

}  // namespace fleetdyn
