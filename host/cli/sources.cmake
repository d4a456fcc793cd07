# The command-line jobs (run, bench, params, kinematics); main.cpp is the fleetdyn program itself.
list(APPEND FLEETDYN_HOST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/bench_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kinematics_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/params_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_job.cpp)
