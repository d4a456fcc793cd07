// Independent DAE reference for the ce model: the fully augmented
// formulation of seed 001 Fig. 1a / eq. 8, integrated by SUNDIALS IDA.
//
// Unknowns (all world frame):
//   q      per body: COM position x (3) and orientation quaternion (w, x, y, z) (4)
//   steer  steering state (first-order lag, as ce) and the 8 TMeasy deflections: plain ODE states
//   v      per body: COM velocity (3) and angular velocity omega (3)
//   lambda one multiplier per velocity-level constraint row (the eq. 8 constraint forces)
//   mu     one multiplier per position-level constraint row and per quaternion norm (GGL)
// Equations, stabilized index 2 (Gear-Gupta-Leimkuhler):
//   q'  = T(q) (v - G_p^T mu_p) - N(q) mu_n   (T: x' = v, quat' = 1/2 (0, omega) * quat; N: quat)
//   M v' = f(q, v, t) - G^T lambda             (Newton-Euler; G: eq. 8's G_c in body twists)
//   0   = Phi(q, steer)                        (joint positions; |quat|^2 - 1)
//   0   = G v + g_t                            (joint velocities; g_t from the moving tierod end)
// Why GGL: the position constraints stay algebraic equations that IDA enforces at every step (no
// drift, no Baumgarte gains to tune), while the index stays 2, which IDA's BDF handles when the
// multipliers are excluded from the error test (IDASetSuppressAlg). mu is zero on the exact
// solution. The tierod's "no spin about its own axis relative to the chassis" (the ce model's
// universal joints, ce_kinematics.h step 4) is a velocity-level (nonholonomic) row only: its
// angle about the rod never enters the dynamics because the rod's inertia is axisymmetric.
#include "tests/reference/ce_dae_reference.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "fleetdyn/error.h"
#include "tests/reference/ce_dae_model.h"

namespace fleetdyn {
namespace {

using namespace ce_dae;

// Applied forces (world, at the COM) and torques (about the COM): gravity; spring, stops and
// shock between chassis and LCA; tire at the contact point; drive and brake as ce_corner_bodies.
void applied_forces(const Model& m, const Bodies& b, double t, const double* defl, V3* force, V3* torque, double* defl_rate) {
  const CeParams<double>& p = *m.p;
  const DriverInput<double> input = clamped((*m.input)(t));
  for (int k = 0; k < kBodies; ++k) {
    force[k] = V3(0.0, 0.0, -m.mass[k] * p.gravity);
    torque[k] = V3::Zero();
  }
  double spin[kCorners], mean_spin = 0.0;
  for (int i = 0; i < kCorners; ++i) {
    const int up = body_index(i, kCeUpright), wheel = body_index(i, kWheelBody);
    spin[i] = (b.w[wheel] - b.w[up]).dot(b.R[up].col(1));  // relative to the upright, as ce
    mean_spin += p.drive_share[i] * spin[i];
  }
  const double drive_total = drive_torque_at_wheels(p, input.throttle, mean_spin);
  const TireParams<double>& tp = p.tire;
  for (int i = 0; i < kCorners; ++i) {
    const CornerData& c = m.corner[i];
    const int lca = body_index(i, kCeLca), up = body_index(i, kCeUpright), wheel = body_index(i, kWheelBody);
    // Tire.
    const V3 axis = b.R[up].col(1);
    const V3 xw = b.x[wheel], vw = b.v[wheel];
    const TerrainContact<double> contact = terrain_query(*m.terrain, fv(xw), 0.0, 0.0);
    const V3 normal = ev(contact.normal);
    const double pen = penetration(contact, tp.unloaded_radius);
    const double fz = tire_normal_force(tp, pen, -vw.dot(normal));
    const V3 t_long = ev(normalized_or(fv(axis.cross(normal)), fv(b.R[0].col(0))));
    const V3 t_lat = normal.cross(t_long);
    const double rolling_radius = tire_rolling_radius(tp, fz);
    TireInput<double> tin;
    tin.fz = fz;
    tin.v_long = vw.dot(t_long);
    tin.v_lat = vw.dot(t_lat);
    tin.omega = b.w[wheel].dot(axis);  // absolute spin about the axis, as ce (the upright turns too)
    tin.rolling_radius = rolling_radius;
    tin.defl_long = defl[i];
    tin.defl_lat = defl[kCorners + i];
    tin.contact_length = pen > 0.0 ? 2.0 * std::sqrt(tp.unloaded_radius * pen) : 0.0;
    const TireOutput<double> tire = tmeasy_forces(tp, tin, contact.mu_scale);
    defl_rate[i] = tire.defl_long_rate;
    defl_rate[kCorners + i] = tire.defl_lat_rate;
    const V3 f_tire = tire.fx * t_long + tire.fy * t_lat + fz * normal;
    const V3 contact_point = xw - (tp.unloaded_radius - pen) * normal;
    force[wheel] += f_tire;
    torque[wheel] += (contact_point - xw).cross(f_tire);
    // Drive and brake (inboard: reacted by the chassis), rolling resistance (by the ground).
    const double drive = drive_total * p.drive_share[i];
    const double external = drive - (tp.unloaded_radius - pen) * tire.fx;  // the contact lever, as ce
    const double brake_max = p.brake_torque[i] * input.brake;
    const double resist_max = brake_max + tire.rolling_resistance_torque_max;
    const double resist = clamp(-external - p.wheel_spin_inertia * p.wheel_lock_rate * spin[i], -resist_max, resist_max);
    const double brake = resist_max > 0.0 ? resist * (brake_max / resist_max) : 0.0;
    torque[wheel] += (drive + resist) * axis + tire.mz * normal;
    torque[0] -= (drive + brake) * axis;
    // Spring + stops and shock: two-point forces between chassis and LCA (> 0 pushes apart).
    const CeAxleForces<double>& a = p.axle[i / 2];
    for (int e = 0; e < 2; ++e) {
      const V3 rc = b.R[0] * (e == 0 ? c.spring_c : c.shock_c);
      const V3 rl = b.R[lca] * (e == 0 ? c.spring_l : c.shock_l);
      const V3 d = (b.x[lca] + rl) - (b.x[0] + rc);
      const double length = d.norm();
      const V3 dir = d / length;
      double f;
      if (e == 0) {
        f = ce_spring_force(a, length) + ce_stop_force(p, a, length);
      } else {
        const double rate = dir.dot((b.v[lca] + b.w[lca].cross(rl)) - (b.v[0] + b.w[0].cross(rc)));
        f = ce_shock_force(a, length, rate);
      }
      force[lca] += f * dir;
      torque[lca] += rl.cross(f * dir);
      force[0] -= f * dir;
      torque[0] -= rc.cross(f * dir);
    }
  }
}

int residual(double t, N_Vector yy, N_Vector yd, N_Vector rr, void* user) {
  const Model& m = *static_cast<const Model*>(user);
  const double* y = N_VGetArrayPointer(yy);
  const double* yp = N_VGetArrayPointer(yd);
  double* res = N_VGetArrayPointer(rr);
  Bodies b;
  unpack(y, b);
  const double steer = y[kSteerVar];
  const double steer_rate = steer_rate_of(m, t, steer);
  Rows rows;
  build_rows(m, b, steer, steer_rate, rows);
  V3 force[kBodies], torque[kBodies];
  double defl_rate[2 * kCorners];
  applied_forces(m, b, t, y + kDeflVar, force, torque, defl_rate);
  // G^T lambda (eq. 8 constraint forces) and G_p^T mu (the GGL projection).
  V6 g_lambda[kBodies], g_mu[kBodies];
  for (int k = 0; k < kBodies; ++k) g_lambda[k] = g_mu[k] = V6::Zero();
  for (int r = 0; r < kRows; ++r) {
    const Row& row = rows[r];
    const double lambda = y[kLambda + r], mu = r < kHolonomic ? y[kMu + r] : 0.0;
    g_lambda[row.a] += lambda * row.ja;
    g_lambda[row.b] += lambda * row.jb;
    g_mu[row.a] += mu * row.ja;
    g_mu[row.b] += mu * row.jb;
    res[kLambda + r] = row_velocity(row, b);     // velocity constraints
    if (r < kHolonomic) res[kMu + r] = row.phi;  // position constraints
  }
  for (int k = 0; k < kBodies; ++k) {
    const V3 v_proj = b.v[k] - g_mu[k].head<3>();
    const V3 w_proj = b.w[k] - g_mu[k].tail<3>();
    const double mu_norm = y[kMu + kHolonomic + k];
    const Eigen::Vector4d q_rate = quat_rate_world(b.q[k], w_proj) - mu_norm * b.q[k];
    for (int j = 0; j < 3; ++j) res[7 * k + j] = yp[7 * k + j] - v_proj(j);
    for (int j = 0; j < 4; ++j) res[7 * k + 3 + j] = yp[7 * k + 3 + j] - q_rate(j);
    res[kMu + kHolonomic + k] = b.q[k].squaredNorm() - 1.0;
    // Newton-Euler about the COM, world frame.
    const M3 inertia = b.R[k] * m.inertia[k] * b.R[k].transpose();
    const V3 v_dot(yp[kV + 6 * k], yp[kV + 6 * k + 1], yp[kV + 6 * k + 2]);
    const V3 w_dot(yp[kV + 6 * k + 3], yp[kV + 6 * k + 4], yp[kV + 6 * k + 5]);
    const V3 lin = m.mass[k] * v_dot - force[k] + g_lambda[k].head<3>();
    const V3 ang = inertia * w_dot + b.w[k].cross(inertia * b.w[k]) - torque[k] + g_lambda[k].tail<3>();
    for (int j = 0; j < 3; ++j) {
      res[kV + 6 * k + j] = lin(j);
      res[kV + 6 * k + 3 + j] = ang(j);
    }
  }
  res[kSteerVar] = yp[kSteerVar] - steer_rate;
  for (int j = 0; j < 2 * kCorners; ++j) res[kDeflVar + j] = yp[kDeflVar + j] - defl_rate[j];
  return 0;
}

// Velocity constraint values G v + g_t at a configuration (for the consistent initial lambda).
Eigen::VectorXd velocity_constraints(const Model& m, const double* y, double t) {
  Bodies b;
  unpack(y, b);
  Rows rows;
  build_rows(m, b, y[kSteerVar], steer_rate_of(m, t, y[kSteerVar]), rows);
  Eigen::VectorXd c(kRows);
  for (int r = 0; r < kRows; ++r) c(r) = row_velocity(rows[r], b);
  return c;
}

// Maximal coordinates from the ce state (same bodies, same pose: corner_pose / corner_motion),
// with consistent derivatives and multipliers from the acceleration-level form of eq. 8.
void initial_state(const Model& m, const std::vector<double>& s, double t0, double* y, double* yp) {
  using namespace ce;
  const CeParams<double>& p = *m.p;
  std::fill(y, y + kUnknowns, 0.0);
  std::fill(yp, yp + kUnknowns, 0.0);
  const Quat<double> q0 = normalized(load_quat(s.data(), kQuat));
  const M3 r0 = em(rotation_matrix(q0));
  const V3 origin = ev(load3(s.data(), kPos)), omega_b = ev(load3(s.data(), kOmega)), vel_b = ev(load3(s.data(), kVel));
  auto put = [&](int k, const V3& com_chassis, const M3& rel_rot, const V3& rel_vel, const V3& rel_omega) {
    const Eigen::Quaterniond q(r0 * rel_rot);
    for (int j = 0; j < 3; ++j) y[7 * k + j] = (origin + r0 * com_chassis)(j);
    y[7 * k + 3] = q.w();
    y[7 * k + 4] = q.x();
    y[7 * k + 5] = q.y();
    y[7 * k + 6] = q.z();
    const V3 v = r0 * (vel_b + omega_b.cross(com_chassis) + rel_vel), w = r0 * (omega_b + rel_omega);
    for (int j = 0; j < 3; ++j) {
      y[kV + 6 * k + j] = v(j);
      y[kV + 6 * k + 3 + j] = w(j);
    }
  };
  put(0, ev(p.chassis_com), M3::Identity(), V3::Zero(), V3::Zero());
  const double steer = s[kSteer];
  const SteeringLinkState<double> link = steering_link_state(p.steering, steer, steer_rate_of(m, t0, steer));
  for (int i = 0; i < kCorners; ++i) {
    const CornerGeometry<double>& g = p.corner[i];
    const TierodInner<double> inner = tierod_inner_point(g, p.steering, link);
    const CornerPose<double> pose = corner_pose(g, s[kLca + i], inner);
    const CornerMotion<double> mo = corner_motion(g, pose, s[kLcaRate + i], inner);
    const Vec3<double> rod0 = g.design.tierod_outer - g.design.tierod_inner, rod = pose.tierod_outer - pose.tierod_inner;
    const M3 rod_rot = em(rotation_between(rod0 * (1.0 / norm(rod0)), rod * (1.0 / norm(rod))));
    const V3 lca_com = ev(pose.lca_com), uca_com = ev(pose.uca_com), up_com = ev(pose.upright_com);
    put(body_index(i, kCeLca), lca_com, em(axis_angle_matrix(g.lca_axis, s[kLca + i])),
        ev(mo.lca_omega).cross(lca_com - ev(g.lca_axis_point)), ev(mo.lca_omega));
    put(body_index(i, kCeUca), uca_com, em(axis_angle_matrix(g.uca_axis, pose.uca_angle)),
        ev(mo.uca_omega).cross(uca_com - ev(g.uca_circle_centre)), ev(mo.uca_omega));
    put(body_index(i, kCeUpright), up_com, em(pose.upright_rotation),
        ev(mo.lca_ball_vel) + ev(mo.upright_omega).cross(up_com - ev(pose.lca_ball)), ev(mo.upright_omega));
    put(body_index(i, kCeTierod), ev(pose.tierod_com), rod_rot,
        0.5 * (ev(mo.tierod_outer_vel) + ev(mo.tierod_inner_vel)), ev(mo.tierod_omega));
    put(body_index(i, kWheelBody), ev(pose.wheel_centre), em(pose.upright_rotation), ev(mo.wheel_centre_vel),
        ev(mo.upright_omega) + s[kWheelSpin + i] * ev(pose.spin_axis));
    y[kDeflVar + i] = s[kDeflLong + i];
    y[kDeflVar + kCorners + i] = s[kDeflLat + i];
  }
  y[kSteerVar] = steer;
  // Derivatives of q, steer, deflections (mu = 0).
  Bodies b;
  unpack(y, b);
  for (int k = 0; k < kBodies; ++k) {
    const Eigen::Vector4d q_rate = quat_rate_world(b.q[k], b.w[k]);
    for (int j = 0; j < 3; ++j) yp[7 * k + j] = b.v[k](j);
    for (int j = 0; j < 4; ++j) yp[7 * k + 3 + j] = q_rate(j);
  }
  yp[kSteerVar] = steer_rate_of(m, t0, steer);
  V3 force[kBodies], torque[kBodies];
  applied_forces(m, b, t0, y + kDeflVar, force, torque, yp + kDeflVar);
  // Eq. 8: [M G^T; G 0] [v'; lambda] = [f; -(dG/dt v + dg_t/dt)], the bias term by a central
  // difference of G v + g_t along the motion at fixed v.
  Rows rows;
  build_rows(m, b, steer, yp[kSteerVar], rows);
  const int nv = 6 * kBodies;
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(nv + kRows, nv + kRows);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(nv + kRows);
  for (int k = 0; k < kBodies; ++k) {
    const M3 inertia = b.R[k] * m.inertia[k] * b.R[k].transpose();
    kkt.block<3, 3>(6 * k, 6 * k) = m.mass[k] * M3::Identity();
    kkt.block<3, 3>(6 * k + 3, 6 * k + 3) = inertia;
    rhs.segment<3>(6 * k) = force[k];
    rhs.segment<3>(6 * k + 3) = torque[k] - b.w[k].cross(inertia * b.w[k]);
  }
  for (int r = 0; r < kRows; ++r) {
    kkt.block<1, 6>(nv + r, 6 * rows[r].a) += rows[r].ja.transpose();
    kkt.block<1, 6>(nv + r, 6 * rows[r].b) += rows[r].jb.transpose();
  }
  kkt.block(0, nv, nv, kRows) = kkt.block(nv, 0, kRows, nv).transpose();
  // Central differences along the motion, Richardson-extrapolated (error O(eps^4)): the
  // steering actuator's fast lag (10 ms) makes the plain O(eps^2) form too coarse.
  auto central = [&](double eps) {
    std::vector<double> plus(y, y + kUnknowns), minus(y, y + kUnknowns);
    for (int j = 0; j <= kSteerVar; ++j) {
      plus[j] += eps * yp[j];
      minus[j] -= eps * yp[j];
    }
    return Eigen::VectorXd(
        -(velocity_constraints(m, plus.data(), t0 + eps) - velocity_constraints(m, minus.data(), t0 - eps)) / (2.0 * eps));
  };
  const double eps = 1e-5;
  rhs.tail(kRows) = (4.0 * central(0.5 * eps) - central(eps)) / 3.0;
  const Eigen::VectorXd sol = kkt.partialPivLu().solve(rhs);
  for (int j = 0; j < nv; ++j) yp[kV + j] = sol(j);
  for (int r = 0; r < kRows; ++r) y[kLambda + r] = sol(nv + r);
}

CeDaeSample sample_of(const Model& m, double t, const double* y) {
  Bodies b;
  unpack(y, b);
  CeDaeSample out{};
  out.t = t;
  out.steer = y[kSteerVar];
  out.chassis_origin = fv(b.x[0] - b.R[0] * ev(m.p->chassis_com));
  for (int i = 0; i < kCorners; ++i) out.wheel_centre[i] = fv(b.x[body_index(i, kWheelBody)]);
  Rows rows;
  build_rows(m, b, y[kSteerVar], steer_rate_of(m, t, y[kSteerVar]), rows);
  for (int r = 0; r < kRows; ++r) {
    const bool angular = rows[r].ja.head<3>().isZero();  // perpendicularity / no-spin rows
    if (r < kHolonomic) {
      double& worst = angular ? out.max_angle_residual : out.max_joint_residual;
      worst = std::max(worst, std::fabs(rows[r].phi));
    }
    out.max_velocity_residual = std::max(out.max_velocity_residual, std::fabs(row_velocity(rows[r], b)));
  }
  for (int k = 0; k < kBodies; ++k)
    out.max_quat_norm_residual = std::max(out.max_quat_norm_residual, std::fabs(b.q[k].squaredNorm() - 1.0));
  return out;
}

void check(int flag, const char* what) {
  if (flag < 0) throw Error(std::string("ce_dae_simulate: ") + what + " failed with IDA flag " + std::to_string(flag));
}

}  // namespace

std::vector<CeDaeSample> ce_dae_simulate(const CeParams<double>& p, const TerrainDesc<double>& terrain,
                                         const std::vector<double>& s0, const std::function<DriverInput<double>(double)>& input,
                                         const std::vector<double>& breakpoints, const std::vector<double>& sample_times,
                                         const CeDaeOptions& options, CeDaeStats* stats) {
  if (static_cast<int>(s0.size()) != ce::kStateSize) throw Error("ce_dae_simulate: state size");
  Model model = make_model(p, terrain, input);
  // SUNDIALS objects, freed on every way out (normal return or an IDA failure).
  struct Solver {
    SUNContext ctx = nullptr;
    N_Vector yy = nullptr, yp = nullptr, id = nullptr, atol = nullptr;
    void* mem = nullptr;
    SUNMatrix jac = nullptr;
    SUNLinearSolver solver = nullptr;
    ~Solver() {
      if (mem) IDAFree(&mem);
      if (solver) SUNLinSolFree(solver);
      if (jac) SUNMatDestroy(jac);
      for (N_Vector v : {yy, yp, id, atol})
        if (v) N_VDestroy(v);
      if (ctx) SUNContext_Free(&ctx);
    }
  } sv;
  check(SUNContext_Create(nullptr, &sv.ctx), "SUNContext_Create");
  SUNContext ctx = sv.ctx;
  N_Vector yy = sv.yy = N_VNew_Serial(kUnknowns, ctx), yp = sv.yp = N_VNew_Serial(kUnknowns, ctx);
  N_Vector id = sv.id = N_VNew_Serial(kUnknowns, ctx), atol = sv.atol = N_VNew_Serial(kUnknowns, ctx);
  const double t0 = 0.0;
  initial_state(model, s0, t0, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp));
  double* idv = N_VGetArrayPointer(id);
  double* at = N_VGetArrayPointer(atol);
  for (int j = 0; j < kUnknowns; ++j) {
    idv[j] = j < kLambda ? 1.0 : 0.0;  // lambda, mu algebraic
    at[j] = j < kV        ? options.atol_position
            : j < kLambda ? options.atol_velocity
            : j < kMu     ? options.atol_multiplier
                          : options.atol_projection;
  }
  void* mem = sv.mem = IDACreate(ctx);
  SUNMatrix jac = sv.jac = SUNDenseMatrix(kUnknowns, kUnknowns, ctx);
  SUNLinearSolver solver = sv.solver = SUNLinSol_Dense(yy, jac, ctx);
  std::vector<CeDaeSample> out;
  check(IDAInit(mem, residual, t0, yy, yp), "IDAInit");
  check(IDASVtolerances(mem, options.rtol, atol), "IDASVtolerances");
  check(IDASetUserData(mem, const_cast<Model*>(&model)), "IDASetUserData");
  check(IDASetLinearSolver(mem, solver, jac), "IDASetLinearSolver");
  check(IDASetId(mem, id), "IDASetId");
  check(IDASetSuppressAlg(mem, SUNTRUE), "IDASetSuppressAlg");  // index 2: multipliers out of the error test
  check(IDASetMaxNumSteps(mem, options.max_steps), "IDASetMaxNumSteps");
  // IDA's own first step at these tolerances is ~1e-9 s, where the index-2 iteration matrix is too
  // ill-conditioned for its Newton iteration (it then fails at t = 0): start at options.initial_step.
  check(IDASetInitStep(mem, options.initial_step), "IDASetInitStep");
  // The dampers switch between their bump and rebound rates where a shock's stroke rate changes
  // sign: a kink in the forces, where IDA's default of 4 Newton iterations per step can fail at
  // any step size (IDA flag -4, seen at the rear dampers' first reversal after the bump). More
  // iterations let the corrector converge through it; the error test and tolerances are unchanged.
  check(IDASetMaxNonlinIters(mem, options.max_newton_iterations), "IDASetMaxNonlinIters");
  double t = t0;
  constexpr int kMaxRestarts = 10;
  int restarts = 0;
  for (double tout : sample_times) {
    while (t < tout) {
      double stop = sample_times.back();
      for (double bp : breakpoints)
        if (bp > t && bp < stop) stop = bp;
      check(IDASetStopTime(mem, stop), "IDASetStopTime");
      const int flag = IDASolve(mem, tout, &t, yy, yp, IDA_NORMAL);
      // The forces jump where a shock's stroke crosses its midstroke bounds (its rate steps there):
      // the BDF history cannot cross a jump, and whether a step lands across one depends on
      // round-off. Restart the integration from the last step (consistent) past it.
      if (flag == IDA_CONV_FAIL && restarts < kMaxRestarts) {
        ++restarts;
        check(IDAReInit(mem, t, yy, yp), "IDAReInit");
        check(IDASetInitStep(mem, options.initial_step), "IDASetInitStep");
        continue;
      }
      check(flag, "IDASolve");
    }
    out.push_back(sample_of(model, t, N_VGetArrayPointer(yy)));
  }
  if (stats) {
    IDAGetNumSteps(mem, &stats->steps);
    IDAGetNumResEvals(mem, &stats->residual_evals);
    IDAGetNumJacEvals(mem, &stats->jacobian_evals);
    IDAGetNumErrTestFails(mem, &stats->error_test_failures);
    IDAGetNumNonlinSolvConvFails(mem, &stats->nonlinear_failures);
    stats->unknowns = kUnknowns;
    stats->constraints = kRows;
  }
  return out;
}

CeDaeAccelerations ce_dae_accelerations(const CeParams<double>& p, const TerrainDesc<double>& terrain,
                                        const std::vector<double>& s, DriverInput<double> input) {
  if (static_cast<int>(s.size()) != ce::kStateSize) throw Error("ce_dae_accelerations: state size");
  const std::function<DriverInput<double>(double)> held = [input](double) { return input; };
  const Model model = make_model(p, terrain, held);
  std::vector<double> y(kUnknowns), yp(kUnknowns);
  initial_state(model, s, 0.0, y.data(), yp.data());
  auto acc = [&](int k) { return Vec3<double>{yp[kV + 6 * k], yp[kV + 6 * k + 1], yp[kV + 6 * k + 2]}; };
  auto alpha = [&](int k) { return Vec3<double>{yp[kV + 6 * k + 3], yp[kV + 6 * k + 4], yp[kV + 6 * k + 5]}; };
  CeDaeAccelerations out;
  out.chassis_com_acc = acc(0);
  out.chassis_alpha = alpha(0);
  for (int i = 0; i < kCorners; ++i) {
    out.wheel_centre_acc[i] = acc(body_index(i, kWheelBody));
    out.upright_alpha[i] = alpha(body_index(i, kCeUpright));
    out.wheel_alpha[i] = alpha(body_index(i, kWheelBody));
  }
  return out;
}

}  // namespace fleetdyn
