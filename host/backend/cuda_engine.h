// CUDA backend entry points. Implemented in kernels/cuda_engine.cu and kernels/cuda_engine.cuh (one
// translation unit per model and precision) when the library is built
// with CUDA, and by host/backend/cuda_unavailable.cpp otherwise.
#pragma once

#include <memory>
#include <string>

#include "host/batch/batch_storage.h"

namespace fleetdyn {

// True when a CUDA device can be used; `why` gets the device name or the reason it can't
// ("no CUDA device: ...", "built without CUDA").
bool cuda_device_usable(std::string* why);

// CUDA devices this process sees (0 without CUDA or without a device).
int cuda_device_count();
// Makes `device` the calling thread's current device: the engines created afterwards allocate
// and run there. Throws fleetdyn::Error (no CUDA, or the runtime refuses).
void use_cuda_device(int device);

// Throws fleetdyn::Error when no device is usable.
template <class Model, class T>
std::unique_ptr<Engine<Model, T>> make_cuda_engine();

}  // namespace fleetdyn
