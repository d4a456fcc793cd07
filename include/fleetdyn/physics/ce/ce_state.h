// The ce model's state (ce_model.h describes it) in its two layouts: the batch's, and the split
// layout a corner group steps (physics/core/corner_group.h).
#pragma once

#include "fleetdyn/physics/core/config.h"

namespace fleetdyn {

namespace ce {
// The full state of one vehicle, as the batch stores it.
enum StateIndex : int {
  kPos = 0,
  kQuat = 3,
  kOmega = 7,
  kVel = 10,
  kLca = 13,        // + corner
  kLcaRate = 17,    // + corner
  kWheelSpin = 21,  // + corner
  kDeflLong = 25,   // + corner
  kDeflLat = 29,    // + corner
  kSteer = 33,
  kStateSize = 34
};

// The split layout: the chassis' scalars (pos, quat, omega, vel at their full-state indices, then
// the steering angle), then kCornerSize scalars per held corner.
constexpr int kChassisSteer = 13;
constexpr int kChassisSize = 14;
enum CornerIndex : int {
  kCornerLca = 0,
  kCornerLcaRate = 1,
  kCornerSpin = 2,
  kCornerDeflLong = 3,
  kCornerDeflLat = 4,
  kCornerSize = 5
};

// Index in the full state of chassis scalar j, and of corner scalar j (CornerIndex) of a corner.
FLEETDYN_HD constexpr int chassis_state_index(int j) { return j == kChassisSteer ? kSteer : j; }
FLEETDYN_HD constexpr int state_index(int corner, int j) { return kLca + corner + 4 * j; }
static_assert(state_index(0, kCornerLcaRate) == kLcaRate && state_index(0, kCornerSpin) == kWheelSpin &&
                  state_index(0, kCornerDeflLong) == kDeflLong && state_index(0, kCornerDeflLat) == kDeflLat,
              "the corner scalars are strided by the corner count in the full state");
}  // namespace ce

constexpr int kCeStateSize = ce::kStateSize;

}  // namespace fleetdyn
