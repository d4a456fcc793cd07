// Host side of the pgs vehicle: the ce model's HMMWV laid out as bodies and joints at the design
// pose (ce chassis frame), converted to the kernel's parameters, and ce states mapped onto it.
#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/error.h"
#include "fleetdyn/pgs_vehicle.h"
#include "host/pgs/pgs_model.h"

namespace fleetdyn {
namespace {

using V = Vec3<double>;
using namespace pgsv;

// A body's principal frame: the columns of `axes` (chassis frame, right-handed) diagonalize its
// inertia about the COM to `moments`.
struct PrincipalFrame {
  Mat3<double> axes;
  V moments;
};

Mat3<double> to_mat3(const Eigen::Matrix3d& m) {
  Mat3<double> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = m(i, j);
  return r;
}
Eigen::Matrix3d to_eigen(const Mat3<double>& m) {
  Eigen::Matrix3d r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = m.m[i][j];
  return r;
}
Quat<double> quat_of(const Mat3<double>& m) {
  const Eigen::Quaterniond q(to_eigen(m));
  return normalized(Quat<double>{q.w(), q.x(), q.y(), q.z()});
}
Mat3<double> mul(const Mat3<double>& a, const Mat3<double>& b) { return to_mat3(to_eigen(a) * to_eigen(b)); }

PrincipalFrame principal_frame(const Sym3<double>& s) {
  Eigen::Matrix3d m;
  m << s.xx, s.xy, s.xz, s.xy, s.yy, s.yz, s.xz, s.yz, s.zz;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(m);
  Eigen::Matrix3d axes = eig.eigenvectors();
  // Keep each axis pointing as close as possible to the chassis axis of the same index, and the
  // frame right-handed, so a diagonal inertia keeps the identity.
  Eigen::Matrix3d ordered;
  Eigen::Vector3d moments;
  bool used[3] = {false, false, false};
  for (int target = 0; target < 3; ++target) {
    int best = -1;
    for (int k = 0; k < 3; ++k) {
      if (!used[k] && (best < 0 || std::abs(axes(target, k)) > std::abs(axes(target, best)))) best = k;
    }
    used[best] = true;
    ordered.col(target) = axes(target, best) < 0.0 ? Eigen::Vector3d(-axes.col(best)) : Eigen::Vector3d(axes.col(best));
    moments[target] = eig.eigenvalues()[best];
  }
  if (ordered.determinant() < 0.0) ordered.col(2) = -ordered.col(2);
  return {to_mat3(ordered), V{moments[0], moments[1], moments[2]}};
}

// The upright with the tierod's mass on it: masses add, the inertias move to the joint COM.
void add_point_body(double mass_b, V com_b, const Sym3<double>& inertia_b, double* mass, V* com, Sym3<double>* inertia) {
  const double m = *mass + mass_b;
  const V c = (1.0 / m) * (*mass * *com + mass_b * com_b);
  const auto shifted = [](const Sym3<double>& i, double mb, V d) {
    return Sym3<double>{i.xx + mb * (d.y * d.y + d.z * d.z),
                        i.yy + mb * (d.x * d.x + d.z * d.z),
                        i.zz + mb * (d.x * d.x + d.y * d.y),
                        i.xy - mb * d.x * d.y,
                        i.xz - mb * d.x * d.z,
                        i.yz - mb * d.y * d.z};
  };
  const Sym3<double> a = shifted(*inertia, *mass, *com - c), b = shifted(inertia_b, mass_b, com_b - c);
  *inertia = {a.xx + b.xx, a.yy + b.yy, a.zz + b.zz, a.xy + b.xy, a.xz + b.xz, a.yz + b.yz};
  *mass = m;
  *com = c;
}

// One body of the layout at design: mass, COM and principal frame (chassis frame).
struct DesignBody {
  double mass;
  V com;
  PrincipalFrame frame;
};

// The wheel: symmetric about its spin axis, its y axis along the axis at design.
PrincipalFrame wheel_frame(const CeParams<double>& p, V spin_axis) {
  const V y = (1.0 / norm(spin_axis)) * spin_axis;
  const V x = normalized_or(V{1.0, 0.0, 0.0} - dot(V{1.0, 0.0, 0.0}, y) * y, V{1.0, 0.0, 0.0});
  const V z = cross(x, y);
  Mat3<double> axes;
  for (int i = 0; i < 3; ++i) {
    axes.m[i][0] = i == 0 ? x.x : i == 1 ? x.y : x.z;
    axes.m[i][1] = i == 0 ? y.x : i == 1 ? y.y : y.z;
    axes.m[i][2] = i == 0 ? z.x : i == 1 ? z.y : z.z;
  }
  return {axes, V{p.wheel_transverse_inertia, p.wheel_spin_inertia, p.wheel_transverse_inertia}};
}

std::vector<DesignBody> design_bodies(const CeParams<double>& p) {
  std::vector<DesignBody> out;
  out.push_back({p.chassis_mass, p.chassis_com, principal_frame(p.chassis_inertia)});
  for (int c = 0; c < kCorners; ++c) {
    const DoubleWishboneHardpoints<double>& d = p.corner[c].design;
    out.push_back({p.body_mass[c][kCeLca], d.lca_com, principal_frame(p.body_inertia[c][kCeLca])});
    out.push_back({p.body_mass[c][kCeUca], d.uca_com, principal_frame(p.body_inertia[c][kCeUca])});
    double mass = p.body_mass[c][kCeUpright];
    V com = d.upright_com;
    Sym3<double> inertia = p.body_inertia[c][kCeUpright];
    add_point_body(p.body_mass[c][kCeTierod], 0.5 * (d.tierod_inner + d.tierod_outer), p.body_inertia[c][kCeTierod],
                   &mass, &com, &inertia);
    out.push_back({mass, com, principal_frame(inertia)});
    const CornerPose<double> pose = corner_pose(p.corner[c], 0.0, TierodInner<double>{d.tierod_inner, {}, {}});
    out.push_back({p.wheel_mass, d.wheel_centre, wheel_frame(p, pose.spin_axis)});
  }
  return out;
}

// A chassis-frame point / direction in a design body's frame.
V local_point(const DesignBody& b, V point) { return mul_transpose(b.frame.axes, point - b.com); }
V local_dir(const DesignBody& b, V dir) { return mul_transpose(b.frame.axes, dir); }

void check_def(const PgsVehicleDef& def) {
  if (def.iterations < 1 || def.iterations > 10000) {
    throw Error("pgs vehicle: iterations = " + std::to_string(def.iterations) + " (must be 1..10000)");
  }
  if (!(def.baumgarte >= 0.0 && def.baumgarte <= 1.0)) throw Error("pgs vehicle: baumgarte must be in [0, 1]");
  if (!(def.warm_start >= 0.0 && def.warm_start <= 1.0)) throw Error("pgs vehicle: warm_start must be in [0, 1]");
}

}  // namespace

PgsModelDef pgs_vehicle_model_def(const PgsVehicleDef& def) {
  check_def(def);
  const CeParams<double>& p = def.vehicle;
  const std::vector<DesignBody> bodies = design_bodies(p);
  PgsModelDef m;
  m.dimension = 3;
  m.gravity = V{0.0, 0.0, -p.gravity};
  m.ground.enabled = def.wheel_contact == WheelContact::Rows;
  for (const DesignBody& b : bodies) {
    PgsBodyDef body;
    body.mass = b.mass;
    body.inertia = b.frame.moments;
    body.position = b.com;
    body.orientation = quat_of(b.frame.axes);
    m.bodies.push_back(body);
  }
  const DesignBody& chassis = bodies[kChassisBody];
  for (int c = 0; c < kCorners; ++c) {
    const CornerGeometry<double>& g = p.corner[c];
    const DoubleWishboneHardpoints<double>& d = g.design;
    const int lca = corner_body(c, kLcaBody), uca = corner_body(c, kUcaBody);
    const int upright = corner_body(c, kUprightBody), wheel = corner_body(c, kWheelBody);
    const auto joint = [&](pgs::JointKind kind, int a, int b, V point, V axis) {
      PgsJointDef j;
      j.kind = kind;
      j.body_a = a;
      j.body_b = b;
      j.anchor_a = local_point(bodies[a], point);
      j.anchor_b = local_point(bodies[b], point);
      j.axis_a = local_dir(bodies[a], axis);
      j.axis_b = local_dir(bodies[b], axis);
      return j;
    };
    const V spin_axis = bodies[wheel].frame.axes.col(1);
    m.joints.push_back(joint(pgs::JointKind::Revolute, kChassisBody, lca, g.lca_axis_point, g.lca_axis));
    m.joints.push_back(joint(pgs::JointKind::Revolute, kChassisBody, uca, g.uca_circle_centre, g.uca_axis));
    m.joints.push_back(joint(pgs::JointKind::Ball, lca, upright, d.lca_ball, V{0.0, 0.0, 1.0}));
    m.joints.push_back(joint(pgs::JointKind::Ball, uca, upright, d.uca_ball, V{0.0, 0.0, 1.0}));
    m.joints.push_back(joint(pgs::JointKind::Revolute, upright, wheel, d.wheel_centre, spin_axis));
    PgsJointDef tierod;
    tierod.kind = pgs::JointKind::Distance;
    tierod.body_a = kChassisBody;
    tierod.body_b = upright;
    tierod.anchor_a = local_point(chassis, d.tierod_inner);
    tierod.anchor_b = local_point(bodies[upright], d.tierod_outer);
    tierod.length = g.tierod_length;
    m.joints.push_back(tierod);
    // ce's elastic travel limits on the LCA angle (0 at the design pose, as ce's), as rows: the
    // stiff stop is implicit there, where as an explicit torque on the light arm it outran the
    // sweeps (docs/models/pgs.md).
    const CeAxleForces<double>& axle = p.axle[c / 2];
    PgsJointDef limit = joint(pgs::JointKind::HingeLimit, kChassisBody, lca, g.lca_axis_point, g.lca_axis);
    limit.lower = axle.droop_limit_lca;
    limit.upper = axle.bump_limit_lca;
    limit.stiffness = axle.travel_limit_stiffness;
    m.joints.push_back(limit);
  }
  if (def.wheel_contact == WheelContact::Rows) {
    for (int c = 0; c < kCorners; ++c) {
      PgsContactDef contact;
      contact.body = corner_body(c, kWheelBody);
      contact.radius = p.tire.unloaded_radius;
      contact.friction = p.tire.mu;
      m.contacts.push_back(contact);
    }
  }
  return m;
}

template <class T>
PgsVehicleParams<T> build_pgs_vehicle_params(const PgsVehicleDef& def, double step, const TerrainDesc<double>& terrain) {
  const PgsModelDef model = pgs_vehicle_model_def(def);
  PgsSolverSettings settings;
  settings.step = step;
  settings.max_iterations = def.iterations;
  settings.tolerance = 0.0;  // fixed sweeps: deterministic cost, and the batch's runs reproducible
  settings.baumgarte = def.baumgarte;
  settings.warm_start = def.warm_start;
  settings.cone = def.cone;
  // Rows color by color on every backend: the CUDA kernel's lanes split each color, and the CPU
  // then runs the same arithmetic in the same order (kernels/pgs_vehicle_kernel.cuh).
  settings.colored_sweeps = true;
  if (def.wheel_contact == WheelContact::Rows) {
    if (terrain.kind != TerrainKind::Flat) {
      throw Error("pgs vehicle: wheel_contact = rows needs flat terrain (the rigid wheels' ground is a plane)");
    }
  }
  const PgsModelData<T> data = build_pgs_model<T>(model, settings);
  const CeParams<double>& ce = def.vehicle;
  PgsVehicleParams<T> p{};
  p.ce = convert_ce_params<T>(ce);
  p.wheel_contact = static_cast<int>(def.wheel_contact);
  p.row_count = static_cast<int>(data.rows.size());
  p.color_count = static_cast<int>(data.color_begin.size()) - 1;
  if (static_cast<int>(data.bodies.size()) != kBodies || static_cast<int>(data.joints.size()) != kJoints ||
      p.row_count > kMaxRows) {
    throw Error("pgs vehicle: internal layout mismatch");
  }
  for (int i = 0; i < kBodies; ++i) p.bodies[i] = data.bodies[static_cast<size_t>(i)];
  for (int j = 0; j < kJoints; ++j) p.joints[j] = data.joints[static_cast<size_t>(j)];
  for (size_t c = 0; c < data.contacts.size(); ++c) p.contacts[c] = data.contacts[c];
  for (int r = 0; r < p.row_count; ++r) {
    p.rows[r] = data.rows[static_cast<size_t>(r)];
    p.sweep_order[r] = data.sweep_order[static_cast<size_t>(r)];
  }
  for (int k = 0; k <= p.color_count; ++k) p.color_begin[k] = data.color_begin[static_cast<size_t>(k)];
  p.settings = data.settings;
  p.ground = pgs::Ground<T>{def.wheel_contact == WheelContact::Rows ? 1 : 0, T(terrain.base_height), T(0), T(0), T(0)};
  const std::vector<DesignBody> bodies = design_bodies(ce);
  const auto tv = [](V v) { return Vec3<T>{T(v.x), T(v.y), T(v.z)}; };
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p.chassis_axes.m[i][j] = T(bodies[kChassisBody].frame.axes.m[i][j]);
  for (int c = 0; c < kCorners; ++c) {
    const CornerGeometry<double>& g = ce.corner[c];
    const DoubleWishboneHardpoints<double>& d = g.design;
    const DesignBody& chassis = bodies[kChassisBody];
    const DesignBody& lca = bodies[static_cast<size_t>(corner_body(c, kLcaBody))];
    p.spring_on_chassis[c] = tv(local_point(chassis, d.spring_chassis));
    p.spring_on_lca[c] = tv(local_point(lca, d.spring_arm));
    p.shock_on_chassis[c] = tv(local_point(chassis, d.shock_chassis));
    p.shock_on_lca[c] = tv(local_point(lca, d.shock_arm));
    p.lca_axis_on_chassis[c] = tv(local_dir(chassis, g.lca_axis));
    const V arm = d.lca_ball - g.lca_axis_point;
    const V ref = (1.0 / norm(arm - dot(arm, g.lca_axis) * g.lca_axis)) * (arm - dot(arm, g.lca_axis) * g.lca_axis);
    p.lca_ref_on_chassis[c] = tv(local_dir(chassis, ref));
    p.lca_ref_on_lca[c] = tv(local_dir(lca, ref));
    p.tierod_inner_design[c] = tv(d.tierod_inner);
  }
  return p;
}

template PgsVehicleParams<float> build_pgs_vehicle_params<float>(const PgsVehicleDef&, double, const TerrainDesc<double>&);
template PgsVehicleParams<double> build_pgs_vehicle_params<double>(const PgsVehicleDef&, double, const TerrainDesc<double>&);

CeParams<double> pgs_vehicle_rest_params(const PgsVehicleDef& def) {
  CeParams<double> p = def.vehicle;
  if (def.wheel_contact == WheelContact::Rows) p.tire.vertical_stiffness *= 100.0;
  return p;
}

std::vector<double> pgs_vehicle_state_from_ce(const PgsVehicleParams<double>& p, const std::vector<double>& ce_state) {
  if (static_cast<int>(ce_state.size()) != kCeStateSize) throw Error("pgs_vehicle_state_from_ce: not a ce state");
  const CeParams<double>& ce = p.ce;
  const std::vector<DesignBody> bodies = design_bodies(ce);
  const double* s = ce_state.data();
  const Mat3<double> rot = rotation_matrix(normalized(load_quat(s, ce::kQuat)));
  const V origin = load3(s, ce::kPos), omega_c = load3(s, ce::kOmega), vel_c = load3(s, ce::kVel);
  std::vector<double> out(kStateSize, 0.0);
  // Place body i: chassis-frame COM and design -> current rotation, velocity of the COM and
  // angular velocity relative to the chassis (chassis frame).
  const auto place = [&](int i, V com, const Mat3<double>& turn, V rel_vel, V rel_omega) {
    const V omega = omega_c + rel_omega;
    const V x = origin + rot * com;
    const V v = rot * (vel_c + cross(omega_c, com) + rel_vel);
    store3(out.data(), pgs::body_field(i, pgs::kPx), x);
    store_quat(out.data(), pgs::body_field(i, pgs::kQw),
               quat_of(mul(mul(rot, turn), bodies[static_cast<size_t>(i)].frame.axes)));
    store3(out.data(), pgs::body_field(i, pgs::kVx), v);
    store3(out.data(), pgs::body_field(i, pgs::kWx), rot * omega);
  };
  Mat3<double> identity{};
  for (int k = 0; k < 3; ++k) identity.m[k][k] = 1.0;
  const V zero{0.0, 0.0, 0.0};
  place(kChassisBody, ce.chassis_com, identity, zero, zero);
  const SteeringLinkState<double> link = steering_link_state(ce.steering, s[ce::kSteer], 0.0, 0.0);
  for (int c = 0; c < kCorners; ++c) {
    const CornerGeometry<double>& g = ce.corner[c];
    const TierodInner<double> inner = tierod_inner_point(g, ce.steering, link);
    const CornerPose<double> pose = corner_pose(g, s[ce::kLca + c], inner);
    if (!pose.assembled) throw Error("pgs_vehicle_state_from_ce: corner " + std::to_string(c) + " does not assemble");
    CornerMotion<double> m;
    corner_velocities(g, pose, s[ce::kLcaRate + c], zero, m);
    const DoubleWishboneHardpoints<double>& d = g.design;
    const V upright_com = pose.lca_ball + pose.upright_rotation *
                                              (bodies[static_cast<size_t>(corner_body(c, kUprightBody))].com - d.lca_ball);
    place(corner_body(c, kLcaBody), pose.lca_com, pose.lca_rotation,
          m.lca_ball_vel + cross(m.lca_omega, pose.lca_com - pose.lca_ball), m.lca_omega);
    place(corner_body(c, kUcaBody), pose.uca_com, pose.uca_rotation,
          m.uca_ball_vel + cross(m.uca_omega, pose.uca_com - pose.uca_ball), m.uca_omega);
    place(corner_body(c, kUprightBody), upright_com, pose.upright_rotation,
          m.wheel_centre_vel + cross(m.upright_omega, upright_com - pose.wheel_centre), m.upright_omega);
    place(corner_body(c, kWheelBody), pose.wheel_centre, pose.upright_rotation, m.wheel_centre_vel,
          m.upright_omega + s[ce::kWheelSpin + c] * pose.spin_axis);
    out[static_cast<size_t>(kDeflLong + c)] = s[ce::kDeflLong + c];
    out[static_cast<size_t>(kDeflLat + c)] = s[ce::kDeflLat + c];
  }
  out[kSteer] = s[ce::kSteer];
  // Stored form: positions of bodies 1.. relative to the chassis COM.
  offset_positions(out.data(), -1.0);
  return out;
}

namespace {
template <class T>
Vec3<T> tv(Vec3<double> v) {
  return {T(v.x), T(v.y), T(v.z)};
}
}  // namespace

template <class T>
PgsVehicleParams<T> convert_pgs_vehicle_params(const PgsVehicleParams<double>& p) {
  PgsVehicleParams<T> out{};
  out.ce = convert_ce_params<T>(p.ce);
  out.wheel_contact = p.wheel_contact;
  out.row_count = p.row_count;
  out.color_count = p.color_count;
  for (int i = 0; i < kBodies; ++i) {
    const pgs::Body<double>& b = p.bodies[i];
    out.bodies[i] = pgs::Body<T>{T(b.mass),
                                 tv<T>(b.inertia),
                                 tv<T>(b.inv_inertia),
                                 b.kinematic,
                                 tv<T>(b.motion_origin),
                                 tv<T>(b.motion_velocity),
                                 tv<T>(b.motion_amplitude),
                                 T(b.motion_frequency),
                                 T(b.motion_phase)};
  }
  for (int j = 0; j < kJoints; ++j) {
    const pgs::Joint<double>& a = p.joints[j];
    out.joints[j] = pgs::Joint<T>{a.kind,
                                  a.body_a,
                                  a.body_b,
                                  tv<T>(a.anchor_a),
                                  tv<T>(a.anchor_b),
                                  tv<T>(a.axis_a),
                                  tv<T>(a.axis_b),
                                  tv<T>(a.perp1_a),
                                  tv<T>(a.perp2_a),
                                  Quat<T>{T(a.reference.w), T(a.reference.x), T(a.reference.y), T(a.reference.z)},
                                  T(a.length),
                                  a.row_begin,
                                  tv<T>(a.perp1_b),
                                  T(a.lower),
                                  T(a.upper),
                                  T(a.compliance),
                                  T(a.damping)};
  }
  for (int c = 0; c < kCorners; ++c) {
    const pgs::Contact<double>& k = p.contacts[c];
    out.contacts[c] = pgs::Contact<T>{k.body,        tv<T>(k.offset),  T(k.radius),
                                      T(k.friction), T(k.restitution), k.row_begin};
    out.spring_on_chassis[c] = tv<T>(p.spring_on_chassis[c]);
    out.spring_on_lca[c] = tv<T>(p.spring_on_lca[c]);
    out.shock_on_chassis[c] = tv<T>(p.shock_on_chassis[c]);
    out.shock_on_lca[c] = tv<T>(p.shock_on_lca[c]);
    out.lca_axis_on_chassis[c] = tv<T>(p.lca_axis_on_chassis[c]);
    out.lca_ref_on_chassis[c] = tv<T>(p.lca_ref_on_chassis[c]);
    out.lca_ref_on_lca[c] = tv<T>(p.lca_ref_on_lca[c]);
    out.tierod_inner_design[c] = tv<T>(p.tierod_inner_design[c]);
  }
  for (int r = 0; r < kMaxRows; ++r) {
    out.rows[r] = p.rows[r];
    out.sweep_order[r] = p.sweep_order[r];
  }
  for (int k = 0; k <= kMaxRows; ++k) out.color_begin[k] = p.color_begin[k];
  const pgs::Settings<double>& st = p.settings;
  out.settings = pgs::Settings<T>{
      st.dimension,     T(st.step),       tv<T>(st.gravity), st.max_iterations,        T(st.tolerance),
      T(st.baumgarte),  T(st.warm_start), st.cone,           st.velocity_product_term, T(st.restitution_threshold),
      st.colored_sweeps};
  out.ground = pgs::Ground<T>{p.ground.enabled, T(p.ground.height), T(p.ground.bump_start), T(p.ground.bump_length),
                              T(p.ground.bump_height)};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.chassis_axes.m[i][j] = T(p.chassis_axes.m[i][j]);
  return out;
}
template PgsVehicleParams<float> convert_pgs_vehicle_params<float>(const PgsVehicleParams<double>&);
template PgsVehicleParams<double> convert_pgs_vehicle_params<double>(const PgsVehicleParams<double>&);

double pgs_vehicle_energy(const PgsVehicleParams<double>& p, const TerrainDesc<double>& terrain, double origin_x,
                          double origin_y, const std::vector<double>& state) {
  if (static_cast<int>(state.size()) != kStateSize) throw Error("pgs_vehicle_energy: not a pgs vehicle state");
  std::vector<double> work = state;
  offset_positions(work.data(), 1.0);
  const pgs::Strided<double> s{work.data(), 1, 0};
  const double g = p.ce.gravity;
  double energy = 0.0;
  for (int i = 0; i < kBodies; ++i) {
    const BodyMotion<double> b = body_motion(s, i);
    const pgs::Body<double>& body = p.bodies[i];
    const V w_body = mul_transpose(b.R, b.w);
    energy += 0.5 * body.mass * dot(b.v, b.v) +
              0.5 * (body.inertia.x * w_body.x * w_body.x + body.inertia.y * w_body.y * w_body.y +
                     body.inertia.z * w_body.z * w_body.z) +
              body.mass * g * b.x.z;
  }
  const BodyMotion<double> chassis = body_motion(s, kChassisBody);
  for (int c = 0; c < kCorners; ++c) {
    const LineElement<double> spring = line_element(chassis, p.spring_on_chassis[c],
                                                    body_motion(s, corner_body(c, kLcaBody)), p.spring_on_lca[c]);
    energy += ce_spring_energy(p.ce.axle[c / 2], spring.length);
    const BodyMotion<double> wheel = body_motion(s, corner_body(c, kWheelBody));
    const TireContacts<double> contacts = tire_contacts(terrain, wheel.x, origin_x, origin_y, wheel.R.col(1),
                                                        p.ce.tire.unloaded_radius, tire_half_width(p.ce.tire));
    energy += tire_potential(p.ce.tire, contacts.primary.penetration) +
              tire_potential(p.ce.tire, contacts.secondary.penetration);
  }
  return energy;
}

PgsChassisMotion pgs_vehicle_chassis_motion(const PgsVehicleParams<double>& p, const double* state) {
  const pgs::Strided<double> s{const_cast<double*>(state), 1, 0};
  const BodyMotion<double> chassis = body_motion(s, kChassisBody);
  PgsChassisMotion m;
  m.com = chassis.x;
  m.velocity = chassis.v;
  m.rotation = chassis_rotation(p, chassis.R);
  m.omega_body = mul_transpose(m.rotation, chassis.w);
  for (int c = 0; c < kCorners; ++c) {
    const BodyMotion<double> wheel = body_motion(s, corner_body(c, kWheelBody));
    m.wheel_spin[c] = dot(wheel.R.col(1), wheel.w - body_motion(s, corner_body(c, kUprightBody)).w);
  }
  return m;
}

PgsCornerAngles pgs_vehicle_corner_angles(const PgsVehicleParams<double>& p, const std::vector<double>& state, int corner) {
  if (static_cast<int>(state.size()) != kStateSize) throw Error("pgs_vehicle_corner_angles: not a pgs vehicle state");
  if (corner < 0 || corner >= kCorners) throw Error("pgs_vehicle_corner_angles: corner out of range");
  const pgs::Strided<double> s{const_cast<double*>(state.data()), 1, 0};
  const Mat3<double> chassis_body = pgs::load_pose(s, kChassisBody).rotation;
  const Mat3<double> chassis = chassis_rotation(p, chassis_body);
  const V axis = mul_transpose(chassis, pgs::load_pose(s, corner_body(corner, kWheelBody)).rotation.col(1));
  const double side = p.ce.corner[corner].side;
  const Mat3<double> lca = pgs::load_pose(s, corner_body(corner, kLcaBody)).rotation;
  const V lca_axis = chassis_body * p.lca_axis_on_chassis[corner];
  return {std::asin(-side * axis.z), std::atan2(side * axis.x, axis.y),
          relative_angle(lca_axis, chassis_body * p.lca_ref_on_chassis[corner], lca * p.lca_ref_on_lca[corner])};
}

}  // namespace fleetdyn
