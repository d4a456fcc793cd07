# The batch API: Batch, its checks, its per-model part and the model registry and dispatch.
fleetdyn_folder_sources(LIB
  batch.cpp batch_checks.cpp batch_summary.cpp batch_vehicles.cpp model_params.cpp rk4_stability.cpp vehicle_common.cpp
  vehicle_models.cpp)
