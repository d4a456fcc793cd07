# Sources of the pgs model (maximal coordinates, projected Gauss-Seidel; issue 4), appended to
# the fleetdyn library's FLEETDYN_LIB_SOURCES (CUDA files only when FLEETDYN_HAS_CUDA).
