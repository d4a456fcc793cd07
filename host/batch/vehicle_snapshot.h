// What the per-model traits (host/<model>/<model>_host.h) share for a batch's read-backs.
#pragma once

#include "fleetdyn/batch.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/strut/strut_params.h"

namespace fleetdyn {

// Where a rigid-body state (strut, ce) holds the vehicle frame's pose and motion: position,
// attitude quaternion, velocity, body rates and the 4 wheel spins. frame_off_com: the frame is not
// the body COM (ce: the chassis frame origin, its velocity in chassis axes; the COM sits at the
// traits' com_offset in it); otherwise the frame is the COM with its world velocity (strut).
struct RigidStateLayout {
  int pos, quat, vel, omega, wheel_spin;
  bool frame_off_com;
};

// The parameter set of vehicle v: one shared by all, or one per vehicle.
template <class P>
const P& vehicle_entry(const std::vector<P>& values, int v) {
  return values[static_cast<size_t>(v) % values.size()];
}

}  // namespace fleetdyn
