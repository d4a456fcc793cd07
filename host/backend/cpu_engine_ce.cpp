// The CPU engine of the ce model (host/backend/cpu_engine_impl.h).
#include "host/backend/cpu_engine_impl.h"

namespace fleetdyn {

template std::unique_ptr<Engine<CeModel, float>> make_cpu_engine<CeModel, float>(int, bool);
template std::unique_ptr<Engine<CeModel, double>> make_cpu_engine<CeModel, double>(int, bool);

}  // namespace fleetdyn
