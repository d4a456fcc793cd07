// Batch::summary on the device (kernels/batch_reduce.cu): Thrust reductions, sorts and selections
// of a CUDA engine's metric and status buffers, on its stream, without downloading them.
#pragma once

#include <cuda_runtime.h>

#include "host/batch/batch_summary.h"

namespace fleetdyn {

// metrics: [kMetricCount][plan.vehicle_count] and status: [plan.vehicle_count], device memory.
// Enqueued on `stream` after the work already there; returns when the summary is on the host.
template <class T>
BatchSummary summarize_device(const T* metrics, const int* status, const SummaryPlan& plan, cudaStream_t stream);

}  // namespace fleetdyn
