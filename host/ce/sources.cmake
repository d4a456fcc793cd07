# The ce model on the host: suspension design, parameters, rest state, step analysis, env support.
list(APPEND FLEETDYN_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/ce_env.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ce_initial.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ce_param_fields.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ce_params.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ce_step_analysis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ce_strut_equivalent.cpp
  ${CMAKE_CURRENT_LIST_DIR}/suspension_design.cpp)
