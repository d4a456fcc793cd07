# Scenario files: YAML parsing, drivers, the batch a scenario describes, its JSON echo.
fleetdyn_folder_sources(HOST
  chrono_vehicle.cpp heightfield_file.cpp scenario.cpp scenario_batch.cpp scenario_driver.cpp scenario_json.cpp yaml_input.cpp)
