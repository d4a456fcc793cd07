# Scenario and vehicle files: YAML parsing, drivers, the batch a scenario describes, its JSON echo,
# vehicle definitions from fleetdyn YAML and Chrono::Vehicle JSON.
fleetdyn_folder_sources(HOST
  chrono_vehicle.cpp heightfield_file.cpp scenario.cpp scenario_batch.cpp scenario_driver.cpp scenario_json.cpp
  vehicle_file.cpp yaml_input.cpp)
