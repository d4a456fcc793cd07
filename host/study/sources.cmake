# Monte Carlo studies: sampling, sharding, events, statistics, files and the report.
list(APPEND FLEETDYN_HOST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/process_group.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_aggregates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sample_setup.cpp
  ${CMAKE_CURRENT_LIST_DIR}/samples_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sampling.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sobol_directions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/statistics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/study_events.cpp
  ${CMAKE_CURRENT_LIST_DIR}/study_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/study_parse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/study_summary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trajectories_h5.cpp
  ${CMAKE_CURRENT_LIST_DIR}/worst_cases.cpp)
