// ISO 8608 random roads by spectral synthesis (fleetdyn/rough_road.h).
#include "fleetdyn/rough_road.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/philox.h"

namespace fleetdyn {

double iso8608_reference_psd(char road_class) {
  if (road_class < 'A' || road_class > 'H') {
    throw Error(std::string("rough road: road_class must be 'A'..'H' (ISO 8608), got '") + road_class + "'");
  }
  return 16.0e-6 * std::pow(4.0, road_class - 'A');
}

double iso8608_class_psd(double road_class) {
  if (!(road_class >= 1.0 && road_class <= 8.0)) {
    throw Error("rough road: a numeric road class must be in [1, 8] (A = 1 .. H = 8), got " + std::to_string(road_class));
  }
  return 16.0e-6 * std::pow(4.0, road_class - 1.0);
}

double rough_road_psd(const RoughRoadSettings& r) {
  if (r.roughness != 0.0) {
    if (!(r.roughness > 0.0) || !std::isfinite(r.roughness)) {
      throw Error("rough road: roughness must be positive, got " + std::to_string(r.roughness));
    }
    return r.roughness;
  }
  return iso8608_reference_psd(r.road_class);
}

double rough_road_variance(const RoughRoadSettings& r) {
  const double n0 = 0.1;
  return rough_road_psd(r) * n0 * n0 * (1.0 / r.n_min - 1.0 / r.n_max);
}

TerrainSpec iso8608_road(const RoughRoadSettings& r) {
  const double gd0 = rough_road_psd(r);
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
    throw Error("rough road: n_max (" + std::to_string(r.n_max) +
                " cycle/m) is above the Nyquist frequency of spacing_x (" + std::to_string(0.5 / r.spacing_x) + ")");
  }
  if (r.bands < 1 || r.bands > 100000) throw Error("rough road: bands must be in [1, 100000]");
  if (!(r.max_lateral_angle >= 0.0 && r.max_lateral_angle < 1.5))
    throw Error("rough road: max_lateral_angle must be in [0, 1.5) rad");
  // Counted in double first: a long road at a fine spacing must not overflow the integers.
  const double samples_x = std::round(r.length / r.spacing_x) + 1.0, samples_y = std::round(r.width / r.spacing_y) + 1.0;
  if (!(samples_x * samples_y <= 2.0e8)) throw Error("rough road: more than 2e8 samples; raise the spacing");
  // Each sample sums every band's wave: cap the work where synthesis would take more than about a second.
  if (samples_x * samples_y * r.bands > 1.0e9) {
    char what[160];
    std::snprintf(what, sizeof what, "rough road: %.3g samples x %d bands is more than 1e9 wave evaluations",
                  samples_x * samples_y, r.bands);
    throw Error(std::string(what) + "; raise the spacing or lower bands");
  }
  const int nx = static_cast<int>(samples_x);
  const int ny = static_cast<int>(samples_y);

  // Bands of equal width in log n; n_k at the band's geometric centre, where the band's
  // variance Gd(n0) n0^2 (1/lo - 1/hi) = Gd(n0) (n0/n_k)^2 (hi - lo) exactly (n_k^2 = lo hi).
  const double n0 = 0.1, two_pi = 6.283185307179586;
  const double ratio = std::pow(r.n_max / r.n_min, 1.0 / r.bands);
  std::vector<double> amplitude, wavenumber, cross_wavenumber, phase;  // one entry per wave
  const double period_x = (nx - 1) * r.spacing_x, period_y = (ny - 1) * r.spacing_y;
  if (r.periodic && (nx < 3 || ny < 2)) throw Error("rough road: a periodic road needs at least 3 x 2 samples");
  long long last_cycles = -1;  // periodic: whole periods of the last wave along the tile
  for (int k = 0; k < r.bands; ++k) {
    const double lo = r.n_min * std::pow(ratio, k), hi = lo * ratio, n = std::sqrt(lo * hi);
    const double a = std::sqrt(2.0 * gd0 * (n0 / n) * (n0 / n) * (hi - lo));
    const auto u = [&](uint32_t dim) { return bits_to_open_unit(counter_bits64(r.seed, static_cast<uint64_t>(k), dim)); };
    const double slant = std::tan(r.max_lateral_angle * (2.0 * u(1) - 1.0));
    if (!r.periodic) {
      amplitude.push_back(a);
      wavenumber.push_back(two_pi * n);
      cross_wavenumber.push_back(two_pi * n * slant);
      phase.push_back(two_pi * u(0));
      continue;
    }
    // On the tile's lattice. Bands are in increasing n, so equal cycle counts are neighbours:
    // merged, the wave keeps the first band's phase and slant and the bands' summed variance.
    const long long cycles = std::max(1LL, std::llround(n * period_x));
    if (2 * cycles >= nx - 1) {
      throw Error("rough road: n_max (" + std::to_string(r.n_max) +
                  " cycle/m) reaches the Nyquist frequency of the periodic tile");
    }
    if (cycles == last_cycles) {
      amplitude.back() = std::hypot(amplitude.back(), a);
      continue;
    }
    last_cycles = cycles;
    const double nq = static_cast<double>(cycles) / period_x;
    amplitude.push_back(a);
    wavenumber.push_back(two_pi * nq);
    cross_wavenumber.push_back(two_pi * static_cast<double>(std::llround(nq * slant * period_y)) / period_y);
    phase.push_back(two_pi * u(0));
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
  t.desc.hf_periodic = r.periodic ? 1 : 0;
  t.heightfield.assign(static_cast<size_t>(nx) * ny, 0.0);
  // Each wave along a row by rotation (z <- z * e^{i k dx}): two complex multiply-adds per
  // sample instead of a cosine; the accumulated round-off over a row stays near 1e-12. The
  // rotations of kRows rows are independent: stepped together (the rows interleaved in
  // `block`), they fill the vector lanes instead of waiting on one row's chain. Each sample
  // sums the waves in the same order as one row at a time would, to the same bits.
  constexpr int kRows = 8;
  std::vector<double> block(static_cast<size_t>(nx) * kRows);
  for (int iy0 = 0; iy0 < ny; iy0 += kRows) {
    std::fill(block.begin(), block.end(), 0.0);
    for (size_t k = 0; k < amplitude.size(); ++k) {
      const double step_re = std::cos(wavenumber[k] * r.spacing_x), step_im = std::sin(wavenumber[k] * r.spacing_x);
      const double a = amplitude[k];
      double re[kRows], im[kRows];
      for (int j = 0; j < kRows; ++j) {  // rows past the end run on unused
        const double y = t.desc.hf_y0 + std::min(iy0 + j, ny - 1) * r.spacing_y;
        re[j] = std::cos(cross_wavenumber[k] * y + phase[k]);
        im[j] = std::sin(cross_wavenumber[k] * y + phase[k]);
      }
      for (int ix = 0; ix < nx; ++ix) {
        double* out = block.data() + static_cast<size_t>(ix) * kRows;
        for (int j = 0; j < kRows; ++j) {
          out[j] += a * re[j];
          const double next_re = re[j] * step_re - im[j] * step_im;
          im[j] = re[j] * step_im + im[j] * step_re;
          re[j] = next_re;
        }
      }
    }
    for (int j = 0; j < kRows && iy0 + j < ny; ++j) {
      double* row = t.heightfield.data() + static_cast<size_t>(iy0 + j) * nx;
      for (int ix = 0; ix < nx; ++ix) row[ix] = block[static_cast<size_t>(ix) * kRows + j];
    }
  }
  if (r.periodic) {
    // Whole periods have zero mean. The last column and row are the first again (exactly, not
    // to the rotation's round-off), so the surface joins itself without a seam.
    for (int iy = 0; iy < ny; ++iy) {
      double* row = t.heightfield.data() + static_cast<size_t>(iy) * nx;
      row[nx - 1] = row[0];
    }
    std::copy(t.heightfield.begin(), t.heightfield.begin() + nx, t.heightfield.end() - nx);
    return t;
  }
  double mean = 0.0;
  for (double h : t.heightfield) mean += h;
  mean /= static_cast<double>(t.heightfield.size());
  for (double& h : t.heightfield) h -= mean;
  return t;
}

}  // namespace fleetdyn
