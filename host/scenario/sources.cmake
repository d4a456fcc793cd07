# Scenario files: YAML parsing, drivers, the batch a scenario describes, its JSON echo.
fleetdyn_folder_sources(HOST
  heightfield_file.cpp scenario.cpp scenario_batch.cpp scenario_driver.cpp scenario_json.cpp vehicle_file.cpp
  yaml_input.cpp)
