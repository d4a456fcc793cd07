# Tests of the pgs solver and vehicle (issue 4); included from tests/CMakeLists.txt.
