// Per-vehicle local origins. fp32 resolves ~1 mm at 10 km, far too coarse for a bushing that
// deflects micrometres or a tire that penetrates millimetres, so each vehicle's position is kept
// relative to its own origin, which moves in exact power-of-two steps as the vehicle travels.
#pragma once

#include <cmath>

#include "fleetdyn/physics/core/config.h"

namespace fleetdyn {

// Origins are multiples of this [m]: exact in fp32 to ~6e10 m; subtracting a quantum from a
// coordinate within twice of it is exact (Sterbenz).
constexpr double kOriginQuantum = 64.0;

FLEETDYN_FN double origin_quantize(double coordinate) {
  return kOriginQuantum * floor(coordinate / kOriginQuantum + 0.5);
}

// Move `origin` so that |local| <= one quantum; the world coordinate origin + local is unchanged.
template <class T>
FLEETDYN_FN void rebase_coordinate(T& local, T& origin) {
  const T quantum = T(kOriginQuantum);
  if (fabs(local) <= quantum) return;
  const T shift = quantum * floor(local / quantum + T(0.5));
  local -= shift;
  origin += shift;
}

}  // namespace fleetdyn
