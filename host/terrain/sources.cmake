# Terrain synthesis (ISO 8608 rough roads).
fleetdyn_folder_sources(LIB rough_road.cpp)
