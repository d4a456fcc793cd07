# Benchmarks of the pgs solver and vehicle (issue 4); included from bench/CMakeLists.txt.
