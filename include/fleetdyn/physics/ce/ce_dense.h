// Dense joint-space dynamics of the ce model, single source (host and device, float or double):
// the mass matrix M = sum_b J_b^T I_b J_b and the right-hand side tau - C with
// C = sum_b J_b^T (I_b a_b + v_b x* I_b v_b - f_b), summed over the chassis, the four aggregates'
// member bodies and the wheels from the per-body quantities ce_derivative fills (CeCornerBodies).
// M nu_dot = tau - C is the same motion the articulated-body recursion computes in O(N), reached
// by a different route (no articulated inertias, no gather and scatter), so solving it densely
// checks the recursion: on the CPU with a small LU (host/validate/dense_lu.h), on the GPU with
// cuBLAS batched LU (kernels/ce_validate.cu).
//
// Generalized velocities nu (kCeDofs, chassis axes): chassis omega (3), chassis origin velocity
// (3), LCA rates (4), wheel spins relative to the uprights (4). Every body's Jacobian is the
// identity on the chassis block plus at most two columns: its corner's LCA column (the body's
// motion per unit LCA rate) and, for a wheel, its spin column.
#pragma once

#include "fleetdyn/physics/ce/ce_model.h"
#include "fleetdyn/physics/core/config.h"
#include "fleetdyn/physics/core/spatial.h"

namespace fleetdyn {

constexpr int kCeDofs = 14;

namespace ce {
enum DofIndex : int { kDofOmega = 0, kDofVel = 3, kDofLca = 6, kDofSpin = 10 };
}  // namespace ce

namespace ce_dense_detail {

template <class T>
FLEETDYN_FN void spatial_to_array(const SpatialVec<T>& v, T* x) {
  x[0] = v.ang.x;
  x[1] = v.ang.y;
  x[2] = v.ang.z;
  x[3] = v.lin.x;
  x[4] = v.lin.y;
  x[5] = v.lin.z;
}

// Adds one body to M and to tau - C. Its Jacobian: identity on the chassis block, `h[k]` in
// column `col[k]` for k < columns (0, 1 or 2). `vel` its spatial velocity, `bias_acc` its
// acceleration at zero nu_dot, `ext` the external force on it.
template <class T>
FLEETDYN_FN void add_body(T* mass, T* rhs, const RigidInertia<T>& inertia, const SpatialVec<T>& vel,
                          const SpatialVec<T>& bias_acc, const SpatialVec<T>& ext, int columns, const int* col,
                          const SpatialVec<T>* h) {
  const Mat6<T> i6 = mat6_from_rigid(inertia);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) mass[r * kCeDofs + c] += i6.m[r][c];
  T f[6];
  spatial_to_array(inertia * bias_acc + cross_force(vel, inertia * vel) - ext, f);
  for (int r = 0; r < 6; ++r) rhs[r] -= f[r];
  for (int a = 0; a < columns; ++a) {
    const SpatialVec<T> ih = inertia * h[a];
    T x[6];
    spatial_to_array(ih, x);
    for (int r = 0; r < 6; ++r) {
      mass[r * kCeDofs + col[a]] += x[r];
      mass[col[a] * kCeDofs + r] += x[r];
    }
    for (int b = 0; b < columns; ++b) mass[col[b] * kCeDofs + col[a]] += dot(h[b], ih);
    T ha[6];
    spatial_to_array(h[a], ha);
    T hf = T(0);
    for (int r = 0; r < 6; ++r) hf += ha[r] * f[r];
    rhs[col[a]] -= hf;
  }
}

}  // namespace ce_dense_detail

// M (kCeDofs x kCeDofs, both triangles: symmetric, so row- and column-major alike) and tau - C
// of the state `s` whose corners ce_derivative described.
template <class T>
FLEETDYN_FN void ce_dense_system(const CeParams<T>& p, const T* s, const CeCornerBodies<T>* corners, T* mass, T* rhs) {
  using namespace ce;
  using ce_dense_detail::add_body;
  for (int k = 0; k < kCeDofs * kCeDofs; ++k) mass[k] = T(0);
  for (int k = 0; k < kCeDofs; ++k) rhs[k] = T(0);
  const Mat3<T> rot = rotation_matrix(normalized(load_quat(s, kQuat)));
  const SpatialVec<T> base_vel{load3(s, kOmega), load3(s, kVel)};
  const Vec3<T> gravity_body = mul_transpose(rot, Vec3<T>{T(0), T(0), -p.gravity});
  SpatialVec<T> chassis_ext = force_at(p.chassis_mass * gravity_body, p.chassis_com);
  for (int i = 0; i < kCorners; ++i) chassis_ext += corners[i].chassis_reaction;
  add_body(mass, rhs, rigid_inertia(p.chassis_mass, p.chassis_com, p.chassis_inertia), base_vel, spatial_zero<T>(),
           chassis_ext, 0, static_cast<const int*>(nullptr), static_cast<const SpatialVec<T>*>(nullptr));
  for (int i = 0; i < kCorners; ++i) {
    const CeCornerBodies<T>& c = corners[i];
    rhs[kDofLca + i] += c.lca_force;
    for (int j = 0; j < kCeAggregateBodies; ++j) {
      const int col[1] = {kDofLca + i};
      const SpatialVec<T> vel = base_vel + c.rel_vel[j];
      const SpatialVec<T> bias = c.rel_bias[j] + cross_motion(base_vel, c.rel_vel[j]);
      add_body(mass, rhs, c.inertia[j], vel, bias, c.ext_force[j], 1, col, &c.lca_map[j]);
    }
    // The wheel rides on the upright and spins about its axis.
    const int col[2] = {kDofLca + i, kDofSpin + i};
    const SpatialVec<T> h[2] = {c.lca_map[kCeUpright], c.spin_axis};
    const SpatialVec<T> upright_vel = base_vel + c.rel_vel[kCeUpright];
    const SpatialVec<T> upright_bias = c.rel_bias[kCeUpright] + cross_motion(base_vel, c.rel_vel[kCeUpright]);
    const SpatialVec<T> spin = s[kWheelSpin + i] * c.spin_axis;
    add_body(mass, rhs, c.wheel_inertia, upright_vel + spin, upright_bias + cross_motion(upright_vel, spin),
             c.wheel_ext_force, 2, col, h);
  }
}

// The generalized accelerations nu_dot in a state derivative `ds` (ce::StateIndex order).
template <class T>
FLEETDYN_FN void ce_dof_accelerations(const T* ds, T* nu_dot) {
  using namespace ce;
  for (int k = 0; k < 3; ++k) {
    nu_dot[kDofOmega + k] = ds[kOmega + k];
    nu_dot[kDofVel + k] = ds[kVel + k];
  }
  for (int i = 0; i < kCorners; ++i) {
    nu_dot[kDofLca + i] = ds[kLcaRate + i];
    nu_dot[kDofSpin + i] = ds[kWheelSpin + i];
  }
}

// One vehicle's check inputs: the recursion's nu_dot (ce_derivative, inputs clamped as a step
// clamps them), and M and tau - C from the same evaluation's corner bodies.
template <class T>
FLEETDYN_FN void ce_dense_check_system(const CeParams<T>& p, const CeEnvironment<T>& env, DriverInput<T> input,
                                       const T* s, T* mass, T* rhs, T* recursion) {
  T ds[ce::kStateSize];
  CeCornerBodies<T> corners[kCorners];
  ce_derivative(p, env, clamped(input), s, ds, corners);
  ce_dof_accelerations(ds, recursion);
  ce_dense_system(p, s, corners, mass, rhs);
}

// A batch of ce vehicles to check, structure-of-arrays like the batch itself (BatchView): the
// state, origin and input of vehicle v are component j at [j * vehicle_count + v].
template <class T>
struct CeCheckView {
  int vehicle_count;
  const CeParams<T>* params;  // [param_count]; vehicle v uses params[v % param_count]
  int param_count;
  TerrainDesc<T> terrain;
  const T* state;   // [ce::kStateSize][vehicle_count]
  const T* origin;  // [2][vehicle_count] local origin x, y [m]
  const T* inputs;  // [3][vehicle_count] steer, throttle, brake
};

// ce_dense_check_system for vehicle v of a batch.
template <class T>
FLEETDYN_FN void ce_dense_check_vehicle(const CeCheckView<T>& b, int v, T* mass, T* rhs, T* recursion) {
  const int n = b.vehicle_count;
  T s[ce::kStateSize];
  for (int j = 0; j < ce::kStateSize; ++j) s[j] = b.state[j * n + v];
  const CeEnvironment<T> env{&b.terrain, b.origin[v], b.origin[n + v]};
  const DriverInput<T> input{b.inputs[v], b.inputs[n + v], b.inputs[2 * n + v]};
  ce_dense_check_system(b.params[v % b.param_count], env, input, s, mass, rhs, recursion);
}

// max_k |a_k - b_k| / max(max_k |b_k|, floor): the difference of two vectors relative to the
// largest entry of the reference `b` or `floor`, whichever is larger. NaN when either holds a
// NaN; 0 when both are 0.
template <class T>
FLEETDYN_FN T max_relative_difference(const T* a, const T* b, int n, T floor = T(0)) {
  T diff = T(0), scale = floor;
  for (int k = 0; k < n; ++k) {
    const T d = fabs(a[k] - b[k]);
    const bool nan = !(d == d) || !(diff == diff);
    diff = nan ? a[k] - b[k] + diff : (d > diff ? d : diff);  // a NaN, once met, stays
    scale = fabs(b[k]) > scale ? fabs(b[k]) : scale;
  }
  return scale > T(0) ? diff / scale : diff;
}

// The ce check's error: the recursion's nu_dot against the dense solve's, relative to the
// largest dense acceleration or gravity, whichever is larger (the components mix rad/s^2 and
// m/s^2). The forces on a vehicle are at least of the order of its weight and round-off is
// relative to them, so near rest, where they nearly cancel, gravity is the scale of the
// round-off; docs/design/validation.md has the measurements.
template <class T>
FLEETDYN_FN T ce_check_error(const CeParams<T>& p, const T* recursion, const T* dense) {
  return max_relative_difference(recursion, dense, kCeDofs, p.gravity);
}

}  // namespace fleetdyn
