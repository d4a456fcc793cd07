# The CUDA kernels and engines (built when nvcc is found; host/*/ has each one's stand-in).
if(FLEETDYN_HAS_CUDA)
  list(APPEND FLEETDYN_LIB_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/cuda_engine.cu
    ${CMAKE_CURRENT_LIST_DIR}/env_kernels.cu
    ${CMAKE_CURRENT_LIST_DIR}/pgs_cuda.cu)
endif()
