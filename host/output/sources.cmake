# Result files, progress display and SVG plots.
fleetdyn_folder_sources(HOST output_files.cpp progress.cpp svg_plot.cpp)
