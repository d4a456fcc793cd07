# Benchmarks of the vector environment (issue 6); included from bench/CMakeLists.txt.
add_executable(fleetdyn_bench_env bench_env.cpp)
target_link_libraries(fleetdyn_bench_env PRIVATE fleetdyn benchmark::benchmark)
target_include_directories(fleetdyn_bench_env PRIVATE ${PROJECT_SOURCE_DIR})
fleetdyn_warnings(fleetdyn_bench_env)
