# Sources of the pgs model (maximal coordinates, projected Gauss-Seidel; issue 4), appended to
# the fleetdyn library's FLEETDYN_LIB_SOURCES (CUDA files only when FLEETDYN_HAS_CUDA).
list(APPEND FLEETDYN_LIB_SOURCES
  host/pgs/pgs_batch.cpp
  host/pgs/pgs_cpu_engine.cpp
  host/pgs/pgs_model.cpp
  host/pgs/pgs_vehicle.cpp)
if(FLEETDYN_HAS_CUDA)
  list(APPEND FLEETDYN_LIB_SOURCES kernels/pgs_cuda.cu)
else()
  list(APPEND FLEETDYN_LIB_SOURCES host/pgs/pgs_cuda_unavailable.cpp)
endif()
