// Single-source physics: every per-vehicle routine is compiled for the host and, under nvcc,
// for the device. FLEETDYN_HD expands to `__host__ __device__` only when nvcc compiles.
#pragma once

#if defined(__CUDACC__)
#define FLEETDYN_HD __host__ __device__
#define FLEETDYN_FORCEINLINE __forceinline__
#else
#define FLEETDYN_HD
#define FLEETDYN_FORCEINLINE inline
#endif

#define FLEETDYN_FN FLEETDYN_HD FLEETDYN_FORCEINLINE

// Inlined on the host too: small functions of an inner loop whose values must stay in registers
// (the pgs sweeps, where a SIMD lane value passed through memory costs more than the arithmetic).
#if defined(__CUDACC__)
#define FLEETDYN_INLINE_FN FLEETDYN_HD __forceinline__
#else
#define FLEETDYN_INLINE_FN inline __attribute__((always_inline))
#endif
