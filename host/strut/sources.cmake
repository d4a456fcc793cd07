# The strut model on the host: preset, parameter table and checks, linkage curves, step analysis.
list(APPEND FLEETDYN_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/strut_linkage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/strut_params.cpp
  ${CMAKE_CURRENT_LIST_DIR}/strut_step_analysis.cpp)
