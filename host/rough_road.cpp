// ISO 8608 random roads by spectral synthesis (fleetdyn/rough_road.h).
#include "fleetdyn/rough_road.h"

#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/philox.h"

namespace fleetdyn {

double iso8608_reference_psd(char road_class) {
  if (road_class < 'A' || road_class > 'H') {
    throw Error(std::string("rough road: road_class must be 'A'..'H' (ISO 8608), got '") + road_class + "'");
  }
  return 16.0e-6 * std::pow(4.0, road_class - 'A');
}

TerrainSpec iso8608_road(const RoughRoadSettings& r) {
  const double gd0 = iso8608_reference_psd(r.road_class);
  const auto positive = [](double value, const char* field) {
    if (!(value > 0.0) || !std::isfinite(value)) {
      throw Error(std::string("rough road: ") + field + " must be positive, got " + std::to_string(value));
    }
  };
  positive(r.length, "length");
  positive(r.width, "width");
  positive(r.spacing_x, "spacing_x");
  positive(r.spacing_y, "spacing_y");
  positive(r.n_min, "n_min");
  if (!(r.n_max > r.n_min)) throw Error("rough road: n_max must exceed n_min");
  if (!(r.n_max <= 0.5 / r.spacing_x)) {
    throw Error("rough road: n_max (" + std::to_string(r.n_max) + " cycle/m) is above the Nyquist frequency of spacing_x (" +
                std::to_string(0.5 / r.spacing_x) + ")");
  }
  if (r.bands < 1 || r.bands > 100000) throw Error("rough road: bands must be in [1, 100000]");
  if (!(r.max_lateral_angle >= 0.0 && r.max_lateral_angle < 1.5)) throw Error("rough road: max_lateral_angle must be in [0, 1.5) rad");
  const int nx = static_cast<int>(std::lround(r.length / r.spacing_x)) + 1;
  const int ny = static_cast<int>(std::lround(r.width / r.spacing_y)) + 1;
  if (static_cast<long long>(nx) * ny > 200000000LL) throw Error("rough road: more than 2e8 samples; raise the spacing");

  // Bands of equal width in log n; n_k at the band's geometric centre.
  const double n0 = 0.1, two_pi = 6.283185307179586;
  const double ratio = std::pow(r.n_max / r.n_min, 1.0 / r.bands);
  std::vector<double> amplitude(r.bands), wavenumber(r.bands), slant(r.bands), phase(r.bands);
  for (int k = 0; k < r.bands; ++k) {
    const double lo = r.n_min * std::pow(ratio, k), hi = lo * ratio, n = std::sqrt(lo * hi);
    amplitude[k] = std::sqrt(2.0 * gd0 * (n0 / n) * (n0 / n) * (hi - lo));
    wavenumber[k] = two_pi * n;
    const auto u = [&](uint32_t dim) { return bits_to_open_unit(counter_bits64(r.seed, static_cast<uint64_t>(k), dim)); };
    phase[k] = two_pi * u(0);
    slant[k] = std::tan(r.max_lateral_angle * (2.0 * u(1) - 1.0));
  }
  TerrainSpec t;
  t.desc = default_terrain_desc<double>();
  t.desc.kind = TerrainKind::Heightfield;
  t.desc.hf_x0 = 0.0;
  t.desc.hf_y0 = -0.5 * (ny - 1) * r.spacing_y;
  t.desc.hf_dx = r.spacing_x;
  t.desc.hf_dy = r.spacing_y;
  t.desc.hf_nx = nx;
  t.desc.hf_ny = ny;
  t.heightfield.assign(static_cast<size_t>(nx) * ny, 0.0);
  // Each wave along a row by rotation (z <- z * e^{i k dx}): two complex multiply-adds per
  // sample instead of a cosine; the accumulated round-off over a row stays near 1e-12.
  for (int k = 0; k < r.bands; ++k) {
    const double step_re = std::cos(wavenumber[k] * r.spacing_x), step_im = std::sin(wavenumber[k] * r.spacing_x);
    for (int iy = 0; iy < ny; ++iy) {
      const double y = t.desc.hf_y0 + iy * r.spacing_y;
      double re = std::cos(wavenumber[k] * slant[k] * y + phase[k]), im = std::sin(wavenumber[k] * slant[k] * y + phase[k]);
      double* row = t.heightfield.data() + static_cast<size_t>(iy) * nx;
      for (int ix = 0; ix < nx; ++ix) {
        row[ix] += amplitude[k] * re;
        const double next_re = re * step_re - im * step_im;
        im = re * step_im + im * step_re;
        re = next_re;
      }
    }
  }
  double mean = 0.0;
  for (double h : t.heightfield) mean += h;
  mean /= static_cast<double>(t.heightfield.size());
  for (double& h : t.heightfield) h -= mean;
  return t;
}

}  // namespace fleetdyn
