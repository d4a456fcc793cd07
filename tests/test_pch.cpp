// The translation unit that compiles the test programs' shared precompiled header
// (tests/CMakeLists.txt, fleetdyn_test_pch); it has no code of its own.
