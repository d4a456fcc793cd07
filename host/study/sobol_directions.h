// Sobol direction numbers (Joe & Kuo 2008, new-joe-kuo-6.21201), expanded to 64 bits.
#pragma once

#include <cstdint>

namespace fleetdyn::study {

// Dimensions the embedded table covers (dimension 0 = van der Corput, then Joe & Kuo's d = 2 .. 1024).
constexpr int kSobolMaxDimensions = 1024;

// v[b] is the direction number for index bit b (b = 0 .. 63), left-aligned in 64 bits: the k-th
// direction number v_k = m_k / 2^k of Bratley & Fox (ACM TOMS 14 (1988) 88-100) is v[k-1] / 2^64.
// m_1 .. m_s come from the table; later ones follow the recurrence of the primitive polynomial
// x^s + a_1 x^(s-1) + ... + a_{s-1} x + 1 (Joe & Kuo's sobol.cc). Throws fleetdyn::Error when
// dimension is outside [0, kSobolMaxDimensions).
void sobol_direction_numbers(int dimension, uint64_t v[64]);

}  // namespace fleetdyn::study
