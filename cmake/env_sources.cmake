# Sources of the vector environment (issue 6), appended to the fleetdyn library's
# FLEETDYN_LIB_SOURCES (CUDA files only when FLEETDYN_HAS_CUDA).
list(APPEND FLEETDYN_LIB_SOURCES host/env/vector_env.cpp host/env/env_config.cpp host/ce/ce_env.cpp host/env/env_cpu_engine.cpp host/rough_road.cpp)
if(FLEETDYN_HAS_CUDA)
  list(APPEND FLEETDYN_LIB_SOURCES kernels/env_kernels.cu)
else()
  list(APPEND FLEETDYN_LIB_SOURCES host/env/env_cuda_unavailable.cpp)
endif()
