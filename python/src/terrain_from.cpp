// A Python terrain description (None or a dict with 'type' and that type's keys) as a TerrainSpec,
// with the key, value and allowed range of any error.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common.h"
#include "fleetdyn/physics/core/math.h"

namespace fleetdyn {
namespace py_bindings {

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
  std::vector<std::string> allowed = {"type", "base_height", "mu_scale"};
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
    allowed.insert(allowed.end(), {"heights", "dx", "dy", "x0", "y0"});
  } else {
    throw py::value_error("terrain: unknown type '" + kind + "' (known: flat, plane, hill, heightfield)");
  }
  for (auto item : d) {
    const auto key = item.first.cast<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string known;
      for (const auto& a : allowed) known += (known.empty() ? "" : ", ") + a;
      throw py::value_error("terrain (" + kind + "): unknown key '" + key + "' (known: " + known + ")");
    }
  }
  return spec;
}

}  // namespace py_bindings
}  // namespace fleetdyn
