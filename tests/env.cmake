# Tests of the vector environment (issue 6); included from tests/CMakeLists.txt.
fleetdyn_add_test(test_vector_env)
fleetdyn_add_test(test_rough_road)
