# The vector environment: configuration, checks, CPU engine.
list(APPEND FLEETDYN_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/env_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/env_cpu_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vector_env.cpp)
if(NOT FLEETDYN_HAS_CUDA)  # the CUDA engine is in kernels/ when nvcc is found
  list(APPEND FLEETDYN_LIB_SOURCES ${CMAKE_CURRENT_LIST_DIR}/env_cuda_unavailable.cpp)
endif()
