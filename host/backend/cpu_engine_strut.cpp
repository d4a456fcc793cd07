// The CPU engine of the strut model (host/backend/cpu_engine_impl.h).
#include "host/backend/cpu_engine_impl.h"
#include "host/strut/strut_lanes.h"  // LaneRunner<StrutModel>: the SIMD path

namespace fleetdyn {

template std::unique_ptr<Engine<StrutModel, float>> make_cpu_engine<StrutModel, float>(int, bool);
template std::unique_ptr<Engine<StrutModel, double>> make_cpu_engine<StrutModel, double>(int, bool);

}  // namespace fleetdyn
