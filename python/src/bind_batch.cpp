// fleetdyn.Batch: the plain simulation API (include/fleetdyn/batch.h) over numpy.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <filesystem>

#include "common.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/driver.h"
#include "fleetdyn/error.h"
#include "fleetdyn/pgs_vehicle.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/metrics.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/vehicle_models.h"

#ifdef FLEETDYN_PY_HAVE_SCENARIOS
#include "host/scenario/scenario.h"
#endif

namespace fleetdyn {
namespace py_bindings {
namespace {

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names = {
#define FLEETDYN_METRIC_NAME(name, unit, doc) #name,
      FLEETDYN_METRIC_FIELDS(FLEETDYN_METRIC_NAME)
#undef FLEETDYN_METRIC_NAME
  };
  return names;
}

// Per-vehicle parameter sets from what the user passed: None (the preset), one parameter
// object, a list of them, or a dict {name: value or array of n} applied to the preset.
template <class P, class PtrFn, class FinalizeFn>
std::vector<P> params_from(const py::object& params, int n, const P& preset, PtrFn ptr_of, FinalizeFn finalize,
                           const char* class_name) {
  std::vector<P> out;
  if (params.is_none()) {
    out.push_back(preset);
  } else if (py::isinstance<P>(params)) {
    out.push_back(params.cast<P>());
  } else if (py::isinstance<py::dict>(params)) {
    auto d = params.cast<py::dict>();
    size_t count = 1;
    std::vector<std::pair<std::string, std::vector<double>>> values;
    for (auto item : d) {
      const auto name = key_name(item.first, "params");
      P probe = preset;
      if (!ptr_of(probe, name)) {
        throw py::key_error("unknown parameter '" + name + "' (fleetdyn." +
                            (std::string(class_name) == "StrutParams" ? "vehicle_param_fields" : "ce_param_fields") +
                            "() lists the names)");
      }
      values.emplace_back(name, scalar_or_array(item.second, n, ("params['" + name + "']").c_str()));
      if (values.back().second.size() > 1) count = static_cast<size_t>(n);
    }
    out.assign(count, preset);
    for (size_t v = 0; v < count; ++v)
      for (const auto& [name, vals] : values) *ptr_of(out[v], name) = vals[vals.size() == 1 ? 0 : v];
  } else {
    const std::string expected = std::string("params: expected None, a dict of overrides, a ") + class_name +
                                 " or a list of them";
    if (!py::isinstance<py::list>(params) && !py::isinstance<py::tuple>(params)) {
      throw py::type_error(expected + ", got " + describe(params));
    }
    for (auto item : params) {
      if (!py::isinstance<P>(item)) throw py::type_error(expected + ", got a list holding " + describe(item));
      out.push_back(item.cast<P>());
    }
    if (out.empty()) {
      throw py::value_error(std::string("params: an empty list; expected 1 or num_vehicles (") + std::to_string(n) +
                            ") " + class_name + " objects");
    }
  }
  for (auto& p : out) finalize(p);
  return out;
}

// pgs: the solver settings as a dict with the keys of a scenario's `pgs:` section
// (docs/models/pgs.md), checked here so a bad value raises ValueError / TypeError naming its key.
PgsVehicleDef pgs_solver_from(const py::object& pgs) {
  PgsVehicleDef def;
  if (pgs.is_none()) return def;
  if (!py::isinstance<py::dict>(pgs)) throw py::type_error("pgs: expected a dict of solver settings or None");
  const std::vector<std::string> known = {"iterations", "baumgarte", "warm_start", "wheel_contact", "friction_cone"};
  auto text = [](const py::handle& v, const std::string& what, const std::vector<std::string>& allowed) {
    const auto t = text_from(v, what);
    if (std::find(allowed.begin(), allowed.end(), t) == allowed.end()) {
      throw py::value_error(what + ": unknown value '" + t + "' (known: " + allowed[0] + ", " + allowed[1] + ")");
    }
    return t;
  };
  auto unit_number = [](const py::handle& v, const std::string& what) {
    const double x = number_from(v, what);
    if (!(x >= 0.0 && x <= 1.0)) throw py::value_error(what + ": " + std::string(py::repr(v)) + " is outside [0, 1]");
    return x;
  };
  bool cone_given = false;
  for (auto item : pgs.cast<py::dict>()) {
    const auto key = key_name(item.first, "pgs");
    const std::string what = "pgs['" + key + "']";
    const py::handle v = item.second;
    if (key == "iterations") {
      def.iterations = static_cast<int>(integer_in(v, what, 1, 10000));
    } else if (key == "baumgarte") {
      def.baumgarte = unit_number(v, what);
    } else if (key == "warm_start") {
      def.warm_start = unit_number(v, what);
    } else if (key == "wheel_contact") {
      def.wheel_contact = text(v, what, {"tire", "rows"}) == "rows" ? pgsv::WheelContact::Rows : pgsv::WheelContact::Tire;
    } else if (key == "friction_cone") {
      def.cone = text(v, what, {"circular", "pyramid"}) == "pyramid" ? pgs::FrictionCone::Pyramid : pgs::FrictionCone::Circular;
      cone_given = true;
    } else {
      std::string names;
      for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
      throw py::value_error("pgs: unknown key '" + key + "' (known: " + names + ")");
    }
  }
  // As in scenario files: the tire has no friction rows, so a cone there would be silently ignored.
  if (cone_given && def.wheel_contact != pgsv::WheelContact::Rows) {
    throw py::value_error(
        "pgs['friction_cone']: applies to the rigid wheels' friction rows: give it with wheel_contact='rows'");
  }
  return def;
}

py::dict snapshots_dict(Batch& b) {
  std::vector<VehicleSnapshot> s;
  {
    py::gil_scoped_release nogil;
    s = b.snapshots();
  }
  const auto n = static_cast<py::ssize_t>(s.size());
  py::array_t<double> time(n), position({n, py::ssize_t(3)}), euler({n, py::ssize_t(3)}), velocity({n, py::ssize_t(3)}),
      omega({n, py::ssize_t(3)}), spin({n, py::ssize_t(4)});
  py::array_t<int32_t> status(n);
  auto tt = time.mutable_unchecked<1>();
  auto st = status.mutable_unchecked<1>();
  auto p = position.mutable_unchecked<2>(), e = euler.mutable_unchecked<2>(), vel = velocity.mutable_unchecked<2>(),
       w = omega.mutable_unchecked<2>(), ws = spin.mutable_unchecked<2>();
  for (py::ssize_t v = 0; v < n; ++v) {
    const auto& x = s[static_cast<size_t>(v)];
    tt(v) = x.time;
    st(v) = x.status;
    for (int k = 0; k < 3; ++k) {
      p(v, k) = x.position[k];
      e(v, k) = x.euler[k];
      vel(v, k) = x.velocity[k];
      w(v, k) = x.omega_body[k];
    }
    for (int k = 0; k < 4; ++k) ws(v, k) = x.wheel_spin[k];
  }
  py::dict d;
  d["time"] = time;
  d["status"] = status;
  d["position"] = position;
  d["euler"] = euler;
  d["velocity"] = velocity;
  d["omega_body"] = omega;
  d["wheel_spin"] = spin;
  return d;
}

// "(2, 3)" of an array, for messages.
std::string shape_text(const py::array& a) {
  std::string s = "shape (";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

// One array or a list / tuple of them (as set_maneuvers and set_path_driver take), as a list.
std::vector<py::object> one_or_list(const py::object& value, const std::string& what, const char* expected) {
  auto single = py::array::ensure(value);
  if (single && single.ndim() == 2) return {value};
  if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) {
    throw py::type_error(what + ": expected " + expected + " or a list of them, got " + describe(value));
  }
  std::vector<py::object> list;
  for (auto t : value) list.push_back(py::reinterpret_borrow<py::object>(t));
  return list;
}

#ifdef FLEETDYN_PY_HAVE_SCENARIOS
// A scenario path that exists must be a regular file or a folder (which load_scenario reports):
// the reader reads the whole file, so a device (/dev/zero) or a pipe would never end.
void check_scenario_path(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
      !std::filesystem::is_directory(status)) {
    throw Error(path + ": not a regular file (a device, pipe or socket), not a scenario file");
  }
}
#endif

// A [rows][n] array from a flat vector.
py::array_t<double> rows_array(const std::vector<double>& v, int n) {
  const py::ssize_t cols = n, rows = n > 0 ? static_cast<py::ssize_t>(v.size()) / n : 0;
  return copy_array(v.data(), {rows, cols});
}

Path path_from(const py::handle& obj, bool closed, const std::string& what) {
  const auto a = numeric_array(obj, what);
  if (a.ndim() != 2 || (a.shape(1) != 3 && a.shape(1) != 2)) {
    throw py::value_error(
        what + ": expected an array [points][3] of x, y, speed (or [points][2] of x, y with speed 0), got " + shape_text(a));
  }
  Path p;
  p.closed = closed;
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    p.points.push_back({a.at(i, 0), a.at(i, 1), a.shape(1) == 3 ? a.at(i, 2) : 0.0});
  return p;
}

py::array_t<double> path_array(const Path& p) {
  py::array_t<double> a({static_cast<py::ssize_t>(p.points.size()), py::ssize_t(3)});
  auto m = a.mutable_unchecked<2>();
  for (size_t i = 0; i < p.points.size(); ++i) {
    m(i, 0) = p.points[i].x;
    m(i, 1) = p.points[i].y;
    m(i, 2) = p.points[i].speed;
  }
  return a;
}

}  // namespace

void bind_batch(py::module_& m) {
  m.attr("METRIC_NAMES") = py::tuple(py::cast(metric_names()));

  py::class_<Batch> cls(m, "Batch",
                        "Many vehicles of one model (strut, ce or pgs) stepped together on one backend "
                        "(include/fleetdyn/batch.h). Arrays are numpy; per-vehicle values accept a number (all "
                        "vehicles) or an array of num_vehicles.");
  cls.def(py::init([](int num_vehicles, const std::string& model, const py::object& params, const py::object& terrain,
                      const std::string& backend, const std::string& precision, const py::object& step, int substeps,
                      bool requery_contact, int cpu_threads, bool cpu_simd, const py::object& pgs) {
            const VehicleModel kind = batch_model(model);
            if (num_vehicles > max_vehicles(kind)) {  // before the per-vehicle arrays are built
              throw py::value_error("num_vehicles: " + std::to_string(num_vehicles) + " is above the " + model +
                                    " model's maximum " + std::to_string(max_vehicles(kind)) +
                                    " (the engines index their [field][vehicle] arrays with 32-bit integers)");
            }
            // Before the per-vehicle arrays are built (Batch checks them again).
            if (substeps < 1 || substeps > kMaxSubsteps) {
              throw py::value_error("substeps: " + std::to_string(substeps) + " is outside [1, " +
                                    std::to_string(kMaxSubsteps) + "]");
            }
            if (cpu_threads < 0 || cpu_threads > kMaxCpuThreads) {
              throw py::value_error("cpu_threads: " + std::to_string(cpu_threads) + " is outside [0, " +
                                    std::to_string(kMaxCpuThreads) + "] (0: all hardware threads)");
            }
            const double given_step = step.is_none() ? 0.0 : number_from(step, "step");
            BatchOptions o;
            o.backend = parse_backend(backend);
            o.precision = parse_precision(precision);
            o.substeps = substeps;
            o.requery_contact = requery_contact;
            o.cpu_threads = cpu_threads;
            o.cpu_simd = cpu_simd;
            TerrainSpec t = terrain_from(terrain);
            return with_model(kind, [&](auto host) {
              using Host = decltype(host);
              using P = typename Host::Params;
              if (!Host::kTakesPgsSolver && !pgs.is_none()) {
                throw py::value_error("pgs: solver settings of the pgs model, but model is '" + model + "'");
              }
              // The model's HMMWV, the parameters given, and the model's default step.
              auto p = params_from<P>(
                  params, num_vehicles, Host::preset("hmmwv"),
                  [](P& q, const std::string& n) { return Host::field_ptr(q, n); }, [](P& q) { Host::finalize(q); },
                  Host::kParamsTypeName);
              o.step = step.is_none() ? Host::step_analysis(p[0]).default_step : given_step;
              auto defs = Host::batch_defs(std::move(p), pgs_solver_from(pgs));
              py::gil_scoped_release nogil;
              return Batch(std::move(defs), num_vehicles, std::move(t), o);
            });
          }),
          py::arg("num_vehicles") = 1, py::arg("model") = "strut", py::arg("params") = py::none(),
          py::arg("terrain") = py::none(), py::arg("backend") = "auto", py::arg("precision") = "fp64",
          py::arg("step") = py::none(), py::arg("substeps") = 1, py::arg("requery_contact") = true,
          py::arg("cpu_threads") = 0, py::arg("cpu_simd") = true, py::arg("pgs") = py::none(),
          "params: None (the HMMWV preset of the model), a StrutParams / CeParams (ce and pgs), a list of them (1 "
          "or num_vehicles), or a dict {name: number or array of num_vehicles} of overrides on the preset. terrain: "
          "None (flat) or a dict {'type': 'flat'|'plane'|'hill'|'heightfield', ...}, with 'soil' and 'curb' dicts as "
          "a scenario's terrain.soil and terrain.curb (python/README.md). step: None = the model's default "
          "step. substeps: 1..1000. cpu_threads: 0 (all hardware threads) .. 4096. num_vehicles: at most 2**31 - 1 "
          "values per state field (strut about 44 million vehicles, pgs about 6 million). pgs (model='pgs' only): "
          "None (defaults) or a dict of solver settings, the keys of a scenario's pgs: section: iterations (1..10000, "
          "default 30), baumgarte (0..1, 0.2), warm_start (0..1, 1), wheel_contact "
          "('tire' | 'rows': rigid wheels, flat terrain only), friction_cone ('circular' | 'pyramid', rows only).");
  cls.def_static(
      "from_scenario",
      [](const std::string& path) {
#ifdef FLEETDYN_PY_HAVE_SCENARIOS
        check_scenario_path(path);
        py::gil_scoped_release nogil;
        return scenario_batch(load_scenario(path));
#else
        (void)path;
        throw Error(
            "Batch.from_scenario: this fleetdyn module was built without the scenario reader (fleetdyn_host: "
            "yaml-cpp, nlohmann-json, CLI11; configure with -DFLEETDYN_BUILD_CLI=ON)");
#endif
      },
      py::arg("path"),
      "The batch a scenario file describes (model, vehicles, parameters, terrain, options, initial condition, "
      "driver); step it scenario_info(path)['steps'] times to run the scenario");

  cls.def_property_readonly("num_vehicles", &Batch::vehicle_count)
      .def_property_readonly("model", [](const Batch& b) { return model_name(b.model()); })
      .def_property_readonly("backend", [](const Batch& b) { return backend_name(b.backend()); })
      .def_property_readonly("precision", [](const Batch& b) { return precision_name(b.precision()); })
      .def_property_readonly("device_name", &Batch::device_name)
      .def_property_readonly("state_size", &Batch::state_size)
      .def_property_readonly(
          "step_size", [](const Batch& b) { return b.options().step; }, "[s] the RK4 step")
      .def("params", &Batch::params, py::arg("vehicle"),
           "strut: the vehicle's parameters (a copy); ce and pgs raise fleetdyn.Error (use ce_params)")
      .def("ce_params", &Batch::ce_params, py::arg("vehicle"),
           "ce: the vehicle's parameters (a copy); pgs: the ce vehicle its bodies are built from (with rigid wheels, "
           "its tire 100 times stiffer vertically: pgs_vehicle_rest_params)")
      .def(
          "pgs_settings",
          [](const Batch& b, int vehicle) {
            const PgsVehicleParams<double>& p = b.pgs_params(vehicle);
            const bool rows = p.wheel_contact == static_cast<int>(pgsv::WheelContact::Rows);
            py::dict d;
            d["iterations"] = p.settings.max_iterations;
            d["baumgarte"] = p.settings.baumgarte;
            d["warm_start"] = p.settings.warm_start;
            d["wheel_contact"] = rows ? "rows" : "tire";
            if (rows) d["friction_cone"] = p.settings.cone == pgs::FrictionCone::Pyramid ? "pyramid" : "circular";
            return d;
          },
          py::arg("vehicle"), "pgs only: the solver settings the vehicle runs with (the keys Batch(pgs=...) takes)");

  cls.def(
      "set_initial_conditions",
      [](Batch& b, const py::object& x, const py::object& y, const py::object& yaw, const py::object& speed,
         const py::object& lateral_speed) {
        const int n = b.vehicle_count();
        auto xs = scalar_or_array(x, n, "x"), ys = scalar_or_array(y, n, "y"), yaws = scalar_or_array(yaw, n, "yaw"),
             speeds = scalar_or_array(speed, n, "speed"), laterals = scalar_or_array(lateral_speed, n, "lateral_speed");
        const size_t count = std::max({xs.size(), ys.size(), yaws.size(), speeds.size(), laterals.size()});
        std::vector<InitialCondition> ic(count);
        auto at = [](const std::vector<double>& v, size_t i) { return v[v.size() == 1 ? 0 : i]; };
        for (size_t i = 0; i < count; ++i) ic[i] = {at(xs, i), at(ys, i), at(yaws, i), at(speeds, i), at(laterals, i)};
        py::gil_scoped_release nogil;
        b.set_initial_conditions(ic);
      },
      py::arg("x") = 0.0, py::arg("y") = 0.0, py::arg("yaw") = 0.0, py::arg("speed") = 0.0, py::arg("lateral_speed") = 0.0,
      "Place every vehicle at rest on the terrain at (x, y) heading yaw [rad] rolling at speed [m/s] and sliding "
      "sideways at lateral_speed [m/s] (+ left); resets "
      "time, status and metrics");
  cls.def(
      "set_inputs",
      [](Batch& b, const py::object& steer, const py::object& throttle, const py::object& brake) {
        const int n = b.vehicle_count();
        auto s = scalar_or_array(steer, n, "steer"), t = scalar_or_array(throttle, n, "throttle"),
             k = scalar_or_array(brake, n, "brake");
        const size_t count = std::max({s.size(), t.size(), k.size()});
        std::vector<DriverInput<double>> in(count);
        auto at = [](const std::vector<double>& v, size_t i) { return v[v.size() == 1 ? 0 : i]; };
        for (size_t i = 0; i < count; ++i) in[i] = {at(s, i), at(t, i), at(k, i)};
        b.set_inputs(in);
      },
      py::arg("steer") = 0.0, py::arg("throttle") = 0.0, py::arg("brake") = 0.0,
      "Held inputs (steer [-1, 1], throttle and brake [0, 1]), a number or one per vehicle");
  cls.def(
      "set_maneuvers",
      [](Batch& b, const py::object& tables, const py::object& vehicle_table) {
        const std::vector<py::object> list = one_or_list(tables, "tables",
                                                         "an array [rows][4] of time, steer, throttle, brake");
        std::vector<Maneuver> ms;
        for (size_t k = 0; k < list.size(); ++k) {
          const std::string what = list.size() == 1 && list[0].is(tables) ? "tables"
                                                                          : "tables[" + std::to_string(k) + "]";
          const auto a = numeric_array(list[k], what);
          if (a.ndim() != 2 || a.shape(1) != 4) {
            throw py::value_error("maneuver: expected arrays [rows][4] of time, steer, throttle, brake; " + what +
                                  " has " + shape_text(a));
          }
          Maneuver mv;
          for (py::ssize_t i = 0; i < a.shape(0); ++i) mv.push_back({a.at(i, 0), a.at(i, 1), a.at(i, 2), a.at(i, 3)});
          ms.push_back(std::move(mv));
        }
        b.set_maneuvers(ms, int_list(vehicle_table, "vehicle_table"));
      },
      py::arg("tables"), py::arg("vehicle_table") = py::none(),
      "Open-loop time tables: one array [rows][4] (time, steer, throttle, brake; linear between rows) or a "
      "list of them, vehicle v following tables[vehicle_table[v]]");
  cls.def(
      "set_path_driver",
      [](Batch& b, const py::object& paths, const py::object& vehicle_path, bool closed, const std::string& tracker,
         const py::dict& settings) {
        const std::vector<py::object> list = one_or_list(paths, "paths", "an array [points][3] of x, y, speed");
        std::vector<Path> ps;
        for (size_t k = 0; k < list.size(); ++k) {
          ps.push_back(path_from(list[k], closed,
                                 list.size() == 1 && list[0].is(paths) ? "path" : "paths[" + std::to_string(k) + "]"));
        }
        PathDriverSettings s;
        if (tracker == "pure_pursuit") {
          s.tracker = PathTracker::PurePursuit;
        } else if (tracker == "stanley") {
          s.tracker = PathTracker::Stanley;
        } else {
          throw py::value_error("tracker: unknown '" + tracker + "' (known: pure_pursuit, stanley)");
        }
        for (auto item : settings) {
          const auto key = key_name(item.first, "settings");
          const double v = number_from(item.second, "settings['" + key + "']");
          double* field = nullptr;
          std::string known;
#define FLEETDYN_SETTING_FIELD(name, ...) \
  if (key == #name) field = &s.name;      \
  known += known.empty() ? #name : std::string(", ") + #name;
          FLEETDYN_PATH_DRIVER_SETTINGS(FLEETDYN_SETTING_FIELD)
#undef FLEETDYN_SETTING_FIELD
          if (!field) throw py::value_error("path driver: unknown setting '" + key + "' (known: " + known + ")");
          *field = v;
        }
        b.set_path_driver(ps, int_list(vehicle_path, "vehicle_path"), {s});
      },
      py::arg("paths"), py::arg("vehicle_path") = py::none(), py::kw_only(), py::arg("closed") = false,
      py::arg("tracker") = "pure_pursuit", py::arg("settings") = py::dict(),
      "Closed-loop path following: paths are arrays [points][3] of x, y, target speed (one or a list)");

  cls.def(
         "step",
         [](Batch& b, int n) {
           py::gil_scoped_release nogil;
           b.step(n);
         },
         py::arg("n") = 1, "Advance every running vehicle by n steps (asynchronous on CUDA)")
      .def("synchronize", &Batch::synchronize, py::call_guard<py::gil_scoped_release>())
      .def("snapshots", &snapshots_dict,
           "World-frame state as a dict of arrays: time, status, position [N][3], euler [N][3] (roll, pitch, yaw), "
           "velocity [N][3], omega_body [N][3], wheel_spin [N][4]")
      .def(
          "state", [](Batch& b) { return rows_array(b.state(), b.vehicle_count()); },
          "Raw state [state_size][N] (positions local to each vehicle's origin)")
      .def(
          "origins", [](Batch& b) { return rows_array(b.origins(), b.vehicle_count()); }, "[2][N]")
      .def(
          "metrics",
          [](Batch& b) {
            const auto v = b.metrics();
            const auto n = b.vehicle_count();
            py::dict d;
            for (size_t k = 0; k < metric_names().size(); ++k)
              d[py::str(metric_names()[k])] = copy_array(v.data() + k * n, {n});
            return d;
          },
          "{metric name: array [N]} (fleetdyn.METRIC_NAMES)")
      .def("status",
           [](Batch& b) {
             const auto s = b.status();
             return copy_array(s.data(), {static_cast<py::ssize_t>(s.size())});
           })
      .def("driver_state", [](Batch& b) { return rows_array(b.driver_state(), b.vehicle_count()); })
      .def("time", &Batch::time, py::arg("vehicle"))
      .def("mechanical_energy", &Batch::mechanical_energy, py::arg("vehicle"))
      .def(
          "set_vehicle_state",
          [](Batch& b, int vehicle, const py::object& values) {
            const auto state = numeric_array(values, "state");
            if (state.ndim() != 1) {
              throw py::value_error("state: expected a 1-d array of state_size (" + std::to_string(b.state_size()) +
                                    ") values, got " + shape_text(state));
            }
            for (py::ssize_t k = 0; k < state.size(); ++k) {
              if (!std::isfinite(state.data()[k])) {
                throw py::value_error("state: value " + std::to_string(k) + " is " + std::to_string(state.data()[k]) +
                                      " (the state must be finite)");
              }
            }
            b.set_vehicle_state(vehicle, std::vector<double>(state.data(), state.data() + state.size()));
          },
          py::arg("vehicle"), py::arg("state"));
  bind_summary(cls);

  m.def("metric_names", []() { return metric_names(); });
  m.def(
      "circle_path",
      [](double radius, double speed, int points, double x, double y, double yaw, bool left) {
        const auto check = [](bool ok, const std::string& what, double value, const char* range) {
          if (!ok)
            throw py::value_error("circle_path: " + what + " = " + py::repr(py::float_(value)).cast<std::string>() +
                                  " " + range);
        };
        check(std::isfinite(radius) && radius > 0.0, "radius", radius, "must be finite and positive");
        check(std::isfinite(speed) && speed >= 0.0, "speed", speed, "must be finite and >= 0");
        check(std::isfinite(x), "x", x, "must be finite");
        check(std::isfinite(y), "y", y, "must be finite");
        check(std::isfinite(yaw), "yaw", yaw, "must be finite");
        // At most the points a path may have (host/batch/driver_setup.h).
        if (points < 3 || points > (1 << 24)) {
          throw py::value_error("circle_path: points = " + std::to_string(points) + " is outside [3, " +
                                std::to_string(1 << 24) + "]");
        }
        return path_array(circle_path(radius, speed, points, x, y, yaw, left));
      },
      py::arg("radius"), py::arg("speed"), py::arg("points") = 720, py::arg("x") = 0.0, py::arg("y") = 0.0,
      py::arg("yaw") = 0.0, py::arg("left") = true, "A closed circle path [points][3] (pass closed=True)");
  m.def("scenario_info", [](const std::string& path) {
#ifdef FLEETDYN_PY_HAVE_SCENARIOS
    check_scenario_path(path);
    const Scenario s = load_scenario(path);
    py::dict d;
    d["name"] = s.name;
    d["model"] = s.model;
    d["vehicles"] = s.vehicles;
    d["duration"] = s.duration;
    d["step"] = s.step;
    d["steps"] = scenario_step_count(s);
    d["warnings"] = s.warnings;
    return d;
#else
    (void)path;
    throw Error("scenario_info: this fleetdyn module was built without the scenario reader (fleetdyn_host)");
#endif
  });
}

}  // namespace py_bindings
}  // namespace fleetdyn
