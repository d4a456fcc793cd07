# Extra tests of the Monte Carlo studies (issue 5); included from tests/CMakeLists.txt inside
# the FLEETDYN_BUILD_CLI block (link fleetdyn_host).
