# Backends: the CPU engine (threads, SIMD lanes) and, without CUDA, the CUDA stand-in that says why.
fleetdyn_folder_sources(LIB cpu_engine_ce.cpp cpu_engine_pgs.cpp cpu_engine_strut.cpp thread_pool.cpp)
if(NOT FLEETDYN_HAS_CUDA)  # the CUDA engine is in kernels/ when nvcc is found
  fleetdyn_folder_sources(LIB cuda_unavailable.cpp)
endif()
