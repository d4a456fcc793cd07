// Dense joint-space dynamics of the ce model by summing body Jacobians (see the header).
#include "tests/reference/ce_reference_dynamics.h"

#include <Eigen/Dense>

namespace fleetdyn {
namespace {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6d = Eigen::Matrix<double, 6, 6>;
using Jac = Eigen::Matrix<double, 6, kCeDofs>;

Vec6 to_eigen(const SpatialVec<double>& v) {
  Vec6 e;
  e << v.ang.x, v.ang.y, v.ang.z, v.lin.x, v.lin.y, v.lin.z;
  return e;
}
Mat6d to_eigen(const RigidInertia<double>& i) {
  const Mat6<double> m = mat6_from_rigid(i);
  Mat6d e;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) e(r, c) = m.m[r][c];
  return e;
}

struct Accumulator {
  Eigen::Matrix<double, kCeDofs, kCeDofs> mass = Eigen::Matrix<double, kCeDofs, kCeDofs>::Zero();
  Eigen::Matrix<double, kCeDofs, 1> bias = Eigen::Matrix<double, kCeDofs, 1>::Zero();
  // One body: Jacobian J, its velocity J nu and its acceleration at zero nu_dot, external force.
  void add(const Jac& jac, const RigidInertia<double>& inertia, const SpatialVec<double>& vel,
           const SpatialVec<double>& bias_acc, const SpatialVec<double>& ext) {
    const Mat6d i = to_eigen(inertia);
    mass += jac.transpose() * i * jac;
    const SpatialVec<double> force = cross_force(vel, inertia * vel) - ext;
    bias += jac.transpose() * (i * to_eigen(bias_acc) + to_eigen(force));
  }
};

}  // namespace

CeDenseDynamics ce_dense_dynamics(const CeParams<double>& p, const CeEnvironment<double>& env,
                                  DriverInput<double> input, const double* s) {
  using namespace ce;
  input = clamped(input);
  CeCornerBodies<double> corners[kCorners];
  double ds[kStateSize];
  ce_derivative(p, env, input, s, ds, corners);  // only for the per-body quantities
  const Mat3<double> rot = rotation_matrix(normalized(load_quat(s, kQuat)));
  const SpatialVec<double> base_vel{load3(s, kOmega), load3(s, kVel)};
  const Vec3<double> gravity_body = mul_transpose(rot, Vec3<double>{0.0, 0.0, -p.gravity});
  Accumulator acc;
  Jac base = Jac::Zero();
  base.block<6, 6>(0, 0) = Mat6d::Identity();
  SpatialVec<double> chassis_ext = force_at(p.chassis_mass * gravity_body, p.chassis_com);
  for (int i = 0; i < kCorners; ++i) chassis_ext += corners[i].chassis_reaction;
  acc.add(base, rigid_inertia(p.chassis_mass, p.chassis_com, p.chassis_inertia), base_vel, spatial_zero<double>(), chassis_ext);
  Eigen::Matrix<double, kCeDofs, 1> tau = Eigen::Matrix<double, kCeDofs, 1>::Zero();
  for (int i = 0; i < kCorners; ++i) {
    const CeCornerBodies<double>& c = corners[i];
    tau[6 + i] = c.lca_force;
    for (int j = 0; j < kCeAggregateBodies; ++j) {
      Jac jac = base;
      jac.col(6 + i) = to_eigen(c.lca_map[j]);
      const SpatialVec<double> vel = base_vel + c.rel_vel[j];
      const SpatialVec<double> bias = c.rel_bias[j] + cross_motion(base_vel, c.rel_vel[j]);
      acc.add(jac, c.inertia[j], vel, bias, c.ext_force[j]);
    }
    Jac jac = base;
    jac.col(6 + i) = to_eigen(c.lca_map[kCeUpright]);
    jac.col(10 + i) = to_eigen(c.spin_axis);
    const SpatialVec<double> upright_vel = base_vel + c.rel_vel[kCeUpright];
    const SpatialVec<double> upright_bias = c.rel_bias[kCeUpright] + cross_motion(base_vel, c.rel_vel[kCeUpright]);
    const SpatialVec<double> spin = s[kWheelSpin + i] * c.spin_axis;
    acc.add(jac, c.wheel_inertia, upright_vel + spin, upright_bias + cross_motion(upright_vel, spin), c.wheel_ext_force);
  }
  CeDenseDynamics out;
  const Eigen::Matrix<double, kCeDofs, 1> rhs = tau - acc.bias;
  const Eigen::Matrix<double, kCeDofs, 1> nu_dot = acc.mass.ldlt().solve(rhs);
  for (int r = 0; r < kCeDofs; ++r) {
    out.bias[r] = -rhs[r];
    out.accelerations[r] = nu_dot[r];
    for (int c = 0; c < kCeDofs; ++c) out.mass_matrix[r * kCeDofs + c] = acc.mass(r, c);
  }
  return out;
}

}  // namespace fleetdyn
