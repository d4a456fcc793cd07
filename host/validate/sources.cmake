# Checks of the models' solvers against dense direct solves, on the CPU and (kernels/) the GPU.
fleetdyn_folder_sources(LIB ce_validation.cpp pgs_validation.cpp validation_common.cpp)
if(NOT FLEETDYN_HAS_CUDA)  # the device side is in kernels/ when nvcc is found
  fleetdyn_folder_sources(LIB validation_cuda_unavailable.cpp)
endif()
