# The ce model on the host: suspension design, parameters, rest state, step analysis, env support.
fleetdyn_folder_sources(LIB
  ce_env.cpp ce_initial.cpp ce_param_fields.cpp ce_params.cpp ce_step_analysis.cpp
  ce_strut_equivalent.cpp suspension_design.cpp)
