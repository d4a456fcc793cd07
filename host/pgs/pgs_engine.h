// The pgs backends behind PgsBatch: the state lives in the backend (host vectors or device
// memory), component-major with stride = system_count (physics/pgs/layout.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/pgs/pgs_model.h"

namespace fleetdyn {

template <class T>
struct PgsHostArrays {
  std::vector<T> state;        // [state_size][n]
  std::vector<int> status;     // [n]
  std::vector<int> iterations; // [n]
  std::vector<T> report;       // [kReportFieldCount][n]
};

template <class T>
class PgsEngine {
 public:
  virtual ~PgsEngine() = default;
  // Takes the model (copied) and the initial arrays for n systems.
  virtual void init(const PgsModelData<T>& model, int n, const PgsHostArrays<T>& arrays) = 0;
  virtual void step(int steps) = 0;
  virtual void synchronize() = 0;
  virtual void read(PgsHostArrays<T>* arrays) = 0;
  virtual void write(const PgsHostArrays<T>& arrays) = 0;
  virtual const std::string& device_name() const = 0;
};

template <class T>
std::unique_ptr<PgsEngine<T>> make_pgs_cpu_engine(int threads);

// kernels/pgs_cuda.cu, or host/pgs/pgs_cuda_unavailable.cpp in a build without CUDA (throws).
bool pgs_cuda_device_usable(std::string* why);
template <class T>
std::unique_ptr<PgsEngine<T>> make_pgs_cuda_engine(bool warp_per_system);

}  // namespace fleetdyn
