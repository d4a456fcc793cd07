// ISO 8608 random roads (fleetdyn/rough_road.h): the profile along x has the class's variance
// (the integral of its PSD over the band), classes scale by 4 in PSD, the left and right wheel
// tracks are correlated at long wavelengths but not identical, and bad settings are rejected.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/rough_road.h"

namespace fleetdyn {
namespace {

std::vector<double> row_profile(const TerrainSpec& t, double y) {
  const int iy = static_cast<int>(std::lround((y - t.desc.hf_y0) / t.desc.hf_dy));
  return std::vector<double>(t.heightfield.begin() + static_cast<long>(iy) * t.desc.hf_nx,
                             t.heightfield.begin() + static_cast<long>(iy + 1) * t.desc.hf_nx);
}

double variance(const std::vector<double>& h) {
  double mean = 0.0, sq = 0.0;
  for (double x : h) mean += x;
  mean /= h.size();
  for (double x : h) sq += (x - mean) * (x - mean);
  return sq / h.size();
}

// Var = integral of Gd(n0) (n0/n)^2 dn over [n_min, n_max] = Gd(n0) n0^2 (1/n_min - 1/n_max).
// A 3 km record holds ~33 periods of the longest wave, so the sample variance of the sum of
// random-phase cosines is within a few per cent of it; 12 % allows for the few longest waves.
TEST(RoughRoad, ProfileVarianceIsTheIntegralOfTheClassPsd) {
  RoughRoadSettings r;
  r.length = 3000.0;
  r.width = 4.0;
  for (char road_class : {'B', 'C', 'D'}) {
    r.road_class = road_class;
    const TerrainSpec t = iso8608_road(r);
    const double expected = iso8608_reference_psd(road_class) * 0.01 * (1.0 / r.n_min - 1.0 / r.n_max);
    for (double y : {-1.0, 0.0, 1.0}) {
      EXPECT_NEAR(variance(row_profile(t, y)), expected, 0.12 * expected) << road_class << " y " << y;
    }
  }
  EXPECT_DOUBLE_EQ(iso8608_reference_psd('A'), 16e-6);
  EXPECT_DOUBLE_EQ(iso8608_reference_psd('C'), 256e-6);
}

TEST(RoughRoad, WheelTracksAreCorrelatedButNotIdentical) {
  RoughRoadSettings r;
  r.length = 2000.0;
  r.width = 4.0;
  const TerrainSpec t = iso8608_road(r);
  const std::vector<double> left = row_profile(t, 0.9), right = row_profile(t, -0.9);
  double sl = 0.0, sr = 0.0, slr = 0.0;
  for (size_t i = 0; i < left.size(); ++i) {
    sl += left[i] * left[i];
    sr += right[i] * right[i];
    slr += left[i] * right[i];
  }
  const double correlation = slr / std::sqrt(sl * sr);
  EXPECT_GT(correlation, 0.5);   // long waves span both tracks
  EXPECT_LT(correlation, 0.99);  // short ones differ: the road rolls a vehicle
  // Differences between the tracks (what rolls the body) are of the order of the profile itself.
  std::vector<double> difference(left.size());
  for (size_t i = 0; i < left.size(); ++i) difference[i] = left[i] - right[i];
  EXPECT_GT(variance(difference), 0.02 * variance(left));
}

TEST(RoughRoad, SameSeedSameRoadOtherSeedOtherRoad) {
  RoughRoadSettings r;
  r.length = 100.0;
  EXPECT_EQ(iso8608_road(r).heightfield, iso8608_road(r).heightfield);
  RoughRoadSettings other = r;
  other.seed = 2;
  EXPECT_NE(iso8608_road(other).heightfield, iso8608_road(r).heightfield);
}

TEST(RoughRoad, BadSettingsAreRejected) {
  RoughRoadSettings r;
  r.road_class = 'Z';
  EXPECT_THROW(iso8608_road(r), Error);
  r = RoughRoadSettings{};
  r.n_max = 10.0;  // above the Nyquist frequency of 0.1 m samples
  EXPECT_THROW(iso8608_road(r), Error);
  r = RoughRoadSettings{};
  r.spacing_x = -1.0;
  EXPECT_THROW(iso8608_road(r), Error);
}

}  // namespace
}  // namespace fleetdyn
