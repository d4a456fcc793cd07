# Tests of the pgs solver and vehicle (issue 4); included from tests/CMakeLists.txt.
# Eigen (header-only) for the host-side references: the seed 003 direct solve, the LCP
# enumeration of seed 002 and the random problems' reference velocities.
foreach(pgs_test test_pgs_point_to_point test_pgs_tether_lcp test_pgs_suspension test_pgs_random_lcp
                 test_pgs_joints test_pgs_contact test_pgs_status test_pgs_backends test_pgs_convergence
                 test_pgs_vehicle test_pgs_limits)
  fleetdyn_add_test(${pgs_test})
  target_include_directories(${pgs_test} SYSTEM PRIVATE $<TARGET_PROPERTY:Eigen3::Eigen,INTERFACE_INCLUDE_DIRECTORIES>)
endforeach()
