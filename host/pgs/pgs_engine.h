// The pgs backends behind PgsBatch: the state lives in the backend (host vectors or device
// memory), component-major with stride = system_count (physics/pgs/layout.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/pgs/pgs_model.h"

namespace fleetdyn {

// The per-system arrays of a pgs batch, written once: X(element, name). The CUDA engine's
// device copies, uploads and downloads are generated from it (kernels/pgs_cuda.cu).
#define FLEETDYN_PGS_SYSTEM_ARRAYS(X)      \
  X(T, state)        /* [state_size][n] */ \
  X(int, status)     /* [n] */             \
  X(int, iterations) /* [n] */             \
  X(T, report)       /* [kReportFieldCount][n] */

template <class T>
struct PgsHostArrays {
#define FLEETDYN_PGS_HOST_ARRAY(E, name) std::vector<E> name;
  FLEETDYN_PGS_SYSTEM_ARRAYS(FLEETDYN_PGS_HOST_ARRAY)
#undef FLEETDYN_PGS_HOST_ARRAY
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
