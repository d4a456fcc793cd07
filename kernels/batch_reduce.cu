// Batch::summary on the device with Thrust, on the engine's stream: status counts and per-metric
// moments by transform_reduce, quantiles from the selected values sorted in place, the worst
// vehicles by a stable sort of (value, index) that keeps equal values in vehicle order. Which
// vehicles count is MetricSelection, the code the host reference (host/batch/batch_summary.cpp)
// runs; only the summary comes back to the host.
#include <thrust/copy.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform_reduce.h>

#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "kernels/batch_reduce.h"
#include "kernels/cuda_check.h"

namespace fleetdyn {
namespace {

// Scratch device memory of one summary, allocated and freed in the stream's order where the
// device has memory pools, else by cudaMalloc / cudaFree (which wait for the device).
template <class E>
class StreamArray {
 public:
  StreamArray(size_t size, cudaStream_t stream)
      : stream_(stream), pools_(current_device_attribute(cudaDevAttrMemoryPoolsSupported) != 0) {
    if (!size) return;
    void** out = reinterpret_cast<void**>(&data_);
    if (pools_) {
      FLEETDYN_CUDA_TRY(cudaMallocAsync(out, size * sizeof(E), stream));
    } else {
      FLEETDYN_CUDA_TRY(cudaMalloc(out, size * sizeof(E)));
    }
  }
  ~StreamArray() {
    if (!data_) return;
    if (pools_) {
      cudaFreeAsync(data_, stream_);
    } else {
      cudaFree(data_);
    }
  }
  StreamArray(const StreamArray&) = delete;
  StreamArray& operator=(const StreamArray&) = delete;
  E* data() const { return data_; }

 private:
  E* data_ = nullptr;
  cudaStream_t stream_;
  bool pools_;
};

struct StatusCounts {
  int running, diverged, rolled_over;
};
struct CountStatus {
  __host__ __device__ StatusCounts operator()(int s) const {
    return {s == kStatusRunning ? 1 : 0, s == kStatusDiverged ? 1 : 0, s == kStatusRolledOver ? 1 : 0};
  }
};
struct AddCounts {
  __host__ __device__ StatusCounts operator()(const StatusCounts& a, const StatusCounts& b) const {
    return {a.running + b.running, a.diverged + b.diverged, a.rolled_over + b.rolled_over};
  }
};

// Count, sum (double whatever the batch's precision), min and max of the values that count.
struct Moments {
  long long count;
  double sum, min, max;
};
struct AddMoments {
  __host__ __device__ Moments operator()(const Moments& a, const Moments& b) const {
    if (a.count == 0) return b;
    if (b.count == 0) return a;
    return {a.count + b.count, a.sum + b.sum, b.min < a.min ? b.min : a.min, b.max > a.max ? b.max : a.max};
  }
};

// Vehicle v has a value of the metric whose row this is.
template <class T>
struct HasValue {
  const T* row;
  const int* status;
  MetricSelection counts;
  __host__ __device__ bool operator()(int v) const { return counts(row[v], status[v]); }
};

template <class T>
struct MomentsOf {
  HasValue<T> has;
  __host__ __device__ Moments operator()(int v) const {
    if (!has(v)) return {0, 0.0, 0.0, 0.0};
    const double x = static_cast<double>(has.row[v]);
    return {1, x, x, x};
  }
};

template <class T>
struct Larger {
  __host__ __device__ bool operator()(T a, T b) const { return a > b; }
};

// `doing` names the step under way, for the error message of a failure.
template <class T>
BatchSummary summarize_on(const T* metrics, const int* status, const SummaryPlan& plan, cudaStream_t stream, std::string& doing) {
  const int n = plan.vehicle_count;
  const auto policy = thrust::cuda::par.on(stream);
  const thrust::counting_iterator<int> first(0), last(n);
  BatchSummary s = summary_frame(plan);

  doing = "counting the vehicles' statuses";
  const StatusCounts c = thrust::transform_reduce(policy, status, status + n, CountStatus{}, StatusCounts{0, 0, 0},
                                                  AddCounts{});
  s.running = c.running;
  s.diverged = c.diverged;
  s.rolled_over = c.rolled_over;

  const auto has_value = [&](int m) {
    return HasValue<T>{metrics + static_cast<size_t>(m) * static_cast<size_t>(n), status, metric_selection(m)};
  };
  doing = "allocating the scratch of the quantiles and worst vehicles";
  StreamArray<T> values(plan.quantiles.empty() && plan.worst_count == 0 ? 0 : static_cast<size_t>(n), stream);
  for (MetricSummary& ms : s.metrics) {
    const HasValue<T> has = has_value(ms.metric);
    doing = "reducing metric " + ms.name + " (count, sum, min, max)";
    const Moments mo = thrust::transform_reduce(policy, first, last, MomentsOf<T>{has}, Moments{0, 0.0, 0.0, 0.0},
                                                AddMoments{});
    ms.count = mo.count;
    if (mo.count == 0) continue;
    ms.min = mo.min;
    ms.max = mo.max;
    ms.mean = mo.sum / static_cast<double>(mo.count);
    if (plan.quantiles.empty()) continue;
    // The values that count, sorted; then the two neighbours of each quantile fetched at once.
    doing = "the quantiles of metric " + ms.name + " (select, sort, gather)";
    T* end = thrust::copy_if(policy, has.row, has.row + n, first, values.data(), has);
    thrust::sort(policy, values.data(), end);
    std::vector<int> at;
    std::vector<QuantilePoint> points;
    for (double p : plan.quantiles) {
      points.push_back(quantile_point(mo.count, p));
      at.push_back(static_cast<int>(points.back().below));
      at.push_back(static_cast<int>(points.back().above));
    }
    StreamArray<int> at_device(at.size(), stream);
    StreamArray<T> picked_device(at.size(), stream);
    std::vector<T> picked(at.size());
    FLEETDYN_CUDA_TRY(cudaMemcpyAsync(at_device.data(), at.data(), at.size() * sizeof(int), cudaMemcpyHostToDevice, stream));
    thrust::gather(policy, at_device.data(), at_device.data() + at.size(), values.data(), picked_device.data());
    FLEETDYN_CUDA_TRY(
        cudaMemcpyAsync(picked.data(), picked_device.data(), picked.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream));
    for (size_t k = 0; k < points.size(); ++k) {
      ms.quantiles[k] = quantile_between(static_cast<double>(picked[2 * k]), static_cast<double>(picked[2 * k + 1]),
                                         points[k].t);
    }
  }

  if (plan.worst_count > 0) {
    // The vehicles with a value in index order, then a stable sort by value, largest first.
    const HasValue<T> has = has_value(plan.worst_by);
    doing = "the worst vehicles (select, sort by value)";
    StreamArray<int> vehicles(static_cast<size_t>(n), stream);
    int* vehicles_end = thrust::copy_if(policy, first, last, vehicles.data(), has);
    const int count = static_cast<int>(vehicles_end - vehicles.data());
    thrust::gather(policy, vehicles.data(), vehicles_end, has.row, values.data());
    thrust::stable_sort_by_key(policy, values.data(), values.data() + count, vehicles.data(), Larger<T>{});
    const int worst = count < plan.worst_count ? count : plan.worst_count;
    std::vector<T> worst_values(static_cast<size_t>(worst));
    s.worst_vehicles.resize(static_cast<size_t>(worst));
    if (worst > 0) {
      FLEETDYN_CUDA_TRY(cudaMemcpyAsync(s.worst_vehicles.data(), vehicles.data(), worst * sizeof(int),
                                        cudaMemcpyDeviceToHost, stream));
      FLEETDYN_CUDA_TRY(cudaMemcpyAsync(worst_values.data(), values.data(), worst * sizeof(T), cudaMemcpyDeviceToHost, stream));
    }
    FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream));
    for (T x : worst_values) s.worst_values.push_back(static_cast<double>(x));
  }
  doing = "finishing the summary";
  FLEETDYN_CUDA_TRY(cudaStreamSynchronize(stream));
  return s;
}

}  // namespace

template <class T>
BatchSummary summarize_device(const T* metrics, const int* status, const SummaryPlan& plan, cudaStream_t stream) {
  // Every failure as an Error naming the step: Thrust throws thrust::system_error (a launch) and
  // std::bad_alloc (its temporary storage: thrust::system::detail::bad_alloc).
  std::string doing = "starting";
  const auto failed = [&](const std::string& why) {
    return Error("summary on the device: " + doing + " failed: " + why);
  };
  try {
    return summarize_on(metrics, status, plan, stream, doing);
  } catch (const Error& e) {  // a CUDA call's (FLEETDYN_CUDA_TRY)
    throw failed(e.what());
  } catch (const std::bad_alloc& e) {
    throw failed(std::string("out of memory (") + e.what() + ")");
  } catch (const std::exception& e) {
    throw failed(e.what());
  } catch (...) {
    throw failed("an unknown exception");
  }
}

template BatchSummary summarize_device<float>(const float*, const int*, const SummaryPlan&, cudaStream_t);
template BatchSummary summarize_device<double>(const double*, const int*, const SummaryPlan&, cudaStream_t);

}  // namespace fleetdyn
