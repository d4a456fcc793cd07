# The pgs model on the host: the solver's model building, its batch and CPU engine, the vehicle.
fleetdyn_folder_sources(LIB pgs_batch.cpp pgs_cpu_engine.cpp pgs_model.cpp pgs_vehicle.cpp)
if(NOT FLEETDYN_HAS_CUDA)  # the CUDA engine is in kernels/ when nvcc is found
  fleetdyn_folder_sources(LIB pgs_cuda_unavailable.cpp)
endif()
