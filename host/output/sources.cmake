# Result files, progress display and SVG plots.
list(APPEND FLEETDYN_HOST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/output_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/progress.cpp
  ${CMAKE_CURRENT_LIST_DIR}/svg_plot.cpp)
