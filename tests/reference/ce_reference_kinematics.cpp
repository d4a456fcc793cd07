// Numerical reference kinematics of a ce corner: tree-augmented model, Newton on the cut-joint
// constraints, exact first and second derivatives by a second-order Taylor jet (see the header).
#include "tests/reference/ce_reference_kinematics.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace fleetdyn {
namespace {

using std::cos;
using std::sin;
using std::sqrt;

// ---- second-order jet: f, df/dt, d2f/dt2 at t = 0 along a path q(t) ---------------------------
// Seeding q(t) = q + q_dot t + q_ddot t^2 / 2 gives, for any function of q, its value, its time
// derivative Y q_dot, and its second derivative Y q_ddot + Y_dot q_dot (seed eqs. 12, 14), exactly.
struct Jet {
  double v, d1, d2;
  Jet(double value = 0.0, double first = 0.0, double second = 0.0) : v(value), d1(first), d2(second) {}
};
Jet operator+(Jet a, Jet b) { return {a.v + b.v, a.d1 + b.d1, a.d2 + b.d2}; }
Jet operator-(Jet a, Jet b) { return {a.v - b.v, a.d1 - b.d1, a.d2 - b.d2}; }
Jet operator-(Jet a) { return {-a.v, -a.d1, -a.d2}; }
Jet operator*(Jet a, Jet b) {
  return {a.v * b.v, a.d1 * b.v + a.v * b.d1, a.d2 * b.v + 2.0 * a.d1 * b.d1 + a.v * b.d2};
}
Jet operator/(Jet a, Jet b) {
  // a = c b  =>  a' = c' b + c b',  a'' = c'' b + 2 c' b' + c b''
  const double c = a.v / b.v;
  const double c1 = (a.d1 - c * b.d1) / b.v;
  return {c, c1, (a.d2 - 2.0 * c1 * b.d1 - c * b.d2) / b.v};
}
// Chain rule for a scalar function with value f, f' and f'' at u.v.
Jet chain(Jet u, double f, double f1, double f2) { return {f, f1 * u.d1, f2 * u.d1 * u.d1 + f1 * u.d2}; }
Jet sin(Jet u) { return chain(u, std::sin(u.v), std::cos(u.v), -std::sin(u.v)); }
Jet cos(Jet u) { return chain(u, std::cos(u.v), -std::sin(u.v), -std::cos(u.v)); }
Jet sqrt(Jet u) {
  const double r = std::sqrt(u.v);
  return chain(u, r, 0.5 / r, -0.25 / (r * u.v));
}

// ---- small vector algebra on a generic scalar -----------------------------------------------------
template <class S>
struct V3 {
  S x, y, z;
};
template <class S>
V3<S> operator+(V3<S> a, V3<S> b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class S>
V3<S> operator-(V3<S> a, V3<S> b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class S>
V3<S> scale(S k, V3<S> a) {
  return {k * a.x, k * a.y, k * a.z};
}
template <class S>
S dot(V3<S> a, V3<S> b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class S>
V3<S> cross(V3<S> a, V3<S> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class S>
S length(V3<S> a) {
  return sqrt(dot(a, a));
}
template <class S>
V3<S> lift(const RefVec3& a) {
  return {S(a[0]), S(a[1]), S(a[2])};
}
RefVec3 ref(V3<double> a) { return {a.x, a.y, a.z}; }
using V3d = V3<double>;
V3d v3(const RefVec3& a) { return {a[0], a[1], a[2]}; }
V3d unit(V3d a) { return scale(1.0 / length(a), a); }

template <class S>
struct M3 {
  S m[3][3];
};
template <class S>
V3<S> operator*(const M3<S>& a, V3<S> v) {
  return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z, a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
          a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}
template <class S>
M3<S> operator*(const M3<S>& a, const M3<S>& b) {
  M3<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
  return r;
}
// I + a [w]x + b [w]x^2, the common form of the Rodrigues and Gibbs rotation matrices.
template <class S>
M3<S> rotation_form(V3<S> w, S a, S b) {
  const S wx[3][3] = {{S(0), -w.z, w.y}, {w.z, S(0), -w.x}, {-w.y, w.x, S(0)}};
  M3<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const S wx2 = wx[i][0] * wx[0][j] + wx[i][1] * wx[1][j] + wx[i][2] * wx[2][j];
      r.m[i][j] = (i == j ? S(1) : S(0)) + a * wx[i][j] + b * wx2;
    }
  return r;
}
// Rotation by `angle` about the unit axis (Rodrigues).
template <class S>
M3<S> axis_rotation(V3d axis, S angle) {
  return rotation_form(lift<S>(ref(axis)), sin(angle), S(1) - cos(angle));
}
// Rotation of Gibbs vector g: R = I + 2 ([g]x + [g]x^2) / (1 + g.g), rational in g.
template <class S>
M3<S> gibbs_rotation(V3<S> g) {
  const S k = S(2) / (S(1) + dot(g, g));
  return rotation_form(g, k, k);
}

// ---- the tree of one corner and its cut joints ----------------------------------------------------

// Unit axis from the back pivot to the front one, signed so a + rotation lifts `ball` at design.
V3d lifting_axis(const RefVec3& front, const RefVec3& back, const RefVec3& ball) {
  const V3d a = unit(v3(front) - v3(back));
  return cross(a, v3(ball) - v3(back)).z >= 0.0 ? a : scale(-1.0, a);
}

// Everything the tree puts where, for coordinates q = [phi, g, psi, theta, steer]. Positions are
// relative to the corner's design LCA ball joint (|p| < 1 m instead of ~2 m on the chassis, so the
// roundoff floor of C is set by the corner's size); solve_reference_corner adds it back.
template <class S>
struct CornerTree {
  S phi;
  V3<S> lca_ball, uca_ball_on_uca, uca_ball_on_upright;  // D, F (both sides of the cut)
  V3<S> pitman_link, idler_link;                         // U, V
  V3<S> tierod_inner, tierod_outer, wheel_centre;        // L, K, E
  M3<S> upright;                                         // design -> current
  S cut[kRefDependent];                                  // C(q) [m] (seed eq. 12's delta integrated)
};

template <class S>
CornerTree<S> corner_tree(const ReferenceSuspension& s, int corner, const S* q) {
  const ReferenceCornerDesign& d = s.corner[corner];
  const ReferenceSteering& st = s.steering;
  const V3d origin = v3(d.lca_ball);
  auto at = [&](const RefVec3& p) { return lift<S>(ref(v3(p) - origin)); };
  CornerTree<S> t;
  t.phi = q[0];
  const V3<S> g{q[1], q[2], q[3]};
  const S psi = q[4], theta = q[5], steer = q[6];
  // chassis -> LCA hinge (theta), about a point on the pivot axis (the midpoint).
  const V3d lca_axis = lifting_axis(d.lca_front, d.lca_back, d.lca_ball);
  const V3<S> lca_point = lift<S>(ref(scale(0.5, v3(d.lca_front) + v3(d.lca_back)) - origin));
  const M3<S> lca_rotation = axis_rotation(lca_axis, theta);
  const V3<S> d0 = at(d.lca_ball);  // the local origin, zero
  t.lca_ball = lca_point + lca_rotation * (d0 - lca_point);
  // LCA -> upright spherical joint at D: orientation = LCA's rotation then the joint's (Gibbs g).
  t.upright = lca_rotation * gibbs_rotation(g);
  auto on_upright = [&](const RefVec3& design_point) { return t.lca_ball + t.upright * (at(design_point) - d0); };
  t.uca_ball_on_upright = on_upright(d.uca_ball);
  t.tierod_outer = on_upright(d.tierod_outer);
  t.wheel_centre = on_upright(d.wheel_centre);
  // chassis -> UCA hinge (phi).
  const V3d uca_axis = lifting_axis(d.uca_front, d.uca_back, d.uca_ball);
  const V3<S> uca_point = lift<S>(ref(scale(0.5, v3(d.uca_front) + v3(d.uca_back)) - origin));
  t.uca_ball_on_uca = uca_point + axis_rotation(uca_axis, t.phi) * (at(d.uca_ball) - uca_point);
  // Pitman four-bar: two chassis hinges (Pitman arm: input; idler arm: psi) and the link U-V.
  const V3d n = v3(st.axis);
  const V3<S> pivot_t = at(st.pitman_pivot), pivot_w = at(st.idler_pivot);
  t.pitman_link = pivot_t + axis_rotation(n, S(st.input_sign) * steer) * (at(st.pitman_link) - pivot_t);
  t.idler_link = pivot_w + axis_rotation(n, psi) * (at(st.idler_link) - pivot_w);
  if (d.steered) {
    // The link as a rigid planar body: frame (U->V, n x (U->V), n) carries L.
    const V3d u0 = v3(st.pitman_link), e1_0 = unit(v3(st.idler_link) - u0), e2_0 = cross(n, e1_0);
    const V3d l0 = v3(d.tierod_inner) - u0;
    const V3<S> uv = t.idler_link - t.pitman_link;
    const V3<S> e1 = scale(S(1) / length(uv), uv);
    const V3<S> ns = lift<S>(ref(n));
    t.tierod_inner = t.pitman_link + scale(S(dot(l0, e1_0)), e1) + scale(S(dot(l0, e2_0)), cross(ns, e1)) +
                     scale(S(dot(l0, n)), ns);
  } else {
    t.tierod_inner = at(d.tierod_inner);
  }
  // Cut joints.
  const V3<S> f_gap = t.uca_ball_on_upright - t.uca_ball_on_uca;
  t.cut[0] = f_gap.x;
  t.cut[1] = f_gap.y;
  t.cut[2] = f_gap.z;
  t.cut[3] = length(t.tierod_outer - t.tierod_inner) - S(length(v3(d.tierod_outer) - v3(d.tierod_inner)));
  t.cut[4] = length(t.idler_link - t.pitman_link) - S(length(v3(st.idler_link) - v3(st.pitman_link)));
  return t;
}

using Coordinates = Eigen::Matrix<double, kRefCoordinates, 1>;
using Jacobian = Eigen::Matrix<double, kRefDependent, kRefCoordinates>;
using DependentMatrix = Eigen::Matrix<double, kRefDependent, kRefDependent>;
using Dependent = Eigen::Matrix<double, kRefDependent, 1>;

// The tree evaluated along q(t) = q + q_dot t + q_ddot t^2 / 2.
CornerTree<Jet> tree_along(const ReferenceSuspension& s, int corner, const Coordinates& q, const Coordinates& q_dot,
                           const Coordinates& q_ddot) {
  Jet j[kRefCoordinates];
  for (int i = 0; i < kRefCoordinates; ++i) j[i] = Jet(q[i], q_dot[i], q_ddot[i]);
  return corner_tree(s, corner, j);
}

// Y = dC/dq (seed eq. 12), column by column, exact.
Jacobian constraint_jacobian(const ReferenceSuspension& s, int corner, const Coordinates& q) {
  Jacobian y;
  for (int c = 0; c < kRefCoordinates; ++c) {
    const CornerTree<Jet> t = tree_along(s, corner, q, Coordinates::Unit(c), Coordinates::Zero());
    for (int r = 0; r < kRefDependent; ++r) y(r, c) = t.cut[r].d1;
  }
  return y;
}

Dependent cut_vector(const ReferenceSuspension& s, int corner, const Coordinates& q) {
  const CornerTree<double> t = corner_tree(s, corner, q.data());
  Dependent cut;
  for (int i = 0; i < kRefDependent; ++i) cut[i] = t.cut[i];
  return cut;
}

// Newton on the dependent coordinates, the independent ones held, to max |C| <= 1e-14 m, then one
// more step kept only if it lowers |C| (down to the roundoff floor). Returns the iterations.
int newton(const ReferenceSuspension& s, int corner, Coordinates& q, bool& converged) {
  constexpr double kTolerance = 1e-14;  // [m]
  constexpr int kMaxIterations = 40;
  for (int it = 0; it < kMaxIterations; ++it) {
    const Dependent cut = cut_vector(s, corner, q);
    const DependentMatrix y1 = constraint_jacobian(s, corner, q).leftCols<kRefDependent>();
    Coordinates next = q;
    next.head<kRefDependent>() -= y1.fullPivLu().solve(cut);
    if (cut.cwiseAbs().maxCoeff() <= kTolerance) {
      if (cut_vector(s, corner, next).cwiseAbs().maxCoeff() < cut.cwiseAbs().maxCoeff()) q = next;
      return it;
    }
    q = next;
  }
  converged = false;
  return kMaxIterations;
}

V3d vee_of_skew(const double w[3][3]) {
  return {0.5 * (w[2][1] - w[1][2]), 0.5 * (w[0][2] - w[2][0]), 0.5 * (w[1][0] - w[0][1])};
}

// Velocities and bias accelerations for rates (lca_rate, steer_rate) (seed eqs. 13, 14).
ReferenceCornerMotion corner_motion_at(const ReferenceSuspension& s, int corner, const Coordinates& q,
                                       const Eigen::Matrix<double, kRefCoordinates, 2>& x, const DependentMatrix& y1,
                                       double lca_rate, double steer_rate) {
  const Coordinates q_dot = x * Eigen::Vector2d(lca_rate, steer_rate);
  // [delta_dot] at q_ddot = 0: the second derivative of C along q + q_dot t (seed eq. 14).
  const CornerTree<Jet> free = tree_along(s, corner, q, q_dot, Coordinates::Zero());
  Dependent gamma;
  for (int i = 0; i < kRefDependent; ++i) gamma[i] = free.cut[i].d2;
  Coordinates q_ddot = Coordinates::Zero();
  q_ddot.head<kRefDependent>() = -y1.fullPivLu().solve(gamma);  // X_dot theta_dot
  const CornerTree<Jet> t = tree_along(s, corner, q, q_dot, q_ddot);
  ReferenceCornerMotion m;
  m.acc_constraint_error = 0.0;
  for (int i = 0; i < kRefDependent; ++i)
    m.acc_constraint_error = std::max(m.acc_constraint_error, std::fabs(t.cut[i].d2));
  auto vel = [](V3<Jet> p) { return RefVec3{p.x.d1, p.y.d1, p.z.d1}; };
  auto acc = [](V3<Jet> p) { return RefVec3{p.x.d2, p.y.d2, p.z.d2}; };
  m.lca_ball_vel = vel(t.lca_ball);
  m.uca_ball_vel = vel(t.uca_ball_on_uca);
  m.tierod_inner_vel = vel(t.tierod_inner);
  m.tierod_outer_vel = vel(t.tierod_outer);
  m.wheel_centre_vel = vel(t.wheel_centre);
  m.lca_ball_acc = acc(t.lca_ball);
  m.uca_ball_acc = acc(t.uca_ball_on_uca);
  m.tierod_inner_acc = acc(t.tierod_inner);
  m.tierod_outer_acc = acc(t.tierod_outer);
  m.wheel_centre_acc = acc(t.wheel_centre);
  const V3d uca_axis = lifting_axis(s.corner[corner].uca_front, s.corner[corner].uca_back, s.corner[corner].uca_ball);
  m.uca_rate = t.phi.d1;
  m.uca_bias = t.phi.d2;
  m.uca_omega = ref(scale(m.uca_rate, uca_axis));
  m.uca_alpha = ref(scale(m.uca_bias, uca_axis));
  // [omega]x = R' R^T and [alpha]x = skew(R'' R^T) (the rest, [omega]x^2, is symmetric).
  double w[3][3], a[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      w[i][j] = a[i][j] = 0.0;
      for (int k = 0; k < 3; ++k) {
        w[i][j] += t.upright.m[i][k].d1 * t.upright.m[j][k].v;
        a[i][j] += t.upright.m[i][k].d2 * t.upright.m[j][k].v;
      }
    }
  m.upright_omega = ref(vee_of_skew(w));
  m.upright_alpha = ref(vee_of_skew(a));
  return m;
}

RefVec3 place(const Vec3<double>& left_point, double axle_x, double side) {
  return {left_point.x + axle_x, side * left_point.y, left_point.z};
}

}  // namespace

ReferenceSuspension make_reference_suspension(const SuspensionDesign& design) {
  ReferenceSuspension s;
  for (int c = 0; c < kCorners; ++c) {
    const bool front = c < 2;
    const double side = (c % 2 == 0) ? 1.0 : -1.0;
    const DoubleWishboneHardpoints<double>& h = front ? design.front : design.rear;
    const double x = front ? design.front_axle_x : design.rear_axle_x;
    ReferenceCornerDesign& d = s.corner[c];
    d.lca_front = place(h.lca_front, x, side);
    d.lca_back = place(h.lca_back, x, side);
    d.lca_ball = place(h.lca_ball, x, side);
    d.uca_front = place(h.uca_front, x, side);
    d.uca_back = place(h.uca_back, x, side);
    d.uca_ball = place(h.uca_ball, x, side);
    d.wheel_centre = place(h.wheel_centre, x, side);
    d.tierod_inner = place(h.tierod_inner, x, side);
    d.tierod_outer = place(h.tierod_outer, x, side);
    d.steered = front;
  }
  // Mechanism frame: at `origin`, turned by `pitch` about chassis y; planar (mechanism z dropped).
  const PitmanSteeringGeometry<double>& m = design.steering;
  const double cp = std::cos(m.pitch), sp = std::sin(m.pitch);
  auto to_chassis = [&](const Vec3<double>& p) {
    return RefVec3{m.origin.x + cp * p.x, m.origin.y + p.y, m.origin.z - sp * p.x};
  };
  s.steering.axis = {sp, 0.0, cp};
  s.steering.pitman_pivot = to_chassis(m.pitman_pivot);
  s.steering.pitman_link = to_chassis(m.pitman_link);
  s.steering.idler_pivot = to_chassis(m.idler_pivot);
  s.steering.idler_link = to_chassis(m.idler_link);
  // + steering turns the front-left wheel left: its spin axis (+y at design) turns towards -x.
  s.steering.input_sign = 1.0;
  const ReferenceCornerState probe = solve_reference_corner(s, 0, 0.0, 1e-3);
  if (std::atan2(-probe.spin_axis[0], probe.spin_axis[1]) < 0.0) s.steering.input_sign = -1.0;
  return s;
}

ReferenceCornerState solve_reference_corner(const ReferenceSuspension& s, int corner, double lca_angle,
                                            double steer_angle, double lca_rate, double steer_rate) {
  ReferenceCornerState out;
  out.lca_angle = lca_angle;
  out.steer_angle = steer_angle;
  out.converged = true;
  out.total_iterations = 0;
  // Continuation from the design (q = 0, exactly closed), with the tangent X as predictor.
  constexpr double kMaxStep = 0.05;  // [rad]
  const int steps = std::max(1, static_cast<int>(std::ceil(std::max(std::fabs(lca_angle), std::fabs(steer_angle)) / kMaxStep)));
  Coordinates q = Coordinates::Zero();
  Eigen::Matrix<double, kRefCoordinates, 2> x;
  DependentMatrix y1;
  for (int k = 1; k <= steps; ++k) {
    const Eigen::Vector2d target(lca_angle * k / steps, steer_angle * k / steps);
    const Jacobian y = constraint_jacobian(s, corner, q);
    y1 = y.leftCols<kRefDependent>();
    x.topRows<kRefDependent>() = -y1.fullPivLu().solve(y.rightCols<2>());  // seed eq. 13
    x.bottomRows<2>().setIdentity();
    q += x * (target - q.tail<2>());
    q.tail<2>() = target;  // exact, not accumulated
    out.newton_iterations = newton(s, corner, q, out.converged);
    out.total_iterations += out.newton_iterations;
  }
  // X and Y1 at the solution (seed eq. 13).
  const Jacobian y = constraint_jacobian(s, corner, q);
  y1 = y.leftCols<kRefDependent>();
  x.topRows<kRefDependent>() = -y1.fullPivLu().solve(y.rightCols<2>());
  x.bottomRows<2>().setIdentity();
  for (int i = 0; i < kRefCoordinates; ++i) {
    out.q[i] = q[i];
    out.velocity_map[i] = {x(i, 0), x(i, 1)};
  }
  out.residual = cut_vector(s, corner, q).cwiseAbs().maxCoeff();
  const CornerTree<double> t = corner_tree(s, corner, q.data());
  const V3d origin = v3(s.corner[corner].lca_ball);
  out.uca_angle = t.phi;
  out.lca_ball = ref(t.lca_ball + origin);
  out.uca_ball = ref(t.uca_ball_on_uca + origin);
  out.tierod_inner = ref(t.tierod_inner + origin);
  out.tierod_outer = ref(t.tierod_outer + origin);
  out.wheel_centre = ref(t.wheel_centre + origin);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.upright_rotation[i][j] = t.upright.m[i][j];
  out.spin_axis = {t.upright.m[0][1], t.upright.m[1][1], t.upright.m[2][1]};
  out.per_lca_rate = corner_motion_at(s, corner, q, x, y1, 1.0, 0.0);
  out.per_steer_rate = corner_motion_at(s, corner, q, x, y1, 0.0, 1.0);
  out.at_rates = corner_motion_at(s, corner, q, x, y1, lca_rate, steer_rate);
  return out;
}

}  // namespace fleetdyn
