// Stepping allocates nothing (no per-step heap allocation), whatever the batch size and
// thread count: this program replaces the global operator new with a counting one.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "fleetdyn/batch.h"
#include "fleetdyn/vehicle.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace fleetdyn {
namespace {

TEST(StepAllocation, SteppingAllocatesNothing) {
  for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
    for (int vehicles : {1, 64}) {  // 64: all CPU threads take part
      BatchOptions options;
      options.backend = BackendKind::Cpu;
      options.precision = precision;
      Batch batch({hmmwv_params()}, vehicles, TerrainSpec{}, options);
      InitialCondition ic;
      ic.speed = 10.0;
      batch.set_initial_conditions({ic});
      batch.set_maneuvers({{{0.0, 0.0, 0.2, 0.0}, {1.0, 0.3, 0.2, 0.0}}});
      batch.step(1);  // first call outside the count
      const long before = g_allocations.load();
      for (int k = 0; k < 200; ++k) batch.step(1);
      batch.step(500);
      EXPECT_EQ(g_allocations.load() - before, 0) << precision_name(precision) << ", " << vehicles << " vehicles";
      EXPECT_EQ(batch.status()[0], kStatusRunning);
    }
  }
}

}  // namespace
}  // namespace fleetdyn
