# The command-line jobs (run, bench, params, kinematics, validate); main.cpp is the fleetdyn program itself.
fleetdyn_folder_sources(HOST bench_job.cpp kinematics_job.cpp params_job.cpp run_job.cpp validate_job.cpp)
