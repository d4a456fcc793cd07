# The strut model on the host: preset, parameter table and checks, linkage curves, step analysis.
fleetdyn_folder_sources(LIB strut_linkage.cpp strut_params.cpp strut_step_analysis.cpp)
