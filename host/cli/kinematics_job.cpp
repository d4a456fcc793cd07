// `fleetdyn kinematics`: suspension kinematics curves of the ce model per corner.
//
// Decisions (also in kinematics_help(), shown by --help):
// - Travel is the wheel-centre height change from the design position [m], + = bump. Each travel
//   becomes the LCA angle that reaches it at the given steering angle (lca_angle_for_travel), and
//   every column of the row is evaluated at that angle (corner_kinematics), so the travel column
//   is exact and the curves are what the ce model sees.
// - --steer is the ce model's steering angle: Pitman arm rotation from centre [rad], + turns the
//   vehicle left; at most 1.5 x the preset's maximum (a little past the stops, for studies).
// - motion_ratio = spring compression per unit wheel travel, -(dL_spring/dtheta) / (dz_wheel/dtheta)
//   from the analytic rates, positive when the spring shortens in bump.
// - Rows: travel = from + i step (no accumulated round-off), up to `to` (kept when within
//   step 1e-9 of it), at most 100000 per corner; corners in the order FL, FR, RL, RR.
// - Numbers are printed shortest-round-trip (std::to_chars), angles in degrees.
#include "host/cli/kinematics_job.h"

#include <unistd.h>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fleetdyn/error.h"
#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/suspension.h"
#include "host/cli/run_job.h"
#include "host/output/svg_plot.h"
#include "host/scenario/vehicle_file.h"

namespace fleetdyn {

namespace {

namespace fs = std::filesystem;

constexpr double kRadToDeg = 180.0 / kPi;
constexpr long kMaxRowsPerCorner = 100000;
constexpr const char* kHeader =
    "corner,travel_m,camber_deg,toe_in_deg,wheel_x_m,wheel_y_m,wheel_z_m,spring_length_m,shock_length_m,motion_ratio";

struct Preset {
  const char* name;
  SuspensionDesign (*design)();
};
const Preset kPresets[] = {{"hmmwv", hmmwv_suspension_design}};

struct Row {
  int corner;
  double travel, camber_deg, toe_in_deg;
  Vec3<double> wheel;
  double spring_length, shock_length, motion_ratio;
};

// Shortest text that reads back to the same double.
std::string num(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string known_presets() {
  std::string s;
  for (const Preset& p : kPresets) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

// Validates the options that do not need the design; returns a message, or "" if fine.
std::string check_range(const KinematicsOptions& o, long& rows_per_corner) {
  if (!std::isfinite(o.from) || !std::isfinite(o.to) || !std::isfinite(o.step)) {
    return "--from, --to and --step must be finite numbers (got " + num(o.from) + ", " + num(o.to) + ", " +
           num(o.step) + ")";
  }
  if (!(o.step > 0.0)) return "--step must be > 0 (got " + num(o.step) + " m)";
  if (!(o.from < o.to)) return "--from must be less than --to (got " + num(o.from) + " >= " + num(o.to) + ")";
  const double intervals = std::floor((o.to - o.from) / o.step + 1e-9);  // `to` kept when within step 1e-9
  if (!(intervals + 1.0 <= static_cast<double>(kMaxRowsPerCorner))) {
    return "too many rows: (" + num(o.to) + " - " + num(o.from) + ") / " + num(o.step) + " gives " + num(intervals + 1.0) +
           " travels per corner (at most " + std::to_string(kMaxRowsPerCorner) + "); use a larger --step";
  }
  rows_per_corner = static_cast<long>(intervals) + 1;
  return "";
}

std::vector<Row> evaluate(const CeSuspension<double>& s, const KinematicsOptions& o, long rows_per_corner) {
  std::vector<Row> rows;
  rows.reserve(static_cast<size_t>(rows_per_corner) * kCorners);
  for (int c = 0; c < kCorners; ++c) {
    const double side = s.corner[c].side;
    for (long i = 0; i < rows_per_corner; ++i) {
      // Snapped to 1e-12 m so the grid prints as typed (0, -0.1), not 6.9e-18 or -0.09999999999999999.
      const double travel = std::round((o.from + static_cast<double>(i) * o.step) * 1e12) / 1e12;
      double lca_angle;
      try {
        lca_angle = lca_angle_for_travel(s, c, travel, o.steer);
      } catch (const Error&) {  // its message prints the travel with 6 decimals; say it exactly
        throw Error(std::string("corner ") + corner_name(c) + ": wheel travel " + num(travel) + " m at steering " +
                    num(o.steer) + " rad is outside the reach of the linkage; narrow --from/--to");
      }
      const CornerKinematics k = corner_kinematics(s, c, lca_angle, o.steer);
      Row r;
      r.corner = c;
      r.travel = travel;
      r.camber_deg = camber_angle(k.pose, side) * kRadToDeg;
      r.toe_in_deg = toe_in_angle(k.pose, side) * kRadToDeg;
      r.wheel = k.pose.wheel_centre;
      r.spring_length = k.pose.spring_length;
      r.shock_length = k.pose.shock_length;
      r.motion_ratio = -(k.per_lca_rate.spring_rate / k.per_lca_rate.wheel_centre_vel.z);
      rows.push_back(r);
    }
  }
  return rows;
}

std::string csv_text(const std::vector<Row>& rows) {
  std::string s = std::string(kHeader) + "\n";
  for (const Row& r : rows) {
    s += std::string(corner_name(r.corner)) + "," + num(r.travel) + "," + num(r.camber_deg) + "," + num(r.toe_in_deg) +
         "," + num(r.wheel.x) + "," + num(r.wheel.y) + "," + num(r.wheel.z) + "," + num(r.spring_length) + "," +
         num(r.shock_length) + "," + num(r.motion_ratio) + "\n";
  }
  return s;
}

std::string svg_text(const std::vector<Row>& rows, const KinematicsOptions& o) {
  static const char* const kColours[kCorners] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"};
  struct Column {
    const char* title;
    const char* y_label;
    double (*value)(const Row&);
  };
  const Column columns[] = {
      {"Camber", "camber [deg] (+ = top outward)", [](const Row& r) { return r.camber_deg; }},
      {"Toe", "toe-in [deg] (+ = toe-in)", [](const Row& r) { return r.toe_in_deg; }},
      {"Spring length", "spring length [mm]", [](const Row& r) { return r.spring_length * 1e3; }},
      {"Motion ratio", "motion ratio [-] (spring / wheel travel)", [](const Row& r) { return r.motion_ratio; }},
  };
  LineChart chart;
  const std::string label = o.vehicle ? "vehicle " + *o.vehicle : "preset " + o.preset;
  char title[400];
  std::snprintf(title, sizeof title, "Suspension kinematics: %s, steering %.4g rad (%.3g deg)", label.c_str(), o.steer,
                o.steer * kRadToDeg);
  chart.title = title;
  for (const Column& col : columns) {
    PlotPanel panel;
    panel.title = std::string(col.title) + " vs wheel travel";
    panel.x_label = "wheel travel [mm] (+ = bump)";
    panel.y_label = col.y_label;
    for (int c = 0; c < kCorners; ++c) {
      PlotSeries series;
      series.label = corner_name(c);
      series.colour = kColours[c];
      series.dashed = c % 2 == 1;  // right side dashed: symmetric curves lie on the left side's
      for (const Row& r : rows) {
        if (r.corner != c) continue;
        series.x.push_back(r.travel * 1e3);
        series.y.push_back(col.value(r));
      }
      panel.series.push_back(std::move(series));
    }
    chart.panels.push_back(std::move(panel));
  }
  std::ostringstream s;
  write_svg_line_chart(s, chart);
  return s.str();
}

// Writes `text` to `path` under a temporary name and renames it into place (no half files),
// creating the parent folders. Throws Error naming the file.
void write_file(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (!path.parent_path().empty()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw Error("cannot create the folder of '" + path.string() + "': " + ec.message());
  }
  const fs::path temp = path.parent_path() / ("." + path.filename().string() + ".tmp." + std::to_string(::getpid()));
  {
    std::ofstream f(temp, std::ios::binary);
    f << text;
    f.close();
    if (!f) {
      fs::remove(temp, ec);
      throw Error("cannot write '" + path.string() + "'");
    }
  }
  fs::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw Error("cannot write '" + path.string() + "': " + ec.message());
  }
}

}  // namespace

std::vector<std::string> kinematics_preset_names() {
  std::vector<std::string> names;
  for (const Preset& p : kPresets) names.push_back(p.name);
  return names;
}

const char* kinematics_help() {
  return "Kinematics conventions:\n"
         "  travel_m      wheel-centre height change from the design position [m], + = bump. Each travel is\n"
         "                turned into the LCA angle that reaches it at the steering angle\n"
         "                (lca_angle_for_travel); every column of the row is evaluated at that angle.\n"
         "  --steer RAD   the ce model's steering angle: Pitman arm rotation from centre [rad], + turns the\n"
         "                vehicle left; |RAD| <= 1.5 x the preset's maximum steering angle.\n"
         "  camber_deg    + = top of the wheel outward.  toe_in_deg: + = front of the wheel inward\n"
         "                (includes the steer angle on the front wheels).\n"
         "  wheel_*_m     wheel centre in the chassis frame (x forward, y left, z up) [m].\n"
         "  motion_ratio  spring length change per unit wheel travel, + when the spring compresses in bump:\n"
         "                -(spring rate / wheel-centre vertical rate) from the analytic kinematics.\n"
         "Rows: travel = from + i*step up to `to` (at most 100000 per corner), corners FL, FR, RL, RR.\n"
         "Numbers are printed shortest round-trip; angles in degrees. --plot writes FILE with extension\n"
         ".svg beside the CSV (camber, toe-in, spring length and motion ratio vs travel).\n";
}

int kinematics_command(const KinematicsOptions& o, std::ostream& out, std::ostream& err) {
  const char* prefix = "fleetdyn kinematics: ";
  try {
    const Preset* preset = nullptr;
    for (const Preset& p : kPresets) {
      if (o.preset == p.name) preset = &p;
    }
    if (!preset && !o.vehicle) {
      err << prefix << "unknown preset '" << o.preset << "' (known: " << known_presets() << ")\n";
      return kExitBadInput;
    }
    long rows_per_corner = 0;
    const std::string range_error = check_range(o, rows_per_corner);
    if (!range_error.empty()) {
      err << prefix << range_error << "\n";
      return kExitBadInput;
    }
    SuspensionDesign design;
    try {
      design = o.vehicle ? suspension_design(load_vehicle_file(*o.vehicle)) : preset->design();
    } catch (const Error& e) {  // a bad vehicle file: its file, line and field
      err << prefix << e.what() << "\n";
      return kExitBadInput;
    }
    const std::string label = o.vehicle ? "vehicle " + *o.vehicle : "preset " + o.preset;
    const double steer_limit = 1.5 * design.steering.max_angle;
    if (!std::isfinite(o.steer)) {
      err << prefix << "--steer must be a finite number (got " << num(o.steer) << ")\n";
      return kExitBadInput;
    }
    if (std::fabs(o.steer) > steer_limit) {
      err << prefix << "--steer " << num(o.steer) << " rad is outside +-" << num(steer_limit) << " rad (1.5 x the "
          << label << " maximum steering angle)\n";
      return kExitBadInput;
    }
    fs::path csv_path, svg_path;
    if (o.out) {
      if (o.out->empty()) {
        err << prefix << "--out needs a file name\n";
        return kExitBadInput;
      }
      csv_path = *o.out;
      svg_path = fs::path(*o.out).replace_extension(".svg");
    }
    if (o.plot && !o.out) {
      err << prefix << "--plot needs --out FILE (the plot is written beside the CSV)\n";
      return kExitBadInput;
    }
    if (o.plot && svg_path == csv_path) {
      err << prefix << "--plot would overwrite the CSV '" << csv_path.string() << "'; give --out another extension\n";
      return kExitBadInput;
    }

    const CeSuspension<double> s = make_ce_suspension(design);
    std::vector<Row> rows;
    try {
      rows = evaluate(s, o, rows_per_corner);
    } catch (const Error& e) {
      err << prefix << e.what() << "\n";
      return kExitBadInput;
    }

    const std::string csv = csv_text(rows);
    if (!o.out) {
      out << csv;
      return kExitOk;
    }
    write_file(csv_path, csv);
    out << "wrote " << csv_path.string() << " (" << rows_per_corner << " travels x " << kCorners << " corners)\n";
    if (o.plot) {
      write_file(svg_path, svg_text(rows, o));
      out << "wrote " << svg_path.string() << "\n";
    }
    return kExitOk;
  } catch (const std::exception& e) {
    err << prefix << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace fleetdyn
