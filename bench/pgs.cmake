# Benchmarks of the pgs solver and vehicle (issue 4); included from bench/CMakeLists.txt.
# fleetdyn_bench_pgs: Google Benchmark over the seed problems' batches (CPU).
add_executable(fleetdyn_bench_pgs ${CMAKE_CURRENT_SOURCE_DIR}/bench_pgs.cpp)
target_link_libraries(fleetdyn_bench_pgs PRIVATE fleetdyn benchmark::benchmark)
target_include_directories(fleetdyn_bench_pgs PRIVATE ${PROJECT_SOURCE_DIR})
fleetdyn_warnings(fleetdyn_bench_pgs)
