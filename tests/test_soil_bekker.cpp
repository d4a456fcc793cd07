// Tests of the soft-soil wheel model (include/fleetdyn/physics/core/soil_bekker.h) against
// independent integrals written here (plain trapezoids in the arc angle, Bekker's horizontal
// pressure integral), Bekker's closed-form sinkage, the circular segment's closed-form area and
// moment, and bounds from Mohr-Coulomb strength.
#include "fleetdyn/physics/core/soil_bekker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

namespace fleetdyn {
namespace {

constexpr double kRadius = 0.47;  // [m]: a HMMWV-sized wheel
constexpr double kWidth = 0.32;   // [m]

// Model against the independent integrals, relative to the force scale (the load): the 10-point
// rule's own error is below 2e-6 of the load for these soils and sinkages (its mapped integrands are
// smooth but for the (theta_1 - theta)^n edge), the reference trapezoids' below 1e-7. Float adds its
// rounding over ~40 terms and a pow per node.
template <class T>
struct Tol;
template <>
struct Tol<float> {
  static constexpr double model = 3e-5;
  static constexpr double solve = 2e-5;      // sinkage solve, relative to the load
  static constexpr double vs_double = 2e-5;  // float against double, relative to the load
};
template <>
struct Tol<double> {
  static constexpr double model = 1e-5;
  static constexpr double solve = 1e-11;
};

template <class T>
class SoilTest : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SoilTest, Scalars);

const SoilPreset kPresets[] = {SoilPreset::DrySand, SoilPreset::LeteSand, SoilPreset::SandyLoam, SoilPreset::ClayeySoil,
                               SoilPreset::Snow};

template <class T>
SoilWheel<T> wheel() {
  return {T(kRadius), T(kWidth)};
}

template <class T>
SoilParams<T> to_precision(const SoilParams<double>& p) {
  return {T(p.k_c),           T(p.k_phi), T(p.n),  T(p.cohesion),   T(p.friction_angle),
          T(p.shear_modulus), T(p.c1),    T(p.c2), T(p.unit_weight)};
}

// ---- independent references (double) ---------------------------------------------------------------

struct RefArc {
  double fz, fx, shear_y, shear_x, normal_only_fz;
  double shear_y_below, shear_y_ahead;  // int of the lateral shear times r cos theta, r sin theta
};

// Wong-Reece integrals by the trapezoid rule in theta itself, each stress region with m intervals;
// the stresses written straight from their definitions (cos theta - cos theta_1, sin theta_1 -
// sin theta as written, the equivalent angle by division).
RefArc ref_arc(const SoilParams<double>& p, double z, double s, double sy, int m = 40000) {
  const double r = kRadius, b = kWidth;
  const double th1 = std::acos(1.0 - z / r);
  const double thm = std::min(std::max(p.c1 + p.c2 * s, 0.0), 1.0) * th1;
  const double k = p.k_c / b + p.k_phi;
  RefArc out{0, 0, 0, 0, 0, 0, 0};
  auto add = [&](double th, double weight) {
    const double te = th >= thm ? th : th1 - (th / thm) * (th1 - thm);
    const double gap = std::cos(te) - std::cos(th1);
    const double sigma = gap > 0 ? k * std::pow(r * gap, p.n) : 0.0;
    const double jx = r * ((th1 - th) - (1 - s) * (std::sin(th1) - std::sin(th)));
    const double jy = r * (th1 - th) * sy;
    const double j = std::hypot(jx, jy);
    const double tau = (p.cohesion + sigma * std::tan(p.friction_angle)) * (1 - std::exp(-j / p.shear_modulus));
    const double tx = j > 0 ? tau * jx / j : 0.0, ty = j > 0 ? tau * jy / j : 0.0;
    out.fz += weight * r * b * (sigma * std::cos(th) + tx * std::sin(th));
    out.fx += weight * r * b * (tx * std::cos(th) - sigma * std::sin(th));
    out.shear_y += weight * r * b * ty;
    out.shear_x += weight * r * b * tx;
    out.normal_only_fz += weight * r * b * sigma * std::cos(th);
    out.shear_y_below += weight * r * b * ty * r * std::cos(th);  // the rim point is r cos theta below the centre
    out.shear_y_ahead += weight * r * b * ty * r * std::sin(th);  // ... and r sin theta ahead of it
  };
  for (const auto& [lo, hi] : {std::pair<double, double>{0.0, thm}, {thm, th1}}) {
    if (hi <= lo) continue;
    const double h = (hi - lo) / m;
    for (int i = 0; i <= m; ++i) add(lo + i * h, (i == 0 || i == m ? 0.5 : 1.0) * h);
  }
  return out;
}

// Bekker's load: the pressure k d^n on the horizontal projection of the front arc, d(x) the depth of
// the rim below the surface at x ahead of the lowest point; trapezoid in psi, x = x0 sin psi.
double ref_bekker_load(const SoilParams<double>& p, double z, int m = 200000) {
  const double r = kRadius, b = kWidth;
  const double k = p.k_c / b + p.k_phi;
  const double x0 = std::sqrt(2 * r * z - z * z);
  const double h = (kPi / 2) / m;
  double sum = 0;
  for (int i = 0; i <= m; ++i) {
    const double psi = i * h;
    const double x = x0 * std::sin(psi);
    const double depth = std::max(z - (r - std::sqrt(r * r - x * x)), 0.0);
    sum += (i == 0 || i == m ? 0.5 : 1.0) * h * k * std::pow(depth, p.n) * x0 * std::cos(psi);
  }
  return b * sum;
}

// The immersed side face (the circular segment below the surface, depth z): its area and its first
// and second moments of depth below the surface, by the trapezoid in the polar angle phi from the
// lowest point (a strip at depth r cos phi - r cos theta_1, width 2 r sin phi, height r sin phi dphi).
struct RefFace {
  double area, moment, second;
};
RefFace ref_side_face(double z, int m = 20000) {
  const double r = kRadius, th1 = std::acos(1.0 - z / r), h = th1 / m;
  RefFace out{0, 0, 0};
  for (int i = 0; i <= m; ++i) {
    const double phi = i * h, w = (i == 0 || i == m ? 0.5 : 1.0) * h;
    const double depth = r * (std::cos(phi) - std::cos(th1)), da = 2 * r * r * std::sin(phi) * std::sin(phi) * w;
    out.area += da;
    out.moment += da * depth;
    out.second += da * depth * depth;
  }
  return out;
}

// Where the passive pressure gamma d N_phi + 2 c sqrt(N_phi) on the side face acts: its depth below
// the surface.
double ref_bulldozing_depth(const SoilParams<double>& p, double z) {
  const RefFace f = ref_side_face(z);
  const double n_phi = std::pow(std::tan(kPi / 4 + p.friction_angle / 2), 2);
  const double a = p.unit_weight * n_phi, c = 2 * p.cohesion * std::sqrt(n_phi);
  return (a * f.second + c * f.moment) / (a * f.moment + c * f.area);
}

SoilParams<double> bekker_distribution(SoilPreset preset) {  // normal stress peaking at the lowest point
  SoilParams<double> p = soil_preset<double>(preset);
  p.c1 = 0;
  p.c2 = 0;
  return p;
}

template <class T>
void expect_near_scaled(T actual, double expected, double scale, double rel, const std::string& what) {
  EXPECT_NEAR(static_cast<double>(actual), expected, rel * scale) << what << " (scale " << scale << ")";
}

// ---- static sinkage ----------------------------------------------------------------------------------

// The static sinkage carries the load by the independent integrals: Bekker's horizontal form for the
// Bekker distribution (c1 = 0) and the Wong-Reece trapezoid for the presets' own c1.
TYPED_TEST(SoilTest, StaticSinkageCarriesTheLoadByIndependentIntegrals) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    for (double load : {50.0, 500.0, 3000.0, 9000.0}) {
      const std::string what = std::string(soil_preset_name(preset)) + " load " + std::to_string(load);
      for (bool bekker : {true, false}) {
        const SoilParams<double> pd = bekker ? bekker_distribution(preset) : soil_preset<double>(preset);
        bool clamped = true;
        const T z = soil_static_sinkage(to_precision<T>(pd), wheel<T>(), T(load), &clamped);
        ASSERT_GT(z, T(0)) << what;
        const double carried = bekker ? ref_bekker_load(pd, static_cast<double>(z))
                                      : ref_arc(pd, static_cast<double>(z), 0, 0).normal_only_fz;
        if (clamped) {  // soft snow under the heavier loads: at its radius the wheel carries less
          EXPECT_EQ(z, T(kRadius)) << what;
          EXPECT_LT(carried, load) << what;
          continue;
        }
        expect_near_scaled(T(carried), load, load, Tol<T>::model + Tol<T>::solve, what + (bekker ? " bekker" : " wr"));
      }
    }
  }
}

// Bekker's closed form z0 = [3 W / ((3 - n)(k_c + b k_phi) sqrt(2r))]^(2/(2n+1)) (W the wheel load;
// per unit width it reads (k_c / b + k_phi)). Two approximations: the contact arc as a parabola,
// whose depth exceeds the circle's by at most z/(2r) of z at the contact edge, so the sinkage is
// within 0.5 z/r of the parabola's; and int_0^1 (1 - u^2)^n du ~ (3 - n)/3, whose exact value
// I_n = sqrt(pi) Gamma(n+1) / (2 Gamma(n+3/2)) moves z0 by the factor ((3-n)/(3 I_n))^(2/(2n+1)).
TYPED_TEST(SoilTest, StaticSinkageNearBekkerClosedForm) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    const SoilParams<double> pd = bekker_distribution(preset);
    const double n = pd.n, kb = pd.k_c + kWidth * pd.k_phi;
    const double exact_integral = std::sqrt(kPi) * std::tgamma(n + 1) / (2 * std::tgamma(n + 1.5));
    const double factor = std::pow((3 - n) / (3 * exact_integral), 2 / (2 * n + 1));
    for (double z_over_r : {0.003, 0.01, 0.03, 0.1}) {
      // The load that sinks the wheel by about z_over_r r, from the closed form itself.
      const double load = (3 - n) / 3 * kb * std::sqrt(2 * kRadius) * std::pow(z_over_r * kRadius, n + 0.5);
      bool clamped = true;
      const double z = static_cast<double>(soil_static_sinkage(to_precision<T>(pd), wheel<T>(), T(load), &clamped));
      const double z0 = std::pow(3 * load / ((3 - n) * kb * std::sqrt(2 * kRadius)), 2 / (2 * n + 1));
      const double z_exact_integral = z0 * factor;
      const std::string what = std::string(soil_preset_name(preset)) + " z/r " + std::to_string(z_over_r);
      EXPECT_FALSE(clamped) << what;
      EXPECT_NEAR(z / z_exact_integral, 1.0, 0.5 * z / kRadius + 1e-5) << what << " (parabola only)";
      EXPECT_NEAR(z / z0, 1.0, std::fabs(factor - 1) * 1.001 + 0.5 * z / kRadius + 1e-5) << what << " (Bekker)";
    }
  }
}

// ---- drawbar pull, torque and the vertical balance ---------------------------------------------------

// Every output against the trapezoid of the Wong-Reece / Janosi-Hanamoto stresses: longitudinal
// slip from skid to spin, lateral slip from none to full sliding, three sinkages.
TYPED_TEST(SoilTest, ForcesMatchIndependentShearIntegral) {
  using T = TypeParam;
  for (SoilPreset preset : {SoilPreset::DrySand, SoilPreset::SandyLoam, SoilPreset::ClayeySoil}) {
    const SoilParams<double> pd = soil_preset<double>(preset);
    for (double z : {0.01, 0.05, 0.15}) {
      const double scale = ref_arc(pd, z, 0, 0).normal_only_fz;  // the load this sinkage carries
      for (double s : {-0.8, -0.1, 0.0, 0.05, 0.2, 0.5, 1.0}) {
        for (double sy : {0.0, 0.3, 1e6}) {
          const RefArc ref = ref_arc(pd, z, s, sy);
          const SoilWheelForces<T> f = soil_wheel_forces(to_precision<T>(pd), wheel<T>(), T(z), T(s), T(sy));
          const std::string what = std::string(soil_preset_name(preset)) + " z " + std::to_string(z) + " s " +
                                   std::to_string(s) + " sy " + std::to_string(sy);
          const double tol = Tol<T>::model;
          expect_near_scaled(f.fx, ref.fx, scale, tol, what + " fx");
          expect_near_scaled(f.fz, ref.fz, scale, tol, what + " fz");
          expect_near_scaled(f.my, -kRadius * ref.shear_x, kRadius * scale, tol, what + " my");
          expect_near_scaled(T(f.fy - f.fy_bulldozing), -ref.shear_y, scale, tol, what + " lateral shear");
          // fy's moments about the centre: the shear where it acts on the rim, the bulldozing at the
          // side face's centre of pressure (r - z + its depth below the centre)
          const double bulldozing_lever = kRadius - z + ref_bulldozing_depth(pd, z);
          expect_near_scaled(f.mx, -ref.shear_y_below + double(f.fy_bulldozing) * bulldozing_lever, kRadius * scale,
                             tol, what + " mx");
          expect_near_scaled(f.mz, -ref.shear_y_ahead, kRadius * scale, tol, what + " mz");
        }
      }
    }
  }
}

// With c2 = 0 the stress distribution does not move with slip and every element's shear
// displacement grows with slip (d jx / ds = r (sin theta_1 - sin theta) >= 0), so the drawbar pull
// rises with slip; for s >= 0 it stays below the Mohr-Coulomb thrust c A + W tan(phi), A = b r
// sin(theta_1) the contact's horizontal area (Wong's maximum thrust).
TYPED_TEST(SoilTest, DrawbarPullRisesWithSlipBelowMaximumThrust) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    SoilParams<double> pd = soil_preset<double>(preset);
    pd.c2 = 0;
    const SoilParams<T> p = to_precision<T>(pd);
    for (double z : {0.01, 0.05, 0.2}) {
      T previous = -std::numeric_limits<T>::infinity();
      for (int i = 0; i <= 40; ++i) {
        const double s = -1.0 + 0.05 * i;
        const SoilWheelForces<T> f = soil_wheel_forces(p, wheel<T>(), T(z), T(s), T(0));
        const std::string what = std::string(soil_preset_name(preset)) + " z " + std::to_string(z) + " s " +
                                 std::to_string(s);
        EXPECT_GT(f.fx, previous) << what;
        previous = f.fx;
        if (s >= 0) {
          const double area = kWidth * kRadius * std::sin(static_cast<double>(f.entry_angle));
          const double thrust = pd.cohesion * area + static_cast<double>(f.fz) * std::tan(pd.friction_angle);
          EXPECT_LT(static_cast<double>(f.fx), thrust) << what;
        }
      }
    }
  }
}

// At zero slip the rim still moves along the arc faster than the ground (the displacement
// r [(theta_1 - theta) - (sin theta_1 - sin theta)] >= 0, largest at the lowest point), so the
// longitudinal shear is positive and mobilized at most 1 - exp(-r (theta_1 - sin theta_1) / K) of
// the strength r b int (c + sigma tan phi).
TYPED_TEST(SoilTest, ZeroSlipShearIsOnlyTheArcKinematics) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    const SoilParams<double> pd = soil_preset<double>(preset);
    for (double z : {0.01, 0.05, 0.2}) {
      const SoilWheelForces<T> f = soil_wheel_forces(to_precision<T>(pd), wheel<T>(), T(z), T(0), T(0));
      const double th1 = std::acos(1 - z / kRadius);
      const RefArc ref = ref_arc(pd, z, 0, 1e6);  // fully mobilized (all lateral): the strength integral
      const double strength = std::hypot(ref.shear_x, ref.shear_y);
      const double bound = -std::expm1(-kRadius * (th1 - std::sin(th1)) / pd.shear_modulus) * strength;
      const double shear_x = -static_cast<double>(f.my) / kRadius;
      EXPECT_GT(shear_x, 0.0) << soil_preset_name(preset) << " z " << z;
      EXPECT_LT(shear_x, bound) << soil_preset_name(preset) << " z " << z;
      EXPECT_EQ(f.fy, T(0));
    }
  }
}

// The sinkage at a load (normal and shear stress carrying it together) meets the load, at any slip.
TYPED_TEST(SoilTest, ForcesAtLoadCarryTheLoad) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    const SoilParams<T> p = soil_preset<T>(preset);
    for (double load : {100.0, 1000.0, 5000.0}) {
      for (double s : {-1.0, -0.2, 0.0, 0.3, 1.0}) {
        for (double sy : {0.0, -0.5, 20.0}) {
          const SoilWheelForces<T> f = soil_wheel_forces_at_load(p, wheel<T>(), T(load), T(s), T(sy));
          const std::string what = std::string(soil_preset_name(preset)) + " load " + std::to_string(load) + " s " +
                                   std::to_string(s) + " sy " + std::to_string(sy);
          if (f.sinkage_clamped) {  // only soft snow under the heavier loads
            EXPECT_EQ(preset, SoilPreset::Snow) << what;
            EXPECT_EQ(f.sinkage, T(kRadius)) << what;
            EXPECT_LT(f.fz, T(load)) << what;
            continue;
          }
          expect_near_scaled(f.fz, load, load, Tol<T>::solve, what);
        }
      }
    }
  }
}

// ---- lateral: shear and bulldozing ------------------------------------------------------------------

// The side face below the surface is a circular segment: area A = r^2 (theta_1 - sin theta_1
// cos theta_1), first moment about the surface M = (2/3) r^3 sin^3 theta_1 - r cos theta_1 A (its
// centroid lies 4 r sin^3 theta_1 / (3 (2 theta_1 - sin 2 theta_1)) from the centre). The model
// integrates t^2 (1 - t^2) sqrt(2r - z t^2) on [0, 1] with 10 Gauss points; the nearest singularity,
// t = sqrt(2r/z) >= sqrt(2), is x = 2 sqrt(2) - 1 on [-1, 1], its Bernstein ellipse rho = x +
// sqrt(x^2 - 1) = 3.36, so the rule's error is about rho^-20 = 3e-11 relative: tolerance 1e-10.
TYPED_TEST(SoilTest, BulldozingIsPassivePressureOnTheSideSegment) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    const SoilParams<double> pd = soil_preset<double>(preset);
    for (double z : {0.005, 0.05, 0.2, kRadius}) {
      const double th1 = std::acos(1 - z / kRadius), r = kRadius;
      const double area = r * r * (th1 - std::sin(th1) * std::cos(th1));
      const double moment = 2.0 / 3.0 * r * r * r * std::pow(std::sin(th1), 3) - r * std::cos(th1) * area;
      const double n_phi = std::pow(std::tan(kPi / 4 + pd.friction_angle / 2), 2);
      const double expected = pd.unit_weight * n_phi * moment + 2 * pd.cohesion * std::sqrt(n_phi) * area;
      const T capacity = soil_bulldozing_capacity(to_precision<T>(pd), T(kRadius), T(z));
      EXPECT_NEAR(static_cast<double>(capacity), expected, (std::is_same<T, float>::value ? 2e-6 : 1e-10) * expected)
          << soil_preset_name(preset) << " z " << z;
      // its centre of pressure, against the side face's moments by the trapezoid in phi (whose error,
      // h^2 / 12 of the integrand's second derivative, is below 1e-9 of the depth here)
      const SoilBulldozing<T> b = soil_bulldozing(to_precision<T>(pd), T(kRadius), T(z));
      const double depth = ref_bulldozing_depth(pd, z);
      EXPECT_NEAR(static_cast<double>(b.depth), depth, (std::is_same<T, float>::value ? 2e-6 : 1e-8) * z)
          << soil_preset_name(preset) << " z " << z;
      // a shallow segment's centroid lies 0.4 z deep, pressure growing with depth takes it to 0.57 z
      EXPECT_GT(depth, z / 3);
      EXPECT_LT(depth, z);
    }
  }
}

// A wheel sliding sideways: its lateral force grows with sinkage, and so does its bulldozing part,
// which is what lets a deep wheel trip the vehicle.
TYPED_TEST(SoilTest, LateralForceGrowsWithSinkage) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    const SoilParams<T> p = soil_preset<T>(preset);
    for (double sy : {0.2, 2.0}) {
      T previous_fy = T(0), previous_bulldozing = T(0);
      for (int i = 1; i <= 30; ++i) {
        const double z = 0.01 * i;
        const SoilWheelForces<T> f = soil_wheel_forces(p, wheel<T>(), T(z), T(0.1), T(sy));
        const std::string what = std::string(soil_preset_name(preset)) + " sy " + std::to_string(sy) + " z " +
                                 std::to_string(z);
        EXPECT_LT(f.fy, previous_fy) << what;  // sliding left: pushed right, harder with depth
        EXPECT_LT(f.fy_bulldozing, previous_bulldozing) << what;
        previous_fy = f.fy;
        previous_bulldozing = f.fy_bulldozing;
      }
    }
  }
}

// By hand: the lateral shear is at most the Mohr-Coulomb strength over the arc, r b int (c + sigma
// tan phi) <= c b r theta_1 + tan(phi) W / cos(theta_1) (sigma cos theta carries W when the
// longitudinal shear is not negative), plus the full bulldozing capacity (the segment's closed form).
TYPED_TEST(SoilTest, LateralForceBoundedByHandComputation) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    const SoilParams<double> pd = soil_preset<double>(preset);
    for (double z : {0.01, 0.05, 0.2, 0.4}) {
      for (double s : {0.0, 0.3, 1.0}) {
        for (double sy : {0.1, 1.0, 1e6}) {
          const SoilWheelForces<T> f = soil_wheel_forces(to_precision<T>(pd), wheel<T>(), T(z), T(s), T(sy));
          const double th1 = std::acos(1 - z / kRadius), r = kRadius;
          const double area = r * r * (th1 - std::sin(th1) * std::cos(th1));
          const double moment = 2.0 / 3.0 * r * r * r * std::pow(std::sin(th1), 3) - r * std::cos(th1) * area;
          const double n_phi = std::pow(std::tan(kPi / 4 + pd.friction_angle / 2), 2);
          const double bulldozing = pd.unit_weight * n_phi * moment + 2 * pd.cohesion * std::sqrt(n_phi) * area;
          const double shear = pd.cohesion * kWidth * r * th1 +
                               std::tan(pd.friction_angle) * static_cast<double>(f.fz) / std::cos(th1);
          const std::string what = std::string(soil_preset_name(preset)) + " z " + std::to_string(z) + " s " +
                                   std::to_string(s) + " sy " + std::to_string(sy);
          EXPECT_LT(f.fy, T(0)) << what;
          EXPECT_LE(-static_cast<double>(f.fy), (shear + bulldozing) * (1 + 1e-6)) << what;
          EXPECT_LE(-static_cast<double>(f.fy_bulldozing), bulldozing * (1 + 1e-6)) << what;
        }
      }
    }
  }
}

// No lateral slip, no lateral force (shear or bulldozing), exactly; the lateral slip's sign flips
// the lateral force and nothing else, bit for bit.
TYPED_TEST(SoilTest, LateralForceZeroWithoutSlipAndOddInSlip) {
  using T = TypeParam;
  for (SoilPreset preset : kPresets) {
    const SoilParams<T> p = soil_preset<T>(preset);
    for (double z : {0.0, 0.02, 0.2}) {
      for (double s : {-0.5, 0.0, 0.4}) {
        const SoilWheelForces<T> none = soil_wheel_forces(p, wheel<T>(), T(z), T(s), T(0));
        EXPECT_EQ(none.fy, T(0));
        EXPECT_EQ(none.fy_bulldozing, T(0));
        for (double sy : {1e-4, 0.3, 5.0}) {
          const SoilWheelForces<T> left = soil_wheel_forces(p, wheel<T>(), T(z), T(s), T(sy));
          const SoilWheelForces<T> right = soil_wheel_forces(p, wheel<T>(), T(z), T(s), T(-sy));
          EXPECT_EQ(left.fy, -right.fy);
          EXPECT_EQ(left.fy_bulldozing, -right.fy_bulldozing);
          EXPECT_EQ(left.fx, right.fx);
          EXPECT_EQ(left.fz, right.fz);
          EXPECT_EQ(left.my, right.my);
          if (z > 0) {
            EXPECT_LT(left.fy, T(0));
          }
        }
      }
    }
  }
}

// ---- precision and extreme inputs ------------------------------------------------------------------

TEST(Soil, FloatAgreesWithDouble) {
  for (SoilPreset preset : kPresets) {
    const SoilParams<double> pd = soil_preset<double>(preset);
    const SoilParams<float> pf = soil_preset<float>(preset);
    for (double load : {20.0, 800.0, 6000.0}) {
      for (double s : {-0.6, 0.0, 0.15, 1.0}) {
        for (double sy : {0.0, 0.05, 3.0}) {
          const auto d = soil_wheel_forces_at_load(pd, wheel<double>(), load, s, sy);
          const auto f = soil_wheel_forces_at_load(pf, wheel<float>(), float(load), float(s), float(sy));
          const std::string what = std::string(soil_preset_name(preset)) + " load " + std::to_string(load) + " s " +
                                   std::to_string(s) + " sy " + std::to_string(sy);
          const double tol = Tol<float>::vs_double;
          expect_near_scaled(f.fx, d.fx, load, tol, what + " fx");
          expect_near_scaled(f.fy, d.fy, load, tol, what + " fy");
          expect_near_scaled(f.fz, d.fz, load, tol, what + " fz");
          expect_near_scaled(f.my, d.my, kRadius * load, tol, what + " my");
          EXPECT_NEAR(f.sinkage, d.sinkage, 1e-5 * d.sinkage + 1e-9) << what;
          EXPECT_EQ(f.sinkage_clamped, d.sinkage_clamped) << what;
        }
      }
    }
  }
}

template <class T>
void expect_finite(const SoilWheelForces<T>& f, const std::string& what) {
  for (T v : {f.fx, f.fy, f.fz, f.my, f.sinkage, f.entry_angle, f.fy_bulldozing}) {
    EXPECT_TRUE(std::isfinite(v)) << what;
  }
}

TYPED_TEST(SoilTest, ExtremeInputsStayFinite) {
  using T = TypeParam;
  const T inf = std::numeric_limits<T>::infinity();
  for (SoilPreset preset : kPresets) {
    const SoilParams<T> p = soil_preset<T>(preset);
    const std::string name = soil_preset_name(preset);
    // No load (or a pulling one): no sinkage, no force, exactly.
    for (T load : {T(0), T(-100)}) {
      const SoilWheelForces<T> f = soil_wheel_forces_at_load(p, wheel<T>(), load, T(0.5), T(2));
      EXPECT_EQ(f.sinkage, T(0)) << name;
      EXPECT_FALSE(f.sinkage_clamped) << name;
      for (T v : {f.fx, f.fy, f.fz, f.my}) EXPECT_EQ(v, T(0)) << name;
    }
    // Huge and infinite slips: clamped, finite.
    for (T s : {T(-1e30), T(-1), T(1), T(1e30), -inf, inf}) {
      for (T sy : {T(0), T(1e30), -inf, inf}) {
        expect_finite(soil_wheel_forces_at_load(p, wheel<T>(), T(3000), s, sy), name + " huge slip");
        expect_finite(soil_wheel_forces(p, wheel<T>(), T(0.1), s, sy), name + " huge slip at sinkage");
      }
    }
    // Sinkage beyond the radius: clamped to it and flagged; below zero: out of the soil.
    const SoilWheelForces<T> deep = soil_wheel_forces(p, wheel<T>(), T(2 * kRadius), T(0.2), T(0.5));
    EXPECT_TRUE(deep.sinkage_clamped) << name;
    EXPECT_EQ(deep.sinkage, T(kRadius)) << name;
    expect_finite(deep, name + " deep");
    const SoilWheelForces<T> at_radius = soil_wheel_forces(p, wheel<T>(), T(kRadius), T(0.2), T(0.5));
    EXPECT_FALSE(at_radius.sinkage_clamped) << name;
    EXPECT_EQ(at_radius.fz, deep.fz) << name;
    const SoilWheelForces<T> above = soil_wheel_forces(p, wheel<T>(), T(-0.1), T(0.2), T(0.5));
    EXPECT_FALSE(above.sinkage_clamped) << name;
    for (T v : {above.fx, above.fy, above.fz, above.my, above.sinkage}) EXPECT_EQ(v, T(0)) << name;
    // A load the soil cannot carry: the wheel sits at its radius, flagged, carrying what it can.
    bool clamped = false;
    EXPECT_EQ(soil_static_sinkage(p, wheel<T>(), T(1e9), &clamped), T(kRadius)) << name;
    EXPECT_TRUE(clamped) << name;
    const SoilWheelForces<T> heavy = soil_wheel_forces_at_load(p, wheel<T>(), T(1e9), T(0.2), T(0.5));
    EXPECT_TRUE(heavy.sinkage_clamped) << name;
    EXPECT_EQ(heavy.sinkage, T(kRadius)) << name;
    EXPECT_LT(heavy.fz, T(1e9)) << name;
    expect_finite(heavy, name + " heavy");
  }
}

// ---- slips from velocities, driving backward ----------------------------------------------------------

TYPED_TEST(SoilTest, SlipsFromVelocities) {
  using T = TypeParam;
  const T r = T(kRadius), floor = T(1e-3);
  // Driving: r omega = 5 m/s at 4 m/s: s = 0.2, s_y = v_y / (r omega).
  SoilSlips<T> k = soil_slips(r, T(4), T(1), T(5) / r, floor);
  EXPECT_NEAR(k.longitudinal, 1 / 5.001, 1e-6);
  EXPECT_NEAR(k.lateral, 1 / 5.001, 1e-6);
  EXPECT_EQ(k.direction, T(1));
  // Locked wheel sliding forward: s = -1 (skid).
  k = soil_slips(r, T(3), T(0), T(0), floor);
  EXPECT_NEAR(k.longitudinal, -3 / 3.001, 1e-6);
  // Sliding sideways from rest: the lateral shear is fully mobilized.
  k = soil_slips(r, T(0), T(2), T(0), floor);
  EXPECT_EQ(k.longitudinal, T(0));
  EXPECT_NEAR(k.lateral, 2000, 1e-2);
  // Backward: the same slips mirrored.
  k = soil_slips(r, T(-4), T(1), T(-5) / r, floor);
  EXPECT_NEAR(k.longitudinal, 1 / 5.001, 1e-6);
  EXPECT_EQ(k.direction, T(-1));
}

// Driving backward is driving forward mirrored in x: fx and my change sign, fy and fz do not.
TYPED_TEST(SoilTest, BackwardIsForwardMirrored) {
  using T = TypeParam;
  const SoilParams<T> p = soil_preset<T>(SoilPreset::SandyLoam);
  for (double vy : {-0.5, 0.0, 0.7}) {
    const SoilWheelForces<T> fwd = soil_tire_forces(p, wheel<T>(), T(4000), T(3), T(vy), T(4 / kRadius), T(1e-3));
    const SoilWheelForces<T> bwd = soil_tire_forces(p, wheel<T>(), T(4000), T(-3), T(vy), T(-4 / kRadius), T(1e-3));
    EXPECT_GT(fwd.fx, T(0));  // driving with slip 0.25 in sandy loam: positive drawbar pull
    EXPECT_EQ(bwd.fx, -fwd.fx);
    EXPECT_EQ(bwd.my, -fwd.my);
    EXPECT_EQ(bwd.fy, fwd.fy);
    EXPECT_EQ(bwd.fz, fwd.fz);
    EXPECT_EQ(bwd.sinkage, fwd.sinkage);
    // Given the sinkage the load gave, the same forces without the solve.
    const SoilWheelForces<T> at_sinkage = soil_tire_forces_at_sinkage(p, wheel<T>(), bwd.sinkage, T(-3), T(vy),
                                                                      T(-4 / kRadius), T(1e-3));
    EXPECT_EQ(at_sinkage.fx, bwd.fx);
    EXPECT_EQ(at_sinkage.fy, bwd.fy);
    EXPECT_EQ(at_sinkage.fz, bwd.fz);
    EXPECT_EQ(at_sinkage.my, bwd.my);
  }
}

// ---- presets and checks -----------------------------------------------------------------------------

TEST(Soil, PresetsByNameAndTheirChecks) {
  for (SoilPreset preset : kPresets) {
    const SoilParams<double> by_enum = soil_preset<double>(preset);
    const SoilParams<double> by_name = soil_preset<double>(std::string(soil_preset_name(preset)));
    EXPECT_EQ(by_enum.k_phi, by_name.k_phi);
    EXPECT_EQ(by_enum.n, by_name.n);
    EXPECT_NO_THROW(check_soil_params(by_enum));
  }
  // Wong's Table 2.3, dry sand (Land Locomotion Laboratory).
  const SoilParams<double> sand = soil_preset<double>("dry_sand");
  EXPECT_EQ(sand.n, 1.1);
  EXPECT_EQ(sand.k_c, 0.99e3);
  EXPECT_EQ(sand.k_phi, 1528.43e3);
  EXPECT_EQ(sand.cohesion, 1.04e3);
  EXPECT_NEAR(sand.friction_angle, 28.0 * kPi / 180, 1e-15);
  try {
    soil_preset<double>("mud");
    FAIL() << "an unknown preset must throw";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'mud'"), std::string::npos) << message;
    EXPECT_NE(message.find("clayey_soil"), std::string::npos) << message;
  }
}

TEST(Soil, BadParametersNameTheFieldValueAndRange) {
  auto expect_error = [](SoilParams<double> p, const std::string& field, const std::string& value) {
    try {
      check_soil_params(p);
      FAIL() << field << " must be rejected";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(field + " = " + value), std::string::npos) << message;
      EXPECT_NE(message.find("outside ["), std::string::npos) << message;
    }
  };
  SoilParams<double> p = soil_preset<double>(SoilPreset::DrySand);
  p.friction_angle = 1.5;
  expect_error(p, "friction_angle", "1.5");
  p = soil_preset<double>(SoilPreset::DrySand);
  p.shear_modulus = 0;
  expect_error(p, "shear_modulus", "0");
  p = soil_preset<double>(SoilPreset::DrySand);
  p.n = std::nan("");
  expect_error(p, "n", "nan");
  p = soil_preset<double>(SoilPreset::DrySand);
  p.k_phi = -1;
  expect_error(p, "k_phi", "-1");
  p = soil_preset<double>(SoilPreset::DrySand);
  p.k_c = 0;
  p.k_phi = 0;
  EXPECT_THROW(check_soil_params(p), Error);
  EXPECT_THROW(check_soil_wheel(SoilWheel<double>{0.0, 0.3}), Error);
  EXPECT_NO_THROW(check_soil_wheel(wheel<double>()));
}

}  // namespace
}  // namespace fleetdyn
