// Counter-based random numbers: Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC'11; the Random123 library). A number depends only on
// (key, counter), so any vehicle, chunk, thread or GPU thread computes the same value for the same
// arguments, in any order, with no generator state to carry or split.
#pragma once

#include <cstdint>

#include "fleetdyn/physics/core/config.h"

namespace fleetdyn {

namespace philox_detail {

// The Random123 constants: multipliers and the Weyl key increments (golden ratio, sqrt(3) - 1).
constexpr uint32_t kM0 = 0xD2511F53u;
constexpr uint32_t kM1 = 0xCD9E8D57u;
constexpr uint32_t kW0 = 0x9E3779B9u;
constexpr uint32_t kW1 = 0xBB67AE85u;

FLEETDYN_FN void mulhilo32(uint32_t a, uint32_t b, uint32_t* hi, uint32_t* lo) {
  const uint64_t product = static_cast<uint64_t>(a) * static_cast<uint64_t>(b);
  *hi = static_cast<uint32_t>(product >> 32);
  *lo = static_cast<uint32_t>(product);
}

}  // namespace philox_detail

// Philox4x32 with 10 rounds: out = the 128-bit block cipher of `counter` under `key`.
// Round order as in Random123 philox.h: round, then bump the key before each later round.
FLEETDYN_FN void philox4x32_10(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t c0 = counter[0], c1 = counter[1], c2 = counter[2], c3 = counter[3];
  uint32_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += philox_detail::kW0;
      k1 += philox_detail::kW1;
    }
    uint32_t hi0, lo0, hi1, lo1;
    philox_detail::mulhilo32(philox_detail::kM0, c0, &hi0, &lo0);
    philox_detail::mulhilo32(philox_detail::kM1, c2, &hi1, &lo1);
    const uint32_t n0 = hi1 ^ c1 ^ k0;
    const uint32_t n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

// 64 random bits for (seed, index, dim, stream): the key is the seed, the 128-bit counter is
// (index, dim, stream), so distinct arguments never share a Philox block.
FLEETDYN_FN uint64_t counter_bits64(uint64_t seed, uint64_t index, uint32_t dim, uint32_t stream = 0) {
  const uint32_t counter[4] = {static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), dim, stream};
  const uint32_t key[2] = {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
  uint32_t out[4];
  philox4x32_10(counter, key, out);
  return (static_cast<uint64_t>(out[0]) << 32) | out[1];
}

// Maps the top 53 bits k of `bits` to k / 2^53, in (0, 1) open: every k > 0 gives an exact double in
// [2^-53, 1 - 2^-53]; k = 0 (probability 2^-53) gives 2^-54 instead of 0, so inverse CDFs never see
// 0 or 1. ((k + 0.5) / 2^53 would round to 1.0 for the largest k.)
FLEETDYN_FN double bits_to_open_unit(uint64_t bits) {
  const uint64_t k = bits >> 11;
  const double two_m53 = 1.0 / 9007199254740992.0;  // 2^-53
  return k == 0 ? 0.5 * two_m53 : static_cast<double>(k) * two_m53;
}

// A uniform double in (0, 1) with 53 random bits, keyed by (seed, stream), counted by (index, dim).
// The same arguments give the same number on every backend. `stream` separates independent uses
// (sampling, rough-road phases, RL resets); the study library keeps streams >= 0xF0000000 for itself
// (host/study/sampling.h).
FLEETDYN_FN double counter_uniform(uint64_t seed, uint64_t index, uint32_t dim, uint32_t stream = 0) {
  return bits_to_open_unit(counter_bits64(seed, index, dim, stream));
}

}  // namespace fleetdyn
