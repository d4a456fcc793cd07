// The `driver:` section of a scenario: a closed-loop path driver or a programmed steer
// maneuver instead of the open-loop `maneuver` table (fleetdyn/driver.h, docs/design/drivers.md).
//
//   driver:
//     type: path               # path | fishhook | sine_with_dwell | j_turn | step_steer
//     # --- type path: pure pursuit (or Stanley) steering and a PI speed controller
//     path: circle             # circle | iso3888_1 | iso3888_2 | points
//     speed: 8.0               # [m/s] target speed (not for points: each point has its own)
//     radius: 30.0             # circle [m]; left: true (counter-clockwise)
//     vehicle_width: 2.2       # iso3888_2 [m] (the lanes' widths follow from it)
//     points: [[0, 0, 10], [50, 0, 10], [80, 5, 8]]   # points: [x, y, speed] rows; closed: false
//     tracker: pure_pursuit    # pure_pursuit | stanley; also lookahead_base [m], lookahead_gain [s],
//                              # stanley_gain [1/s], stanley_softening [m/s], max_steer_rate [1/s],
//                              # speed_kp [s/m], speed_ki [1/m] (defaults: fleetdyn/driver.h)
//     # --- programs (steer in normalized input units, + = left; coasting unless throttle is set)
//     amplitude: 0.27          # REQUIRED: first steer (sine with dwell: the first half-wave's)
//     rate: 1.41               # [1/s] ramps (fishhook, j_turn, step_steer); default 1
//     start_time: 0.5          # [s]
//     hold: 3.0                # [s] fishhook: countersteer hold (default 3); j_turn/step_steer:
//                              #   hold before returning to 0 (default: to the end)
//     frequency: 0.7           # [Hz] sine_with_dwell;  dwell: 0.5 [s]
//     roll_rate_threshold_deg: 1.5   # [deg/s] fishhook: countersteer once |roll rate| <= this
//     throttle: 0.0            # [0, 1] from start_time; throttle_before: before it; brake: [0, 1]
//
// Paths are laid out from the initial pose: the circle passes through the initial position
// heading along the initial yaw, the ISO lane changes start there and run along it.
#pragma once

#include <string>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/driver.h"

namespace YAML {
class Node;
}

namespace fleetdyn {
namespace yaml_input {
struct Ctx;
}

struct DriverSpec {
  enum class Kind { Table, Path, Program };
  Kind kind = Kind::Table;     // Table: the scenario's `maneuver` table
  std::string type = "table";  // as written
  std::string path_shape;      // circle | iso3888_1 | iso3888_2 | points
  double vehicle_width = 0.0;  // [m] iso3888_2's vehicle_width (0: not given)
  Path path;                   // in world coordinates
  PathDriverSettings settings;
  SteerProgram program;
};

// Parses the section (the initial pose anchors the path). Throws ScenarioError.
DriverSpec parse_driver(const yaml_input::Ctx& ctx, const YAML::Node& node, const InitialCondition& initial);

// Sets the batch's driver: the maneuver table(s) for Kind::Table, else the path driver or the
// steer programs (one per vehicle when `programs` is not empty, else spec.program for all).
void apply_driver(Batch& batch, const DriverSpec& spec, const Maneuver& table, const std::vector<SteerProgram>& programs = {});

}  // namespace fleetdyn
