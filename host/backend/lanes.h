// SIMD lanes for the CPU backend: Lanes<T, W> holds one scalar of W vehicles, and the templated
// physics (include/fleetdyn/physics/) instantiated on it steps W vehicles in one instruction
// stream (4 doubles or 8 floats per AVX2 register). Host-only: GCC/Clang vector extensions, which
// map every operator to one vector instruction.
//
// The physics writes choices as select(mask, a, b) and compares to masks (physics/core/math.h), so
// each lane follows its own branch. Lanes never mix: no operation reads one lane into another,
// so a lane holding NaN (a diverging vehicle) cannot disturb its neighbours.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {

// Integer of the scalar's width: comparisons give per-lane masks of all ones or all zeros in it.
template <class T>
using lane_int = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;

template <class T, int W>
struct LaneMask {
  typedef lane_int<T> Bits __attribute__((vector_size(sizeof(T) * W)));
  Bits bits;
  friend LaneMask operator!(LaneMask a) { return {~a.bits}; }
};

template <class T, int W>
struct Lanes {
  static_assert(std::is_floating_point<T>::value, "lanes of float or double");
  typedef T Vec __attribute__((vector_size(sizeof(T) * W)));
  using Mask = LaneMask<T, W>;
  static constexpr int kWidth = W;
  Vec v;

  Lanes() = default;
  Lanes(T x) : v(Vec{} + x) {}  // broadcast (implicit, so literals mix with lanes as with scalars)
  static Lanes from(Vec x) {
    Lanes r;
    r.v = x;
    return r;
  }
  T operator[](int i) const { return v[i]; }
  void set(int i, T x) { v[i] = x; }

  friend Lanes operator+(Lanes a, Lanes b) { return from(a.v + b.v); }
  friend Lanes operator-(Lanes a, Lanes b) { return from(a.v - b.v); }
  friend Lanes operator*(Lanes a, Lanes b) { return from(a.v * b.v); }
  friend Lanes operator/(Lanes a, Lanes b) { return from(a.v / b.v); }
  friend Lanes operator-(Lanes a) { return from(-a.v); }
  Lanes& operator+=(Lanes b) {
    v += b.v;
    return *this;
  }
  Lanes& operator-=(Lanes b) {
    v -= b.v;
    return *this;
  }
  Lanes& operator*=(Lanes b) {
    v *= b.v;
    return *this;
  }
  Lanes& operator/=(Lanes b) {
    v /= b.v;
    return *this;
  }
  friend Mask operator<(Lanes a, Lanes b) { return {a.v < b.v}; }
  friend Mask operator<=(Lanes a, Lanes b) { return {a.v <= b.v}; }
  friend Mask operator>(Lanes a, Lanes b) { return {a.v > b.v}; }
  friend Mask operator>=(Lanes a, Lanes b) { return {a.v >= b.v}; }
  friend Mask operator==(Lanes a, Lanes b) { return {a.v == b.v}; }
  friend Mask operator!=(Lanes a, Lanes b) { return {a.v != b.v}; }
};

template <class T, int W>
struct ScalarOf<Lanes<T, W>> {
  using type = T;
};

// ---- choices and reductions (the lane forms of physics/core/math.h's) ---------------------------------
template <class T, int W>
inline Lanes<T, W> select(LaneMask<T, W> m, Lanes<T, W> a, Lanes<T, W> b) {
  return Lanes<T, W>::from(m.bits ? a.v : b.v);
}
template <class T, int W>
inline LaneMask<T, W> both(LaneMask<T, W> a, LaneMask<T, W> b) {
  return {a.bits & b.bits};
}
template <class T, int W>
inline bool any_lane(LaneMask<T, W> m) {
  lane_int<T> acc = 0;
  for (int i = 0; i < W; ++i) acc |= m.bits[i];
  return acc != 0;
}
template <class T, int W>
inline bool all_lanes(LaneMask<T, W> m) {
  lane_int<T> acc = -1;
  for (int i = 0; i < W; ++i) acc &= m.bits[i];
  return acc != 0;
}
template <class T, int W>
inline bool lane_is_set(LaneMask<T, W> m, int i) {
  return m.bits[i] != 0;
}

// ---- math ---------------------------------------------------------------------------------------
template <class T, int W>
inline Lanes<T, W> sqrt(Lanes<T, W> a) {
#if defined(__AVX__)
  if constexpr (std::is_same<T, double>::value && W == 4) return Lanes<T, W>::from(_mm256_sqrt_pd(a.v));
  if constexpr (std::is_same<T, float>::value && W == 8) return Lanes<T, W>::from(_mm256_sqrt_ps(a.v));
#endif
  Lanes<T, W> r;
  for (int i = 0; i < W; ++i) r.v[i] = std::sqrt(a.v[i]);
  return r;
}
template <class T, int W>
inline Lanes<T, W> fabs(Lanes<T, W> a) {  // clear the sign bit: fabs(-0) = +0 and NaN stays NaN
  typedef lane_int<T> Bits __attribute__((vector_size(sizeof(T) * W)));
  // A cast between vector types of one size reinterprets the bits (GCC/Clang vector extensions).
  const Bits sign = Bits{} + static_cast<lane_int<T>>(std::uint64_t(1) << (8 * sizeof(T) - 1));
  const Bits magnitude = (Bits)a.v & ~sign;
  return Lanes<T, W>::from((typename Lanes<T, W>::Vec)magnitude);
}
// Per lane through the scalar functions: these run once per step (steering trig), not per evaluation.
template <class T, int W>
inline Lanes<T, W> sin(Lanes<T, W> a) {
  Lanes<T, W> r;
  for (int i = 0; i < W; ++i) r.v[i] = std::sin(a.v[i]);
  return r;
}
template <class T, int W>
inline Lanes<T, W> cos(Lanes<T, W> a) {
  Lanes<T, W> r;
  for (int i = 0; i < W; ++i) r.v[i] = std::cos(a.v[i]);
  return r;
}

// ---- moving whole structs between lanes and scalars ----------------------------------------------
// For structs made only of T (StrutParams, StrutDiagnostics, ...): S<Lanes<T, W>> has the same
// fields in the same order, each W scalars wide, so field f of lane i is scalar f * W + i.
template <template <class> class S, class T, int W>
inline void set_lane(S<Lanes<T, W>>& lanes, int lane, const S<T>& one) {
  static_assert(sizeof(S<Lanes<T, W>>) == W * sizeof(S<T>), "struct must consist of T only");
  constexpr int kFields = sizeof(S<T>) / sizeof(T);
  T src[kFields];
  std::memcpy(src, &one, sizeof(S<T>));
  T* dst = reinterpret_cast<T*>(&lanes);
  for (int f = 0; f < kFields; ++f) dst[f * W + lane] = src[f];
}
template <template <class> class S, class T, int W>
inline S<T> get_lane(const S<Lanes<T, W>>& lanes, int lane) {
  static_assert(sizeof(S<Lanes<T, W>>) == W * sizeof(S<T>), "struct must consist of T only");
  constexpr int kFields = sizeof(S<T>) / sizeof(T);
  T dst[kFields];
  const T* src = reinterpret_cast<const T*>(&lanes);
  for (int f = 0; f < kFields; ++f) dst[f] = src[f * W + lane];
  S<T> one;
  std::memcpy(&one, dst, sizeof(S<T>));
  return one;
}

// Lanes per AVX2 register: 4 doubles, 8 floats.
template <class T>
constexpr int kLaneWidth = 32 / static_cast<int>(sizeof(T));

}  // namespace fleetdyn
