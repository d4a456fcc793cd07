# The batch API: Batch, its checks, its per-model part and the model registry and dispatch.
list(APPEND FLEETDYN_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/batch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/batch_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/batch_vehicles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model_params.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rk4_stability.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vehicle_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vehicle_models.cpp)
