#include "host/pgs/pgs_model.h"

#include <cmath>
#include <string>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {
namespace {

using V = Vec3<double>;

std::string vec_text(V v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

bool finite(V v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

void require(bool ok, const std::string& message) {
  if (!ok) throw Error("pgs model: " + message);
}

void require_planar_vector(V v, const std::string& what) {
  require(v.z == 0.0, what + " must lie in the x-y plane for a 2-D model (z = 0), got " + vec_text(v));
}

void require_planar_axis(V v, const std::string& what) {
  require(v.x == 0.0 && v.y == 0.0, what + " must be about z for a 2-D model, got " + vec_text(v));
}

V unit(V v) { return (1.0 / norm(v)) * v; }

Quat<double> conj(Quat<double> q) { return {q.w, -q.x, -q.y, -q.z}; }

// Any unit vector normal to the unit axis a.
V normal_to(V a) {
  const V seed = std::fabs(a.x) < 0.9 ? V{1.0, 0.0, 0.0} : V{0.0, 1.0, 0.0};
  return unit(cross(a, seed));
}

struct Placed {
  V position;
  Quat<double> orientation;
};

Placed placed(const PgsModelDef& model, int body) {
  if (body < 0) return {V{0.0, 0.0, 0.0}, Quat<double>{1.0, 0.0, 0.0, 0.0}};
  const PgsBodyDef& b = model.bodies[static_cast<size_t>(body)];
  V x = b.position;
  if (b.kinematic) x = x + std::sin(b.motion_phase) * b.motion_amplitude;
  return {x, normalized(b.orientation)};
}

V world_point(const PgsModelDef& model, int body, V anchor) {
  const Placed p = placed(model, body);
  return p.position + rotation_matrix(p.orientation) * anchor;
}

}  // namespace

void validate_pgs_model(const PgsModelDef& model, const PgsSolverSettings& settings) {
  require(model.dimension == 2 || model.dimension == 3, "dimension must be 2 or 3, got " + std::to_string(model.dimension));
  const bool planar = model.dimension == 2;
  require(!model.bodies.empty(), "no bodies");
  require(finite(model.gravity), "gravity must be finite");
  if (planar) require_planar_vector(model.gravity, "gravity");
  const int n = static_cast<int>(model.bodies.size());
  for (int i = 0; i < n; ++i) {
    const PgsBodyDef& b = model.bodies[static_cast<size_t>(i)];
    const std::string name = "body " + std::to_string(i);
    if (!b.kinematic) {
      require(b.mass > 0.0 && std::isfinite(b.mass), name + ": mass must be > 0 and finite, got " + std::to_string(b.mass));
      if (planar) {
        require(b.inertia.z > 0.0 && std::isfinite(b.inertia.z), name + ": inertia.z must be > 0 for a 2-D body");
      } else {
        require(b.inertia.x > 0.0 && b.inertia.y > 0.0 && b.inertia.z > 0.0 && finite(b.inertia),
                name + ": principal inertia must be > 0 and finite, got " + vec_text(b.inertia));
      }
    }
    const Quat<double>& q = b.orientation;
    const double qn = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    require(std::isfinite(qn) && qn > 1e-9, name + ": orientation must be a non-zero quaternion");
    require(finite(b.position) && finite(b.velocity) && finite(b.omega) && finite(b.motion_velocity) &&
                finite(b.motion_amplitude) && std::isfinite(b.motion_frequency) && std::isfinite(b.motion_phase),
            name + ": position, velocities and motion law must be finite");
    if (planar) {
      require_planar_vector(b.position, name + ": position");
      require_planar_vector(b.velocity, name + ": velocity");
      require_planar_vector(b.motion_velocity, name + ": motion_velocity");
      require_planar_vector(b.motion_amplitude, name + ": motion_amplitude");
      require_planar_axis(b.omega, name + ": omega");
      require(q.x == 0.0 && q.y == 0.0, name + ": orientation must be a rotation about z for a 2-D model");
    }
  }
  auto check_body = [n](int body, const std::string& what) {
    require(body >= -1 && body < n,
            what + " = " + std::to_string(body) + " is not a body index (-1 = world, 0.." + std::to_string(n - 1) + ")");
  };
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const PgsJointDef& joint = model.joints[j];
    const std::string name = "joint " + std::to_string(j);
    check_body(joint.body_a, name + ": body_a");
    check_body(joint.body_b, name + ": body_b");
    require(joint.body_a != joint.body_b, name + ": body_a and body_b must differ");
    require(pgs::joint_row_count(joint.kind, model.dimension) > 0,
            name + (joint.kind == pgs::JointKind::HingeLimit ? ": a hinge limit" : ": a universal joint") +
                " needs a 3-D model");
    require(finite(joint.anchor_a) && finite(joint.anchor_b), name + ": anchors must be finite");
    require(norm(joint.axis_a) > 1e-9 && norm(joint.axis_b) > 1e-9 && finite(joint.axis_a) && finite(joint.axis_b),
            name + ": axes must be non-zero");
    require(std::isfinite(joint.length), name + ": length must be finite");
    if (planar) {
      require_planar_vector(joint.anchor_a, name + ": anchor_a");
      require_planar_vector(joint.anchor_b, name + ": anchor_b");
      if (joint.kind == pgs::JointKind::Prismatic) require_planar_vector(joint.axis_a, name + ": slider axis_a");
    }
    if (joint.kind == pgs::JointKind::HingeLimit) {
      require(std::isfinite(joint.lower) && std::isfinite(joint.upper) && joint.lower < joint.upper &&
                  joint.lower > -kPi && joint.upper < kPi,
              name + ": hinge limit needs -pi < lower < upper < pi, got lower = " + std::to_string(joint.lower) +
                  ", upper = " + std::to_string(joint.upper));
      require(joint.stiffness > 0.0 && !std::isnan(joint.stiffness),
              name + ": hinge limit stiffness must be > 0 (infinity: rigid), got " + std::to_string(joint.stiffness));
      require(joint.damping >= 0.0 && std::isfinite(joint.damping),
              name + ": hinge limit damping must be >= 0, got " + std::to_string(joint.damping));
    }
    if (joint.kind == pgs::JointKind::Universal) {
      const Placed pa = placed(model, joint.body_a), pb = placed(model, joint.body_b);
      const double c = dot(rotation_matrix(pa.orientation) * unit(joint.axis_a),
                           rotation_matrix(pb.orientation) * unit(joint.axis_b));
      require(std::fabs(c) < 1e-6,
              name + ": a universal joint's axes must start perpendicular (cos = " + std::to_string(c) + ")");
    }
  }
  require(model.contacts.empty() || model.ground.enabled, "contacts need the ground (ground.enabled)");
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    const PgsContactDef& contact = model.contacts[c];
    const std::string name = "contact " + std::to_string(c);
    require(contact.body >= 0 && contact.body < n,
            name + ": body = " + std::to_string(contact.body) + " is not a body index");
    require(contact.radius >= 0.0 && std::isfinite(contact.radius), name + ": radius must be >= 0");
    require(contact.friction >= 0.0 && std::isfinite(contact.friction), name + ": friction must be >= 0");
    require(contact.restitution >= 0.0 && contact.restitution <= 1.0, name + ": restitution must be in [0, 1]");
    require(finite(contact.offset), name + ": offset must be finite");
    if (planar) require_planar_vector(contact.offset, name + ": offset");
  }
  for (size_t s = 0; s < model.springs.size(); ++s) {
    const PgsSpringDef& sp = model.springs[s];
    const std::string name = "spring " + std::to_string(s);
    check_body(sp.body_a, name + ": body_a");
    check_body(sp.body_b, name + ": body_b");
    require(sp.stiffness >= 0.0 && sp.damping >= 0.0 && std::isfinite(sp.stiffness) && std::isfinite(sp.damping),
            name + ": stiffness and damping must be >= 0");
    require(std::isfinite(sp.rest_length), name + ": rest_length must be finite");
  }
  const PgsGroundDef& g = model.ground;
  require(std::isfinite(g.height) && std::isfinite(g.bump_start) && g.bump_length >= 0.0 &&
              std::isfinite(g.bump_length) && std::isfinite(g.bump_height),
          "ground: height and bump must be finite, bump_length >= 0");
  require(settings.step > 0.0 && std::isfinite(settings.step),
          "settings: step must be > 0, got " + std::to_string(settings.step));
  require(settings.max_iterations >= 1, "settings: max_iterations must be >= 1");
  require(settings.tolerance >= 0.0, "settings: tolerance must be >= 0");
  require(settings.baumgarte >= 0.0 && settings.baumgarte <= 1.0, "settings: baumgarte must be in [0, 1]");
  require(settings.warm_start >= 0.0 && settings.warm_start <= 1.0, "settings: warm_start must be in [0, 1]");
  require(settings.restitution_threshold >= 0.0, "settings: restitution_threshold must be >= 0");
}

std::vector<PgsRowDesc> pgs_row_descs(const PgsModelDef& model) {
  std::vector<PgsRowDesc> rows;
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const PgsJointDef& joint = model.joints[j];
    const int count = pgs::joint_row_count(joint.kind, model.dimension);
    const bool unilateral = joint.kind == pgs::JointKind::Tether || joint.kind == pgs::JointKind::HingeLimit;
    const int kind = unilateral ? pgs::kRowUnilateral : pgs::kRowBilateral;
    for (int k = 0; k < count; ++k) rows.push_back({joint.body_a, joint.body_b, kind, static_cast<int>(j), -1});
  }
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    const int count = pgs::contact_row_count(model.dimension);
    for (int k = 0; k < count; ++k) {
      rows.push_back({-1, model.contacts[c].body, k == 0 ? pgs::kRowUnilateral : pgs::kRowFriction, -1, static_cast<int>(c)});
    }
  }
  return rows;
}

void color_pgs_rows(const std::vector<pgs::RowInfo>& rows, int body_count, std::vector<int>* sweep_order,
                    std::vector<int>* color_begin) {
  std::vector<int> color_of(rows.size(), 0);
  std::vector<std::vector<char>> used;  // used[c][body]: color c has a row on body
  for (size_t r = 0; r < rows.size(); ++r) {
    const int a = rows[r].body_a, b = rows[r].body_b;
    size_t c = 0;
    while (c < used.size() && ((a >= 0 && used[c][static_cast<size_t>(a)]) || (b >= 0 && used[c][static_cast<size_t>(b)])))
      ++c;
    if (c == used.size()) used.emplace_back(static_cast<size_t>(body_count), 0);
    if (a >= 0) used[c][static_cast<size_t>(a)] = 1;
    if (b >= 0) used[c][static_cast<size_t>(b)] = 1;
    color_of[r] = static_cast<int>(c);
  }
  sweep_order->clear();
  color_begin->assign(1, 0);
  for (size_t c = 0; c < used.size(); ++c) {
    for (size_t r = 0; r < rows.size(); ++r)
      if (color_of[r] == static_cast<int>(c)) sweep_order->push_back(static_cast<int>(r));
    color_begin->push_back(static_cast<int>(sweep_order->size()));
  }
}

template <class T>
pgs::ModelView<T> PgsModelData<T>::view() const {
  pgs::ModelView<T> v{};
  v.bodies = bodies.data();
  v.joints = joints.data();
  v.contacts = contacts.data();
  v.springs = springs.data();
  v.rows = rows.data();
  v.sweep_order = sweep_order.data();
  v.color_begin = color_begin.data();
  v.color_count = static_cast<int>(color_begin.size()) - 1;
  v.body_count = static_cast<int>(bodies.size());
  v.joint_count = static_cast<int>(joints.size());
  v.contact_count = static_cast<int>(contacts.size());
  v.spring_count = static_cast<int>(springs.size());
  v.row_count = static_cast<int>(rows.size());
  v.ground = ground;
  v.settings = settings;
  return v;
}

template <class T>
PgsModelData<T> build_pgs_model(const PgsModelDef& model, const PgsSolverSettings& settings) {
  validate_pgs_model(model, settings);
  auto tv = [](V v) { return Vec3<T>{T(v.x), T(v.y), T(v.z)}; };
  auto tq = [](Quat<double> q) { return Quat<T>{T(q.w), T(q.x), T(q.y), T(q.z)}; };
  const bool planar = model.dimension == 2;
  PgsModelData<T> out;
  for (const PgsBodyDef& b : model.bodies) {
    pgs::Body<T> body{};
    body.kinematic = b.kinematic ? 1 : 0;
    body.mass = b.kinematic ? T(0) : T(b.mass);
    body.inertia = tv(b.inertia);
    body.inv_inertia = b.kinematic ? Vec3<T>{T(0), T(0), T(0)}
                                   : Vec3<T>{planar ? T(0) : T(1.0 / b.inertia.x), planar ? T(0) : T(1.0 / b.inertia.y),
                                             T(1.0 / b.inertia.z)};
    body.motion_origin = tv(b.position);
    body.motion_velocity = tv(b.motion_velocity);
    body.motion_amplitude = tv(b.motion_amplitude);
    body.motion_frequency = T(b.motion_frequency);
    body.motion_phase = T(b.motion_phase);
    out.bodies.push_back(body);
  }
  int row = 0;
  for (const PgsJointDef& def : model.joints) {
    pgs::Joint<T> joint{};
    joint.kind = def.kind;
    joint.body_a = def.body_a;
    joint.body_b = def.body_b;
    joint.anchor_a = tv(def.anchor_a);
    joint.anchor_b = tv(def.anchor_b);
    const V axis_a = unit(def.axis_a);
    joint.axis_a = tv(axis_a);
    joint.axis_b = tv(unit(def.axis_b));
    const V p1 = planar ? unit(cross(V{0.0, 0.0, 1.0}, axis_a)) : normal_to(axis_a);
    joint.perp1_a = tv(p1);
    joint.perp2_a = tv(cross(axis_a, p1));
    const Placed pa = placed(model, def.body_a), pb = placed(model, def.body_b);
    joint.reference = tq(normalized(conj(pa.orientation) * pb.orientation));
    // perp1_a's image in b at the start (the hinge limit's angle 0).
    joint.perp1_b = tv(mul_transpose(rotation_matrix(pb.orientation), rotation_matrix(pa.orientation) * p1));
    joint.lower = T(def.lower);
    joint.upper = T(def.upper);
    joint.compliance = std::isinf(def.stiffness) ? T(0) : T(1.0 / def.stiffness);
    joint.damping = T(def.damping);
    const double initial = norm(world_point(model, def.body_b, def.anchor_b) - world_point(model, def.body_a, def.anchor_a));
    joint.length = T(def.length >= 0.0 ? def.length : initial);
    joint.row_begin = row;
    row += pgs::joint_row_count(def.kind, model.dimension);
    out.joints.push_back(joint);
  }
  for (const PgsContactDef& def : model.contacts) {
    pgs::Contact<T> c{};
    c.body = def.body;
    c.offset = tv(def.offset);
    c.radius = T(def.radius);
    c.friction = T(def.friction);
    c.restitution = T(def.restitution);
    c.row_begin = row;
    row += pgs::contact_row_count(model.dimension);
    out.contacts.push_back(c);
  }
  for (const PgsSpringDef& def : model.springs) {
    pgs::Spring<T> s{};
    s.body_a = def.body_a;
    s.body_b = def.body_b;
    s.anchor_a = tv(def.anchor_a);
    s.anchor_b = tv(def.anchor_b);
    s.stiffness = T(def.stiffness);
    s.damping = T(def.damping);
    const double initial = norm(world_point(model, def.body_b, def.anchor_b) - world_point(model, def.body_a, def.anchor_a));
    s.rest_length = T(def.rest_length >= 0.0 ? def.rest_length : initial);
    out.springs.push_back(s);
  }
  const int joint_count = static_cast<int>(model.joints.size());
  for (const PgsRowDesc& d : pgs_row_descs(model)) {
    pgs::RowInfo info{};
    info.body_a = d.body_a;
    info.body_b = d.body_b;
    info.kind = d.kind;
    info.normal_row = -1;
    info.partner = -1;
    info.source = d.joint >= 0 ? d.joint : joint_count + d.contact;
    out.rows.push_back(info);
  }
  for (const pgs::Contact<T>& c : out.contacts) {
    const int tangents = pgs::contact_row_count(model.dimension) - 1;
    for (int k = 1; k <= tangents; ++k) out.rows[static_cast<size_t>(c.row_begin + k)].normal_row = c.row_begin;
    if (tangents == 2 && settings.cone == pgs::FrictionCone::Circular) {
      out.rows[static_cast<size_t>(c.row_begin + 1)].partner = c.row_begin + 2;
      out.rows[static_cast<size_t>(c.row_begin + 2)].partner = c.row_begin + 1;
    }
  }
  color_pgs_rows(out.rows, static_cast<int>(model.bodies.size()), &out.sweep_order, &out.color_begin);
  out.ground = pgs::Ground<T>{model.ground.enabled ? 1 : 0, T(model.ground.height), T(model.ground.bump_start),
                              T(model.ground.bump_length), T(model.ground.bump_height)};
  pgs::Settings<T>& s = out.settings;
  s.dimension = model.dimension;
  s.step = T(settings.step);
  s.gravity = tv(model.gravity);
  s.max_iterations = settings.max_iterations;
  s.tolerance = T(settings.tolerance);
  s.baumgarte = T(settings.baumgarte);
  s.warm_start = T(settings.warm_start);
  s.cone = settings.cone;
  s.velocity_product_term = settings.velocity_product_term ? 1 : 0;
  s.restitution_threshold = T(settings.restitution_threshold);
  s.colored_sweeps = settings.colored_sweeps ? 1 : 0;
  return out;
}

std::vector<PgsBodyState> pgs_initial_bodies(const PgsModelDef& model) {
  std::vector<PgsBodyState> out;
  for (const PgsBodyDef& b : model.bodies) out.push_back({b.position, normalized(b.orientation), b.velocity, b.omega});
  return out;
}

std::vector<double> pgs_system_state(const PgsModelDef& model, const std::vector<PgsBodyState>& bodies, int row_count,
                                     double time) {
  const int n = static_cast<int>(model.bodies.size());
  if (static_cast<int>(bodies.size()) != n) {
    throw Error("pgs state: " + std::to_string(bodies.size()) + " body states for a model of " + std::to_string(n) +
                " bodies");
  }
  std::vector<double> state(static_cast<size_t>(pgs::state_size(n, row_count)), 0.0);
  for (int i = 0; i < n; ++i) {
    const PgsBodyDef& def = model.bodies[static_cast<size_t>(i)];
    PgsBodyState b = bodies[static_cast<size_t>(i)];
    const std::string name = "pgs state: body " + std::to_string(i);
    if (!finite(b.position) || !finite(b.velocity) || !finite(b.omega)) throw Error(name + " is not finite");
    const double qn = std::sqrt(b.orientation.w * b.orientation.w + b.orientation.x * b.orientation.x +
                                b.orientation.y * b.orientation.y + b.orientation.z * b.orientation.z);
    if (!(qn > 1e-9) || !std::isfinite(qn)) throw Error(name + ": orientation must be a non-zero quaternion");
    b.orientation = normalized(b.orientation);
    if (def.kinematic) {
      const double phase = def.motion_frequency * time + def.motion_phase;
      b.position = def.position + time * def.motion_velocity + std::sin(phase) * def.motion_amplitude;
      b.velocity = def.motion_velocity + (def.motion_frequency * std::cos(phase)) * def.motion_amplitude;
      b.omega = V{0.0, 0.0, 0.0};
      b.orientation = normalized(def.orientation);
    }
    const double values[pgs::kBodyStateSize] = {b.position.x,    b.position.y,    b.position.z,    b.orientation.w,
                                                b.orientation.x, b.orientation.y, b.orientation.z, b.velocity.x,
                                                b.velocity.y,    b.velocity.z,    b.omega.x,       b.omega.y,
                                                b.omega.z};
    for (int k = 0; k < pgs::kBodyStateSize; ++k) state[static_cast<size_t>(pgs::body_field(i, k))] = values[k];
  }
  state[static_cast<size_t>(pgs::time_field(n, row_count))] = time;
  return state;
}

template struct PgsModelData<float>;
template struct PgsModelData<double>;
template PgsModelData<float> build_pgs_model<float>(const PgsModelDef&, const PgsSolverSettings&);
template PgsModelData<double> build_pgs_model<double>(const PgsModelDef&, const PgsSolverSettings&);

}  // namespace fleetdyn
