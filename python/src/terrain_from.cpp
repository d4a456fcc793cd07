// A Python terrain description (None or a dict with 'type' and that type's keys, and a 'soil' and
// 'curb' on it as in scenario files) as a TerrainSpec, with the key, value and allowed range of any
// error.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "common.h"
#include "fleetdyn/physics/core/math.h"
#include "host/scenario/terrain_element_keys.h"

namespace fleetdyn {
namespace py_bindings {

namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// terrain['curb'] or terrain['soil'] (`path`): a dict whose keys are among `allowed`.
py::dict element_dict(const py::object& value, const std::string& path, const std::vector<std::string>& allowed) {
  if (!py::isinstance<py::dict>(value)) throw py::type_error(path + ": expected a dict, got " + describe(value));
  auto d = value.cast<py::dict>();
  for (auto item : d) {
    const std::string key = key_name(item.first, path);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw py::value_error(path + ": unknown key '" + key + "' (known: " + listed(allowed) + ")");
  }
  return d;
}

// The reader of terrain_element_keys.h's number keys from dict d at `path`: false when left out,
// else the value, finite and in the key's range.
auto element_key_reader(const py::dict& d, const std::string& path) {
  return [d, path](const TerrainNumberKey& k, double* value) {
    if (!d.contains(k.name)) {
      if (k.required) {
        std::ostringstream range;
        range << (k.lo_open ? "(" : "[") << k.lo << ", " << k.hi << "] " << k.unit;
        throw py::value_error(path + ": needs '" + k.name + "', a number in " + range.str());
      }
      return false;
    }
    const std::string what = path + "['" + k.name + "']";
    const py::object v = d[k.name];
    if (!std::isfinite(number_from(v, what))) throw py::value_error(what + ": " + describe(v) + " is not finite");
    *value = number_in(v, what, k.lo, k.hi, k.unit, k.lo_open);
    return true;
  };
}

// terrain['curb'] on terrain type `kind`: as a scenario's terrain.curb.
void curb_from(const py::object& value, const std::string& kind, TerrainDesc<double>& t) {
  const std::string path = "terrain['curb']";
  if (!curb_stands_on(t.kind)) {
    throw py::value_error(
        path + ": a curb stands on the base ground of terrain types flat, hill and heightfield, not on " + kind);
  }
  read_curb(t, element_key_reader(element_dict(value, path, curb_key_names()), path));
}

// terrain['soil']: as a scenario's terrain.soil.
void soil_from(const py::object& value, TerrainDesc<double>& t) {
  const std::string path = "terrain['soil']";
  const py::dict d = element_dict(value, path, soil_key_names());
  SoilParams<double> preset = soil_preset<double>(kSoilDefaultPreset);
  if (d.contains("preset")) {
    const std::string name = text_from(d["preset"], path + "['preset']");
    try {
      preset = soil_preset<double>(name);
    } catch (const Error& e) {
      throw py::value_error(path + "['preset']: " + e.what());
    }
  }
  read_soil(t, preset, element_key_reader(d, path));
  try {
    check_terrain_soil(t);
  } catch (const Error& e) {
    throw py::value_error(path + ": " + e.what());
  }
}

}  // namespace

TerrainSpec terrain_from(const py::object& terrain) {
  TerrainSpec spec;
  if (terrain.is_none()) return spec;
  if (!py::isinstance<py::dict>(terrain)) {
    throw py::type_error("terrain: expected None or a dict {'type': 'flat'|'plane'|'hill'|'heightfield', ...}, got " +
                         describe(terrain));
  }
  auto d = terrain.cast<py::dict>();
  for (auto item : d) key_name(item.first, "terrain");
  std::string kind = "flat";
  if (d.contains("type")) {
    const py::object type = d["type"];
    if (!PyUnicode_Check(type.ptr())) {
      throw py::type_error("terrain['type']: expected a string (flat, plane, hill, heightfield), got " + describe(type));
    }
    kind = text_from(type, "terrain['type']");
  }
  // Finite numbers in the ranges a scenario file's terrain allows (host/scenario/scenario.cpp).
  auto get = [&](const char* key, double fallback, double lo, double hi, const char* unit) {
    return d.contains(key) ? number_in(d[key], std::string("terrain['") + key + "']", lo, hi, unit) : fallback;
  };
  auto positive = [&](const char* key, double fallback, double hi, const char* unit) {
    const double x = get(key, fallback, 0.0, hi, unit);
    if (d.contains(key) && !(x > 0.0))
      throw py::value_error(std::string("terrain['") + key + "']: must be positive, got 0");
    return x;
  };
  const double max_grade = deg_to_rad(80.0);  // [rad] 80 degrees
  auto& t = spec.desc;
  t.base_height = get("base_height", 0.0, -1.0e4, 1.0e4, "m");
  t.mu_scale = get("mu_scale", 1.0, 0.0, 10.0, "");
  std::vector<std::string> allowed = {"type", "base_height", "mu_scale", "soil", "curb"};
  if (kind == "flat") {
    t.kind = TerrainKind::Flat;
  } else if (kind == "plane") {
    t.kind = TerrainKind::Plane;
    t.slope = get("slope", 0.0, -max_grade, max_grade, "rad (80 deg)");
    t.bank = get("bank", 0.0, -max_grade, max_grade, "rad (80 deg)");
    allowed.insert(allowed.end(), {"slope", "bank"});
  } else if (kind == "hill") {
    t.kind = TerrainKind::Hill;
    t.hill_x = get("x", 0.0, -1.0e7, 1.0e7, "m");
    t.hill_y = get("y", 0.0, -1.0e7, 1.0e7, "m");
    t.hill_height = get("height", 1.0, -1.0e4, 1.0e4, "m");
    t.hill_radius = positive("radius", 5.0, 1.0e6, "m");
    allowed.insert(allowed.end(), {"x", "y", "height", "radius"});
  } else if (kind == "heightfield") {
    t.kind = TerrainKind::Heightfield;
    if (!d.contains("heights")) throw py::value_error("terrain: heightfield needs 'heights', a 2-d array [ny][nx]");
    const auto h = numeric_array(d["heights"], "terrain['heights']");
    if (h.ndim() != 2) {
      throw py::value_error("terrain['heights']: expected a 2-d array [ny][nx], got " + std::to_string(h.ndim()) +
                            " dimensions");
    }
    for (py::ssize_t k = 0; k < h.size(); ++k) {
      if (!std::isfinite(h.data()[k])) {
        throw py::value_error("terrain['heights']: sample [" + std::to_string(k / h.shape(1)) + "][" +
                              std::to_string(k % h.shape(1)) + "] is " + std::to_string(h.data()[k]) +
                              " (heights must be finite)");
      }
    }
    t.hf_ny = static_cast<int>(h.shape(0));
    t.hf_nx = static_cast<int>(h.shape(1));
    t.hf_dx = positive("dx", 0.0, 1.0e4, "m");
    t.hf_dy = positive("dy", 0.0, 1.0e4, "m");
    t.hf_x0 = get("x0", 0.0, -1.0e7, 1.0e7, "m");
    t.hf_y0 = get("y0", 0.0, -1.0e7, 1.0e7, "m");
    spec.heightfield.assign(h.data(), h.data() + h.size());
    // The tires meet the grid through their envelope along their path (physics/core/tire_contact.h).
    if (d.contains("tire_envelope")) t.hf_envelope = bool_from(d["tire_envelope"], "terrain['tire_envelope']");
    allowed.insert(allowed.end(), {"heights", "dx", "dy", "x0", "y0", "tire_envelope"});
  } else {
    throw py::value_error("terrain: unknown type '" + kind + "' (known: flat, plane, hill, heightfield)");
  }
  for (auto item : d) {
    const auto key = item.first.cast<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      throw py::value_error("terrain (" + kind + "): unknown key '" + key + "' (known: " + listed(allowed) + ")");
    }
  }
  if (d.contains("soil")) soil_from(d["soil"], t);
  if (d.contains("curb")) curb_from(d["curb"], kind, t);
  return spec;
}

}  // namespace py_bindings
}  // namespace fleetdyn
