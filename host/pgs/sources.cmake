# The pgs model on the host: the solver's model building, its batch and CPU engine, the vehicle.
list(APPEND FLEETDYN_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/pgs_batch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pgs_cpu_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pgs_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pgs_vehicle.cpp)
if(NOT FLEETDYN_HAS_CUDA)  # the CUDA engine is in kernels/ when nvcc is found
  list(APPEND FLEETDYN_LIB_SOURCES ${CMAKE_CURRENT_LIST_DIR}/pgs_cuda_unavailable.cpp)
endif()
