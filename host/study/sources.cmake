# Monte Carlo studies: sampling, sharding, events, statistics, files and the report.
fleetdyn_folder_sources(HOST
  process_group.cpp report.cpp report_aggregates.cpp sample_setup.cpp samples_file.cpp sampling.cpp
  sobol_directions.cpp statistics.cpp study_events.cpp study_job.cpp study_parse.cpp study_summary.cpp
  trajectories_h5.cpp worst_cases.cpp)
