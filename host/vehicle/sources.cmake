# Vehicle definitions: the built-in HMMWV and the strut model's parameters for any definition
# (vehicle files are read by host/scenario/vehicle_file.cpp).
fleetdyn_folder_sources(LIB hmmwv_vehicle.cpp strut_from_definition.cpp)
