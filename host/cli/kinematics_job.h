// `fleetdyn kinematics [--preset hmmwv | --vehicle FILE] [--from M --to M --step M] [--steer RAD] [--out FILE]
// [--plot]`: the ce model's suspension kinematics per corner over wheel travel, as CSV
//   corner,travel_m,camber_deg,toe_in_deg,wheel_x_m,wheel_y_m,wheel_z_m,spring_length_m,shock_length_m,motion_ratio
// one row per corner (FL, FR, RL, RR, in that order) and travel (from, from + step, ..., to).
// The conventions (travel, signs, motion ratio) are in kinematics_help() and the .cpp.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace fleetdyn {

struct KinematicsOptions {
  std::string preset = "hmmwv";        // suspension design (kinematics_preset_names())
  std::optional<std::string> vehicle;  // a vehicle file's suspension instead of the preset
  double from = -0.12, to = 0.12;      // [m] wheel travel range, + = bump
  double step = 0.01;                  // [m]
  double steer = 0.0;                  // [rad] Pitman arm rotation from centre, + = turn left
  std::optional<std::string> out;      // CSV file (parent folders created); stdout without it
  bool plot = false;                   // also write an SVG plot: `out` with extension .svg
};

// Writes the CSV to `out` (or to options.out, then one line naming the files to `out`); errors
// go to `err` as one line. Never throws; returns kExitOk, kExitBadInput (options, unknown
// preset, unreachable travel; nothing is written) or kExitFailure (a file cannot be written).
int kinematics_command(const KinematicsOptions& options, std::ostream& out, std::ostream& err);

// The presets `--preset` accepts.
std::vector<std::string> kinematics_preset_names();

// The conventions of the columns, for the command's --help.
const char* kinematics_help();

}  // namespace fleetdyn
