# Scenario files: YAML parsing, drivers, the batch a scenario describes, its JSON echo.
list(APPEND FLEETDYN_HOST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario_batch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario_driver.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/yaml_input.cpp)
