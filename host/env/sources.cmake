# The vector environment: configuration, checks, CPU engine.
fleetdyn_folder_sources(LIB env_config.cpp env_cpu_engine.cpp vector_env.cpp)
if(NOT FLEETDYN_HAS_CUDA)  # the CUDA engine is in kernels/ when nvcc is found
  fleetdyn_folder_sources(LIB env_cuda_unavailable.cpp)
endif()
