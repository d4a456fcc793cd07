// Which of a vehicle's four corners one thread of execution holds, and how the corners' values
// meet: the seam that lets a model's per-corner work run in a loop on the CPU and in four lanes
// per vehicle on the GPU from one source.
//
// A model written against a corner group (physics/strut/strut_split.h, physics/ce/ce_split.h) holds
// the state of group.kCount corners, slot k holding corner group.corner(k), and combines
// per-corner values only through the group:
//   kCount                  corners held here (AllCorners: 4; a CUDA corner lane: 1)
//   corner(k)               the corner in slot k
//   sum(part[kCount])       the sum over all four corners, always ((c0 + c1) + (c2 + c3)) so every
//                           group gives the same bits (a + b == b + a in IEEE arithmetic)
//   share(v[kCorners])      slot values -> every corner's value, indexed by corner
//   all(ok)                 true when `ok` holds for every corner of the vehicle
//   leader()                whether this thread writes the vehicle's shared outputs
//   sync()                  what the group's threads wrote to memory before it, each reads after it
// AllCorners is the CPU's group (and a GPU thread that runs a whole vehicle); the CUDA corner
// lanes are in kernels/corner_lanes.cuh.
#pragma once

#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/vehicle_common.h"

namespace fleetdyn {

// The pairwise sum over four corners, in the one order every group uses.
template <class V>
FLEETDYN_HD V sum_of_corners(const V& c0, const V& c1, const V& c2, const V& c3) {
  return (c0 + c1) + (c2 + c3);
}

struct AllCorners {
  static constexpr int kCount = kCorners;
  FLEETDYN_HD static constexpr int corner(int k) { return k; }
  template <class V>
  FLEETDYN_HD static V sum(const V (&part)[kCorners]) {
    return sum_of_corners(part[0], part[1], part[2], part[3]);
  }
  template <class V>
  FLEETDYN_HD static void share(V (&)[kCorners]) {}  // every corner is here already
  FLEETDYN_HD static bool all(bool ok) { return ok; }
  FLEETDYN_HD static constexpr bool leader() { return true; }
  FLEETDYN_HD static void sync() {}
};

}  // namespace fleetdyn
