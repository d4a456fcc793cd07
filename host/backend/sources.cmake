# Backends: the CPU engine (threads, SIMD lanes) and, without CUDA, the CUDA stand-in that says why.
list(APPEND FLEETDYN_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/cpu_engine_ce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cpu_engine_pgs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cpu_engine_strut.cpp
  ${CMAKE_CURRENT_LIST_DIR}/thread_pool.cpp)
if(NOT FLEETDYN_HAS_CUDA)  # the CUDA engine is in kernels/ when nvcc is found
  list(APPEND FLEETDYN_LIB_SOURCES ${CMAKE_CURRENT_LIST_DIR}/cuda_unavailable.cpp)
endif()
