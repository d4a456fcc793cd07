// CPU backend: a fixed pool of threads, each stepping a contiguous slice of the vehicles with
// the same per-vehicle routine the CUDA kernel calls (strut: optionally its SIMD lane form). Static slices keep results
// independent of scheduling (and of the thread count: each vehicle's arithmetic is its own).
#pragma once

#include <memory>
#include <string>

#include "host/batch/batch_storage.h"

namespace fleetdyn {

// simd: step strut vehicles in SIMD lanes (host/strut/strut_lanes.h); ce has no lane form and ignores it.
template <class Model, class T>
std::unique_ptr<Engine<Model, T>> make_cpu_engine(int threads, bool simd);

}  // namespace fleetdyn
