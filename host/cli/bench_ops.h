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
  long long transcendental = 0;  // sin cos tan exp expm1 pow atan2 asin
  long long compare = 0;         // < <= > >= == != (not floating-point work: branches and selects)
  long long other = 0;           // fabs floor (bit operations / rounding, not counted as FLOPs)
};

inline OpCounts& tally() {
  static OpCounts counts;  // single-threaded use only (the floor is computed once, up front)
  return counts;
}

// The counted arithmetic operators, each X(operator, the tally it counts in); the compound
// forms count the same.
#define FLEETDYN_COUNTED_ARITHMETIC(X) X(+, add) X(-, add) X(*, mul) X(/, div)

// A double that counts the operations done on it. Trivial, same layout as double, so a parameter
// struct of doubles can be copied into one of these bytewise.
struct Counted {
  double v;
  Counted() = default;
  Counted(double x) : v(x) {}  // implicit: literals and integers mix with the scalar in the physics
  explicit operator double() const { return v; }
  explicit operator int() const { return static_cast<int>(v); }
#define FLEETDYN_COUNTED_COMPOUND(op, count) \
  Counted& operator op##=(Counted b) {       \
    ++tally().count;                         \
    v = v op b.v;                            \
    return *this;                            \
  }
  FLEETDYN_COUNTED_ARITHMETIC(FLEETDYN_COUNTED_COMPOUND)
#undef FLEETDYN_COUNTED_COMPOUND
};

#define FLEETDYN_COUNTED_BINARY(op, count)           \
  inline Counted operator op(Counted a, Counted b) { \
    ++tally().count;                                 \
    return Counted(a.v op b.v);                      \
  }
FLEETDYN_COUNTED_ARITHMETIC(FLEETDYN_COUNTED_BINARY)
#undef FLEETDYN_COUNTED_BINARY
inline Counted operator-(Counted a) { return Counted(-a.v); }  // sign flip: free
#define FLEETDYN_COUNTED_COMPARISON(op)           \
  inline bool operator op(Counted a, Counted b) { \
    ++tally().compare;                            \
    return a.v op b.v;                            \
  }
FLEETDYN_COUNTED_COMPARISON(<)
FLEETDYN_COUNTED_COMPARISON(<=)
FLEETDYN_COUNTED_COMPARISON(>)
FLEETDYN_COUNTED_COMPARISON(>=)
FLEETDYN_COUNTED_COMPARISON(==)
FLEETDYN_COUNTED_COMPARISON(!=)
#undef FLEETDYN_COUNTED_COMPARISON
#undef FLEETDYN_COUNTED_ARITHMETIC

// The operations run() does on the counting scalar.
template <class Run>
OpCounts count_ops(Run&& run) {
  tally() = OpCounts{};
  run();
  return tally();
}

// What every model's bench traits (host/<model>/<model>_bench.h) share: the model, its parameter
// struct and the counting scalar.
template <class VehicleModelT, template <class> class ParamsT>
struct BenchTraits {
  using Counted = bench_ops::Counted;
  using OpCounts = bench_ops::OpCounts;
  using Model = VehicleModelT;
  template <class T>
  using Params = ParamsT<T>;
};

}  // namespace bench_ops
}  // namespace fleetdyn

namespace std {
using fleetdyn::bench_ops::Counted;
// The counted math functions of one argument, each with the tally it counts in.
#define FLEETDYN_COUNTED_FUNCTION(name, count) \
  inline Counted name(Counted a) {             \
    ++fleetdyn::bench_ops::tally().count;      \
    return Counted(std::name(a.v));            \
  }
FLEETDYN_COUNTED_FUNCTION(sqrt, sqrt)
FLEETDYN_COUNTED_FUNCTION(fabs, other)
FLEETDYN_COUNTED_FUNCTION(floor, other)
FLEETDYN_COUNTED_FUNCTION(ceil, other)
FLEETDYN_COUNTED_FUNCTION(sin, transcendental)
FLEETDYN_COUNTED_FUNCTION(cos, transcendental)
FLEETDYN_COUNTED_FUNCTION(tan, transcendental)
FLEETDYN_COUNTED_FUNCTION(exp, transcendental)
FLEETDYN_COUNTED_FUNCTION(asin, transcendental)
FLEETDYN_COUNTED_FUNCTION(expm1, transcendental)
#undef FLEETDYN_COUNTED_FUNCTION
inline Counted atan2(Counted a, Counted b) {
  ++fleetdyn::bench_ops::tally().transcendental;
  return Counted(std::atan2(a.v, b.v));
}
inline Counted pow(Counted a, Counted b) {
  ++fleetdyn::bench_ops::tally().transcendental;
  return Counted(std::pow(a.v, b.v));
}
}  // namespace std
