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
//
// Periodic roads (Monte Carlo studies: each sample drives its own shifted copy, TerrainVariation)
// are one tile of a surface that repeats every length along x and width along y: each wave's
// frequencies are moved onto the tile's lattice (n_x = m / length, n_y = j / width; at most
// 1 / (2 length) off, 3.8 % at 0.011 cycle/m on 1200 m), bands that land on the same n_x are
// merged into one wave carrying their summed variance, and the heightfield is marked periodic.
// Along any line y = const the profile is then a sum of whole periods, so its variance over one
// tile length is exactly the PSD's integral over [n_min, n_max] (to round-off), whatever the seed.
#pragma once

#include <cstdint>

#include "fleetdyn/batch.h"

namespace fleetdyn {

struct RoughRoadSettings {
  char road_class = 'C';           // 'A' (Gd(n0) = 16e-6 m^3) .. 'H', each class 4x the previous
  double roughness = 0.0;          // [m^3] Gd(n0) directly; > 0 overrides road_class
  double length = 1200.0;          // [m] along x from x = 0
  double width = 12.0;             // [m] across, centred on y = 0
  double spacing_x = 0.1;          // [m]
  double spacing_y = 0.25;         // [m]
  double n_min = 0.011;            // [cycle/m] longest wavelength about 90 m
  double n_max = 2.83;             // [cycle/m] shortest about 0.35 m (3.5 samples at spacing_x)
  int bands = 128;                 // cosines in the sum
  double max_lateral_angle = 0.5;  // [rad] of the wave fronts
  uint64_t seed = 1;
  bool periodic = false;  // a tile repeating every length x width (above); else edges are held
};

// Gd(n0) [m^3] of an ISO 8608 class 'A'..'H' (geometric mean of the class); throws otherwise.
double iso8608_reference_psd(char road_class);
// The same for a class given as a number, A = 1 .. H = 8: 16e-6 * 4^(c - 1) m^3, so a fractional
// class lies between two classes geometrically (3.5: between C and D). Throws outside [1, 8].
double iso8608_class_psd(double road_class);
// Gd(n0) [m^3] of the settings: roughness if given, else the class's.
double rough_road_psd(const RoughRoadSettings& settings);
// The variance of the road's profile along x [m^2]: the integral of Gd(n0) (n0/n)^2 over
// [n_min, n_max] = Gd(n0) n0^2 (1/n_min - 1/n_max).
double rough_road_variance(const RoughRoadSettings& settings);
// The heightfield (base height 0, mean height removed). Throws fleetdyn::Error on bad settings.
TerrainSpec iso8608_road(const RoughRoadSettings& settings);

}  // namespace fleetdyn
