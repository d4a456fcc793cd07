# Extra tests of the Monte Carlo studies (issue 5); included from tests/CMakeLists.txt inside
# the FLEETDYN_BUILD_CLI block (link fleetdyn_host).
fleetdyn_add_test(test_study_roads)
target_link_libraries(test_study_roads PRIVATE fleetdyn_host)
fleetdyn_add_test(test_study_events)
target_link_libraries(test_study_events PRIVATE fleetdyn_host)
