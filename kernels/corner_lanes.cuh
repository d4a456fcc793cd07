// Four lanes per vehicle: the CUDA corner group (physics/core/corner_group.h). Lane k of each
// aligned group of four lanes of a warp holds corner k of one vehicle; the corners' values meet
// through warp shuffles within those four lanes, never through memory, so a vehicle's result does
// not depend on the other vehicles of its warp or block.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "fleetdyn/physics/core/corner_group.h"

namespace fleetdyn {

struct CornerLane {
  static constexpr int kCount = 1;
  int lane;       // the corner this lane holds, 0 .. 3: its index in its group of four
  unsigned mask;  // the group's four lanes in the warp

  // The lane of thread `thread_in_block` (blocks are whole warps, so groups never straddle one).
  __device__ static CornerLane of_thread(int thread_in_block) {
    return {thread_in_block & (kCorners - 1), 0xFu << (thread_in_block & 31 & ~(kCorners - 1))};
  }

  __device__ int corner(int) const { return lane; }

  // The butterfly: after the xor-1 step lanes 0, 1 hold c0 + c1 (lane 1 as c1 + c0, the same
  // bits) and lanes 2, 3 hold c2 + c3; after the xor-2 step every lane holds (c0 + c1) + (c2 + c3),
  // AllCorners' order.
  template <class V>
  __device__ V sum(const V (&part)[1]) const {
    V a = part[0];
    a = a + shuffle_xor(a, 1);
    a = a + shuffle_xor(a, 2);
    return a;
  }

  // Slot 0 holds this lane's value; afterwards v[c] is corner c's.
  template <class V>
  __device__ void share(V (&v)[kCorners]) const {
    const V mine = v[0];
    for (int c = 0; c < kCorners; ++c) v[c] = shuffle_from(mine, c);
  }

  __device__ bool all(bool ok) const { return __all_sync(mask, ok) != 0; }
  __device__ bool leader() const { return lane == 0; }
  __device__ void sync() const { __syncwarp(mask); }  // orders the lanes' memory accesses too

 private:
  // A value made of 32-bit words (every scalar struct of float or double), shuffled word by word
  // with `shuffle(word)`.
  template <class V, class Shuffle>
  __device__ static V shuffle_words(const V& v, Shuffle shuffle) {
    static_assert(sizeof(V) % sizeof(unsigned) == 0, "shuffled values are made of 32-bit words");
    V out;
    const unsigned* from = reinterpret_cast<const unsigned*>(&v);
    unsigned* to = reinterpret_cast<unsigned*>(&out);
#pragma unroll
    for (int w = 0; w < int(sizeof(V) / sizeof(unsigned)); ++w) to[w] = shuffle(from[w]);
    return out;
  }
  template <class V>
  __device__ V shuffle_xor(const V& v, int lane_mask) const {
    return shuffle_words(v, [&](unsigned w) { return __shfl_xor_sync(mask, w, lane_mask, kCorners); });
  }
  template <class V>
  __device__ V shuffle_from(const V& v, int source) const {
    return shuffle_words(v, [&](unsigned w) { return __shfl_sync(mask, w, source, kCorners); });
  }
};

// Whether a model runs four lanes per vehicle: its traits give the split layout of a corner group.
template <class Model, class = void>
struct HasCornerLanes : std::false_type {};
template <class Model>
struct HasCornerLanes<Model, std::void_t<decltype(Model::kChassisSize)>> : std::true_type {};

}  // namespace fleetdyn
