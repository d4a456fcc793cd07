# The CUDA kernels and engines (built when nvcc is found; host/*/ has each one's stand-in).
if(FLEETDYN_HAS_CUDA)
  fleetdyn_folder_sources(LIB batch_reduce.cu ce_validate.cu cuda_engine.cu env_kernels.cu pgs_cuda.cu pgs_validate.cu
                          pgs_vehicle_kernel.cu)
endif()
