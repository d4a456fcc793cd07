// The CPU engine of the pgs model (host/backend/cpu_engine_impl.h).
#include "host/backend/cpu_engine_impl.h"
#include "host/pgs/pgs_vehicle_lanes.h"  // LaneRunner<PgsVehicleModel>: the SIMD path

namespace fleetdyn {

template std::unique_ptr<Engine<PgsVehicleModel, float>> make_cpu_engine<PgsVehicleModel, float>(int, bool);
template std::unique_ptr<Engine<PgsVehicleModel, double>> make_cpu_engine<PgsVehicleModel, double>(int, bool);

}  // namespace fleetdyn
