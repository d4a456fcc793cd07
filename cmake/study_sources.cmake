# Extra host sources of the Monte Carlo studies (issue 5), appended to FLEETDYN_HOST_SOURCES.
list(APPEND FLEETDYN_HOST_SOURCES host/study/study_events.cpp)
