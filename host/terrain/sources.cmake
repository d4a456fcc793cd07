# Terrain synthesis (ISO 8608 rough roads).
list(APPEND FLEETDYN_LIB_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/rough_road.cpp)
