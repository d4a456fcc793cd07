// Vehicle parameters by name: fleetdyn.StrutParams (strut, and the part ce shares) and
// fleetdyn.CeParams, readable and settable by the names of FLEETDYN_VEHICLE_PARAM_FIELDS /
// FLEETDYN_CE_PARAM_FIELDS.
#include <cmath>

#include "common.h"
#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/vehicle.h"
#include "fleetdyn/vehicle_definition.h"
#ifdef FLEETDYN_PY_HAVE_SCENARIOS
#include "host/scenario/vehicle_file.h"
#endif

namespace fleetdyn {
namespace py_bindings {
namespace {

std::string known_names(const std::vector<VehicleParamField>& fields) {
  std::string s;
  for (const auto& f : fields) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

const VehicleParamField* find_field(const std::vector<VehicleParamField>& fields, const std::string& name) {
  for (const auto& f : fields)
    if (name == f.name) return &f;
  return nullptr;
}

// Sets one named field after checking its range; KeyError for an unknown name.
template <class P, class PtrFn>
void set_field(P& p, const std::string& name, double value, const std::vector<VehicleParamField>& fields, PtrFn ptr_of,
               const char* what) {
  double* ptr = ptr_of(p, name);
  const VehicleParamField* f = find_field(fields, name);
  if (!ptr || !f)
    throw py::key_error("unknown " + std::string(what) + " '" + name + "' (known: " + known_names(fields) + ")");
  if (!std::isfinite(value) || value < f->min || value > f->max) {
    throw py::value_error(std::string(what) + " '" + name + "' = " + py::str(py::float_(value)).cast<std::string>() +
                          " is outside [" + py::str(py::float_(f->min)).cast<std::string>() + ", " +
                          py::str(py::float_(f->max)).cast<std::string>() + "] " + f->unit);
  }
  *ptr = value;
}

template <class P, class PtrFn>
double get_field(const P& p, const std::string& name, const std::vector<VehicleParamField>& fields, PtrFn ptr_of,
                 const char* what) {
  double* ptr = ptr_of(const_cast<P&>(p), name);
  if (!ptr)
    throw py::key_error("unknown " + std::string(what) + " '" + name + "' (known: " + known_names(fields) + ")");
  return *ptr;
}

py::dict fields_dict(const std::vector<VehicleParamField>& fields) {
  py::dict d;
  for (const auto& f : fields) {
    py::dict row;
    row["unit"] = f.unit;
    row["min"] = f.min;
    row["max"] = f.max;
    row["description"] = f.description;
    d[f.name] = row;
  }
  return d;
}

// The methods both parameter classes share: p[name], p[name] = v, keys(), to_dict(), update(),
// finalize(), copy().
template <class P, class PtrFn, class FinalizeFn>
void add_by_name(py::class_<P>& cls, const std::vector<VehicleParamField>& (*fields_fn)(), PtrFn ptr_of,
                 FinalizeFn finalize, const char* what) {
  cls.def("__getitem__",
          [fields_fn, ptr_of, what](const P& p, const std::string& name) {
            return get_field(p, name, fields_fn(), ptr_of, what);
          })
      .def(
          "__setitem__",
          [fields_fn, ptr_of, what](P& p, const std::string& name, double value) {
            set_field(p, name, value, fields_fn(), ptr_of, what);
          },
          "Set a field (within its range); call finalize() after changing fields (Batch and VectorEnv finalize a copy "
          "themselves)")
      .def("__contains__",
           [ptr_of](const P& p, const std::string& name) { return ptr_of(const_cast<P&>(p), name) != nullptr; })
      .def("keys",
           [fields_fn](const P&) {
             std::vector<std::string> names;
             for (const auto& f : fields_fn()) names.emplace_back(f.name);
             return names;
           })
      .def("to_dict",
           [fields_fn, ptr_of](const P& p) {
             py::dict d;
             for (const auto& f : fields_fn()) d[f.name] = *ptr_of(const_cast<P&>(p), f.name);
             return d;
           })
      .def(
          "update",
          [fields_fn, ptr_of, finalize, what](P& p, const py::dict& values) {
            // All or nothing: a refused name or value, or a set that does not finalize, leaves p as it was.
            P q = p;
            for (auto item : values) {
              const std::string name = key_name(item.first, "update");
              set_field(q, name, number_from(item.second, std::string(what) + " '" + name + "'"), fields_fn(), ptr_of, what);
            }
            finalize(q);
            p = q;
          },
          py::arg("values"), "Set several fields by name, then finalize (all or nothing: on an error p is unchanged)")
      .def(
          "finalize", [finalize](P& p) { finalize(p); },
          "Recompute the derived fields; raises fleetdyn.Error if inconsistent")
      .def("copy", [](const P& p) { return P(p); })
      .def("__copy__", [](const P& p) { return P(p); })
      .def("__deepcopy__", [](const P& p, const py::dict&) { return P(p); });
}

}  // namespace

void bind_params(py::module_& m) {
  using VP = StrutParams<double>;
  auto vp_ptr = [](VP& p, const std::string& name) { return vehicle_param_ptr(p, name); };
  auto vp_finalize = [](VP& p) { finalize_vehicle_params(p); };
  py::class_<VP> vp(m, "StrutParams",
                    "Strut-model vehicle parameters (and the tire/driveline/brakes the ce model shares), by name: "
                    "p['tire.mu'], p['total_mass'] = 2600.0; fleetdyn.vehicle_param_fields() lists the names");
  vp.def(py::init([](const std::string& preset) { return vehicle_preset(preset); }), py::arg("preset") = "hmmwv");
  add_by_name(vp, &vehicle_param_fields, vp_ptr, vp_finalize, "vehicle parameter");
  vp.def("__repr__", [](const VP& p) {
    return "StrutParams(total_mass=" + py::str(py::float_(p.total_mass)).cast<std::string>() +
           ", cg_height=" + py::str(py::float_(p.cg_height)).cast<std::string>() + ", ...)";
  });

  using CP = CeParams<double>;
  auto cp_ptr = [](CP& p, const std::string& name) { return ce_param_ptr(p, name); };
  auto cp_finalize = [](CP& p) { finalize_ce_params(p); };
  py::class_<CP> cp(m, "CeParams", "ce-model vehicle parameters by name (fleetdyn.ce_param_fields() lists the names)");
  cp.def(py::init([]() { return hmmwv_ce_params(); }));
  add_by_name(cp, &ce_param_fields, cp_ptr, cp_finalize, "ce parameter");
  cp.def_property_readonly(
        "total_mass", [](const CP& p) { return ce_total_mass(p); }, "[kg] chassis, bodies and wheels")
      .def(
          "balance_springs_at_design", [](CP& p) { ce_balance_springs_at_design(p); },
          "Set the spring free lengths so the vehicle rests at its design position")
      .def(
          "strut_equivalent", [](const CP& p) { return strut_equivalent_params(p); },
          "The strut model's parameters for the same vehicle")
      .def("__repr__", [](const CP& p) {
        return "CeParams(chassis_mass=" + py::str(py::float_(p.chassis_mass)).cast<std::string>() + ", ...)";
      });

  py::class_<VehicleDefinition> vd(
      m, "VehicleDefinition",
      "A vehicle as a vehicle file describes it (docs/vehicle-files.md): fleetdyn.load_vehicle(path) or "
      "fleetdyn.hmmwv_vehicle(); each model's parameters come from it");
  vd.def_property_readonly("name", [](const VehicleDefinition& v) { return v.name; })
      .def(
          "strut_params", [](const VehicleDefinition& v) { return strut_params_from_definition(v); },
          "The strut model's parameters: the lumped equivalent of the ce model (finalized)")
      .def(
          "ce_params",
          [](const VehicleDefinition& v) {
            CP p = make_ce_params(v);
            finalize_ce_params(p);
            return p;
          },
          "The ce (and pgs) model's parameters (finalized)")
      .def("__repr__", [](const VehicleDefinition& v) { return "VehicleDefinition(name='" + v.name + "')"; });
  m.def("hmmwv_vehicle", &hmmwv_vehicle, "The built-in HMMWV definition (vehicles/hmmwv.yaml)");
  m.def(
      "load_vehicle",
      [](const std::string& path) {
#ifdef FLEETDYN_PY_HAVE_SCENARIOS
        py::gil_scoped_release nogil;
        return load_vehicle_file(path);
#else
        (void)path;
        throw Error(
            "load_vehicle: this fleetdyn module was built without the file readers (fleetdyn_host: yaml-cpp, "
            "nlohmann-json, CLI11; configure with -DFLEETDYN_BUILD_CLI=ON)");
        return VehicleDefinition{};
#endif
      },
      py::arg("path"),
      "Read a vehicle file (fleetdyn YAML, or Chrono::Vehicle JSON for .json): every number checked, the "
      "suspension built once; errors (fleetdyn.Error) name the file, line and field");
  m.def("hmmwv_params", &hmmwv_params, "The strut model's HMMWV preset (finalized)");
  m.def("hmmwv_ce_params", &hmmwv_ce_params, "The ce model's HMMWV preset");
  m.def("vehicle_preset", &vehicle_preset, py::arg("name"), "A strut preset by name (vehicle_preset_names())");
  m.def("vehicle_preset_names", &vehicle_preset_names);
  m.def(
      "vehicle_param_fields", []() { return fields_dict(vehicle_param_fields()); },
      "{name: {unit, min, max, description}} of the strut parameters settable by name");
  m.def(
      "ce_param_fields", []() { return fields_dict(ce_param_fields()); },
      "{name: {unit, min, max, description}} of the ce parameters settable by name");
  m.def("strut_default_step", &strut_default_step, py::arg("params"), "[s] the strut model's default RK4 step");
  m.def(
      "ce_default_step", [](const CP& p) { return ce_step_analysis(p).default_step; }, py::arg("params"),
      "[s] the ce model's default RK4 step");
}

}  // namespace py_bindings
}  // namespace fleetdyn
