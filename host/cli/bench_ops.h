// The counting scalar of `fleetdyn bench` (host/cli/bench_job.cpp): a double that tallies every
// operation the physics performs on it, for the CUDA kernel's arithmetic floor (bench/floor.md).
// Include it before any physics header: the physics calls std::sqrt and friends by qualified
// name, so the overloads below must be declared first.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>

// ---- operation-counting scalar ----------------------------------------------------------------
// Declared before the physics headers: they call std::sqrt etc. by qualified name, which binds to
// the overloads visible where the templates are defined.
namespace fleetdyn {
namespace bench_ops {

struct OpCounts {
  long long add = 0;  // + - (and compound forms)
  long long mul = 0;  // *
  long long div = 0;  // /
  long long sqrt = 0;
  long long transcendental = 0;  // sin cos tan exp atan2 asin
  long long compare = 0;         // < <= > >= == != (not floating-point work: branches and selects)
  long long other = 0;           // fabs floor (bit operations / rounding, not counted as FLOPs)
};

inline OpCounts& tally() {
  static OpCounts counts;  // single-threaded use only (the floor is computed once, up front)
  return counts;
}

// A double that counts the operations done on it. Trivial, same layout as double, so a parameter
// struct of doubles can be copied into one of these bytewise.
struct Counted {
  double v;
  Counted() = default;
  Counted(double x) : v(x) {}  // implicit: literals and integers mix with the scalar in the physics
  explicit operator double() const { return v; }
  explicit operator int() const { return static_cast<int>(v); }
  Counted& operator+=(Counted b) {
    ++tally().add;
    v += b.v;
    return *this;
  }
  Counted& operator-=(Counted b) {
    ++tally().add;
    v -= b.v;
    return *this;
  }
  Counted& operator*=(Counted b) {
    ++tally().mul;
    v *= b.v;
    return *this;
  }
  Counted& operator/=(Counted b) {
    ++tally().div;
    v /= b.v;
    return *this;
  }
};

inline Counted operator+(Counted a, Counted b) {
  ++tally().add;
  return Counted(a.v + b.v);
}
inline Counted operator-(Counted a, Counted b) {
  ++tally().add;
  return Counted(a.v - b.v);
}
inline Counted operator*(Counted a, Counted b) {
  ++tally().mul;
  return Counted(a.v * b.v);
}
inline Counted operator/(Counted a, Counted b) {
  ++tally().div;
  return Counted(a.v / b.v);
}
inline Counted operator-(Counted a) { return Counted(-a.v); }  // sign flip: free
inline bool operator<(Counted a, Counted b) {
  ++tally().compare;
  return a.v < b.v;
}
inline bool operator<=(Counted a, Counted b) {
  ++tally().compare;
  return a.v <= b.v;
}
inline bool operator>(Counted a, Counted b) {
  ++tally().compare;
  return a.v > b.v;
}
inline bool operator>=(Counted a, Counted b) {
  ++tally().compare;
  return a.v >= b.v;
}
inline bool operator==(Counted a, Counted b) {
  ++tally().compare;
  return a.v == b.v;
}
inline bool operator!=(Counted a, Counted b) {
  ++tally().compare;
  return a.v != b.v;
}

}  // namespace bench_ops
}  // namespace fleetdyn

namespace std {
using fleetdyn::bench_ops::Counted;
inline Counted sqrt(Counted a) {
  ++fleetdyn::bench_ops::tally().sqrt;
  return Counted(std::sqrt(a.v));
}
inline Counted fabs(Counted a) {
  ++fleetdyn::bench_ops::tally().other;
  return Counted(std::fabs(a.v));
}
inline Counted floor(Counted a) {
  ++fleetdyn::bench_ops::tally().other;
  return Counted(std::floor(a.v));
}
inline Counted sin(Counted a) {
  ++fleetdyn::bench_ops::tally().transcendental;
  return Counted(std::sin(a.v));
}
inline Counted cos(Counted a) {
  ++fleetdyn::bench_ops::tally().transcendental;
  return Counted(std::cos(a.v));
}
inline Counted tan(Counted a) {
  ++fleetdyn::bench_ops::tally().transcendental;
  return Counted(std::tan(a.v));
}
inline Counted exp(Counted a) {
  ++fleetdyn::bench_ops::tally().transcendental;
  return Counted(std::exp(a.v));
}
inline Counted asin(Counted a) {
  ++fleetdyn::bench_ops::tally().transcendental;
  return Counted(std::asin(a.v));
}
inline Counted atan2(Counted a, Counted b) {
  ++fleetdyn::bench_ops::tally().transcendental;
  return Counted(std::atan2(a.v, b.v));
}
}  // namespace std
