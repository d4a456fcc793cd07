// ISO 8608 random roads as heightfield terrain (the reach-speed task of the vector environment;
// any batch can drive on one too).
//
// The profile along x of every line y = const has the class's displacement PSD
//   Gd(n) = Gd(n0) (n / n0)^-2,  n0 = 0.1 cycle/m,  Gd(n0) = 16e-6 m^3 for class A, x4 per class,
// over [n_min, n_max]: the sum of K cosines, one per band of equal width in log n, amplitude
// sqrt(2 Gd(n_k) dn_k) and a random phase (the standard spectral synthesis). Each wave front
// is tilted by a random angle up to max_lateral_angle, which keeps the PSD along x exact and
// decorrelates the left and right wheel tracks at short wavelengths (a flat 2-D road would roll
// no vehicle; a single profile copied across would roll it too little).
#pragma once

#include <cstdint>

#include "fleetdyn/batch.h"

namespace fleetdyn {

struct RoughRoadSettings {
  char road_class = 'C';        // 'A' (Gd(n0) = 16e-6 m^3) .. 'H', each class 4x the previous
  double length = 1200.0;       // [m] along x from x = 0
  double width = 12.0;          // [m] across, centred on y = 0
  double spacing_x = 0.1;       // [m]
  double spacing_y = 0.25;      // [m]
  double n_min = 0.011;         // [cycle/m] longest wavelength about 90 m
  double n_max = 2.83;          // [cycle/m] shortest about 0.35 m (3.5 samples at spacing_x)
  int bands = 128;              // cosines in the sum
  double max_lateral_angle = 0.5;  // [rad] of the wave fronts
  uint64_t seed = 1;
};

// Gd(n0) [m^3] of an ISO 8608 class 'A'..'H' (geometric mean of the class); throws otherwise.
double iso8608_reference_psd(char road_class);
// The heightfield (base height 0, mean height removed). Throws fleetdyn::Error on bad settings.
TerrainSpec iso8608_road(const RoughRoadSettings& settings);

}  // namespace fleetdyn
