// Rest states of the ce model, written once for the host and the device: the static equilibrium
// on flat ground by Newton iteration, and a rest state placed on a terrain. The host's
// ce_rest_state / ce_place_on_terrain (host/ce/ce_initial.cpp) are this code in double; the vector
// environment runs it at every reset, on the CPU or the GPU, for the parameters it has just
// drawn (physics/ce/ce_batch.h, CeModel::initial_state), so every episode starts at the rest state
// of its own vehicle.
//
// Unknowns: chassis height, roll, pitch and the four LCA angles (yaw and the horizontal position
// are free: the ground is flat and nothing acts horizontally at rest). Residuals: the vertical,
// roll and pitch accelerations of the chassis and the four LCA accelerations from ce_derivative
// (physics/ce/ce_model.h) at zero velocity and zero inputs. Newton with a central-difference
// Jacobian (7 x 7, Gaussian elimination with partial pivoting), from the wheels on the ground at
// the mean static tire deflection and the suspension at its design position.
#pragma once

#include "fleetdyn/physics/ce/ce_model.h"
#include "fleetdyn/physics/core/batch_origin.h"

// The Newton solve is large (each iteration 15 evaluations of ce_derivative): on the device the
// solve and the residual are calls, not inlined into every kernel that may reset an env, so the
// step kernel's code and stack do not grow by copies of ce_derivative.
#if defined(__CUDACC__)
#define FLEETDYN_CE_REST_FN __host__ __device__ __noinline__
#else
#define FLEETDYN_CE_REST_FN
#endif

namespace fleetdyn {

namespace ce_rest {
constexpr int kUnknowns = 7;  // chassis height, roll, pitch, LCA angle per corner
constexpr int kMaxIterations = 40;
constexpr double kTolerance = 1e-9;     // on the residual's 2-norm [m/s^2 and rad/s^2 mixed]
constexpr double kJacobianStep = 1e-7;  // [m, rad] central differences (fp64: ~1e-8 relative accuracy)
}  // namespace ce_rest

// Total mass [kg]: chassis (with the steering mechanism), the aggregate bodies and the wheels.
template <class T>
FLEETDYN_FN T ce_vehicle_mass(const CeParams<T>& p) {
  T m = p.chassis_mass + T(kCorners) * p.wheel_mass;
  for (int i = 0; i < kCorners; ++i)
    for (int j = 0; j < kCeAggregateBodies; ++j) m += p.body_mass[i][j];
  return m;
}

// The state at rest for unknowns x: chassis origin at height x[0], roll x[1], pitch x[2], LCA
// angles x[3..6]; every velocity, deflection and the steering zero.
template <class T>
FLEETDYN_FN void ce_rest_state_of(const T x[ce_rest::kUnknowns], T* s) {
  using namespace ce;
  for (int j = 0; j < kStateSize; ++j) s[j] = T(0);
  s[kPos + 2] = x[0];
  store_quat(s, kQuat, quat_from_euler_zyx(x[1], x[2], T(0)));
  for (int i = 0; i < kCorners; ++i) s[kLca + i] = x[3 + i];
}

// Residual r of unknowns x on flat ground (height 0); diag, if given, receives the tire loads.
// (One call, not inlined, on the device: the solve evaluates it at three places.)
template <class T>
FLEETDYN_CE_REST_FN void ce_rest_residual(const CeParams<T>& p, const CeEnvironment<T>& env, const T x[ce_rest::kUnknowns],
                                          T r[ce_rest::kUnknowns], CeDiagnostics<T>* diag = nullptr) {
  using namespace ce;
  T s[kStateSize], ds[kStateSize];
  ce_rest_state_of(x, s);
  ce_derivative(p, env, DriverInput<T>{T(0), T(0), T(0)}, s, ds, static_cast<CeCornerBodies<T>*>(nullptr), diag);
  r[0] = ds[kVel + 2];
  r[1] = ds[kOmega + 0];
  r[2] = ds[kOmega + 1];
  for (int i = 0; i < kCorners; ++i) r[3 + i] = ds[kLcaRate + i];
}

// Solves a y = b for y (returned in b) by Gaussian elimination with partial pivoting; a is
// destroyed. False if a pivot is zero or not finite (singular Jacobian).
template <class T, int N>
FLEETDYN_FN bool solve_dense(T (&a)[N][N], T (&b)[N]) {
  for (int k = 0; k < N; ++k) {
    int pivot = k;
    for (int i = k + 1; i < N; ++i) {
      if (fabs(a[i][k]) > fabs(a[pivot][k])) pivot = i;
    }
    if (!(fabs(a[pivot][k]) > T(0)) || !(a[pivot][k] - a[pivot][k] == T(0))) return false;
    if (pivot != k) {
      for (int j = 0; j < N; ++j) {
        const T t = a[k][j];
        a[k][j] = a[pivot][j];
        a[pivot][j] = t;
      }
      const T t = b[k];
      b[k] = b[pivot];
      b[pivot] = t;
    }
    for (int i = k + 1; i < N; ++i) {
      const T f = a[i][k] / a[k][k];
      for (int j = k; j < N; ++j) a[i][j] -= f * a[k][j];
      b[i] -= f * b[k];
    }
  }
  for (int k = N - 1; k >= 0; --k) {
    T sum = b[k];
    for (int j = k + 1; j < N; ++j) sum -= a[k][j] * b[j];
    b[k] = sum / a[k][k];
  }
  return true;
}

template <class T>
struct CeRestSolution {
  bool converged;         // residual norm below ce_rest::kTolerance within kMaxIterations
  T residual;             // 2-norm of the last residual evaluated
  int iterations;         // Newton updates taken
  T tire_load[kCorners];  // [N] tire normal forces of the returned state (the static loads)
};

// Chassis origin height [m] of the initial guess: wheels on the ground at the mean static tire
// deflection (total weight / 4 / vertical stiffness), suspension at design.
template <class T>
FLEETDYN_FN T ce_rest_initial_height(const CeParams<T>& p) {
  const T load = ce_vehicle_mass(p) * p.gravity / T(kCorners);
  const T wheel_z = p.tire.unloaded_radius - load / p.tire.vertical_stiffness;
  return wheel_z - p.corner[0].design.wheel_centre.z;
}

// The rest state s (kCeStateSize) of p on flat ground at height 0, heading +x, moving forward at
// `speed` [m/s] with the wheels rolling freely (chassis x velocity = speed, spin = speed / the
// rolling radius at the mean static load). When Newton does not converge, s is its last iterate
// if finite, else the initial guess, and `converged` says so (the host throws; the env starts
// the episode there and lets the dynamics settle it: never a NaN).
template <class T>
FLEETDYN_CE_REST_FN CeRestSolution<T> ce_rest_solve(const CeParams<T>& p, T speed, T* s) {
  using namespace ce;
  constexpr int n = ce_rest::kUnknowns;
  const TerrainDesc<T> flat = default_terrain_desc<T>();
  const CeEnvironment<T> env{&flat, T(0), T(0)};
  T x[n], guess[n];
  for (int k = 0; k < n; ++k) x[k] = T(0);
  x[0] = ce_rest_initial_height(p);
  for (int k = 0; k < n; ++k) guess[k] = x[k];
  CeRestSolution<T> out{false, T(0), 0, {T(0), T(0), T(0), T(0)}};
  for (int it = 0; it < ce_rest::kMaxIterations; ++it) {
    T r[n];
    ce_rest_residual(p, env, x, r);
    T norm2 = T(0);
    for (int k = 0; k < n; ++k) norm2 += r[k] * r[k];
    out.residual = sqrt(norm2);
    if (out.residual < T(ce_rest::kTolerance)) {
      out.converged = true;
      break;
    }
    T jac[n][n];
    for (int k = 0; k < n; ++k) {
      const T h = T(ce_rest::kJacobianStep);
      T xp[n], xm[n], rp[n], rm[n];
      for (int j = 0; j < n; ++j) xp[j] = xm[j] = x[j];
      xp[k] += h;
      xm[k] -= h;
      ce_rest_residual(p, env, xp, rp);
      ce_rest_residual(p, env, xm, rm);
      for (int i = 0; i < n; ++i) jac[i][k] = (rp[i] - rm[i]) / (T(2) * h);
    }
    if (!solve_dense(jac, r)) break;
    for (int k = 0; k < n; ++k) x[k] -= r[k];
    out.iterations = it + 1;
  }
  bool finite = true;
  for (int k = 0; k < n; ++k) finite = finite && (x[k] - x[k] == T(0));
  if (!finite) {
    out.converged = false;
    for (int k = 0; k < n; ++k) x[k] = guess[k];
  }
  T r[n];
  CeDiagnostics<T> diag;
  ce_rest_residual(p, env, x, r, &diag);
  for (int i = 0; i < kCorners; ++i) out.tire_load[i] = diag.tire_normal_force[i];
  ce_rest_state_of(x, s);
  s[kVel + 0] = speed;  // chassis axes: level chassis to first order
  const T load = ce_vehicle_mass(p) * p.gravity / T(kCorners);
  for (int i = 0; i < kCorners; ++i) s[kWheelSpin + i] = speed / tire_rolling_radius(p.tire, load);
  return out;
}

// The rest state `rest` (ce_rest_solve) placed on `terrain`: its chassis COM's ground point
// moved to world (x, y), turned to heading `yaw` [rad] and tilted onto the surface normal there
// (exact on flat ground and planes, first order on the smooth kinds). Velocities are in chassis
// axes and carry over. Writes the vehicle's local origin (quantized, batch_origin.h); the
// state's position is relative to it.
template <class T>
FLEETDYN_FN void ce_place_on_terrain(const CeParams<T>& p, const T* rest, const TerrainDesc<T>& terrain, double x,
                                     double y, T yaw, T* s, T* origin_x, T* origin_y) {
  using namespace ce;
  *origin_x = T(origin_quantize(x));
  *origin_y = T(origin_quantize(y));
  const T local_x = T(x - double(*origin_x)), local_y = T(y - double(*origin_y));
  const GroundPlacement<T> ground = ground_placement(terrain, local_x, local_y, *origin_x, *origin_y, yaw);
  // The rest state stands on flat ground at height 0: the chassis origin relative to the ground
  // point below the chassis COM, carried rigidly onto the placement.
  const Quat<T> rest_attitude = normalized(load_quat(rest, kQuat));
  const Vec3<T> rest_pos = load3(rest, kPos);
  const Vec3<T> rest_com = rest_pos + rotation_matrix(rest_attitude) * p.chassis_com;
  const Vec3<T> origin_from_ground = rest_pos - Vec3<T>{rest_com.x, rest_com.y, T(0)};
  for (int j = 0; j < kStateSize; ++j) s[j] = rest[j];
  store3(s, kPos, ground.point + rotation_matrix(ground.attitude) * origin_from_ground);
  store_quat(s, kQuat, normalized(ground.attitude * rest_attitude));
}

}  // namespace fleetdyn
