// Steps a small batch through the installed library; exits non-zero if anything is off.
#include <fleetdyn/batch.h>
#include <fleetdyn/vehicle.h>

#include <cstdio>

int main() {
  fleetdyn::Batch batch({fleetdyn::hmmwv_params()}, 8, fleetdyn::TerrainSpec{});
  fleetdyn::InitialCondition start;
  start.speed = 10.0;
  batch.set_initial_conditions({start});
  batch.step(200);
  const auto snapshots = batch.snapshots();
  std::printf("consumer: %s on %s, vehicle 0 at x = %.3f m\n", fleetdyn::backend_name(batch.backend()),
              batch.device_name().c_str(), snapshots[0].position[0]);
  // 0.2 s at ~10 m/s: about 2 m travelled, still running.
  return (snapshots[0].status == fleetdyn::kStatusRunning && snapshots[0].position[0] > 1.5 && snapshots[0].position[0] < 2.5)
             ? 0
             : 1;
}
