# The CUDA kernels and engines (built when nvcc is found; host/*/ has each one's stand-in).
if(FLEETDYN_HAS_CUDA)
  fleetdyn_folder_sources(LIB batch_reduce.cu ce_validate.cu cuda_engine.cu pgs_cuda.cu pgs_validate.cu)
  # The engines with their kernels (a model's own, kernels/cuda_step_launch.h): one translation unit
  # per (model, precision) of the kinds' list in the header that names them, so a multi-core
  # machine compiles the kinds at once and a change to one model's physics recompiles that model's
  # engines only.
  fleetdyn_cuda_kind_sources(host/batch/batch_storage.h FLEETDYN_BATCH_KINDS kernels/cuda_engine.cuh
                             FLEETDYN_INSTANTIATE_CUDA_ENGINE cuda_engine)
  fleetdyn_cuda_kind_sources(host/env/env_storage.h FLEETDYN_ENV_KINDS kernels/env_engine.cuh
                             FLEETDYN_INSTANTIATE_CUDA_ENV_ENGINE env_engine)
endif()
