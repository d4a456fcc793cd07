// Backend agreement for the pgs batch: bit-identical CPU results whatever the thread count and
// batch size; fp32 against fp64 within a stated tolerance; the colored row order (the CUDA warp
// kernel's) against the table order; CUDA, thread and lanes per system, against the CPU (skipped
// without a device). The systems: seed 000's suspension over the bump, each with its own socket height
// offset and initial bar bounce (set_state), so systems differ.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fleetdyn/pgs.h"
#include "host/pgs/pgs_model.h"
#include "host/pgs/pgs_seed_models.h"

namespace fleetdyn {
namespace {

// Seed 000's suspension with its bump moved close, so the short runs here reach it.
PgsModelDef suspension() {
  PgsSeed000Params p;
  p.bump_start = 0.3;
  return pgs_seed000_suspension(p);
}

PgsSolverSettings fixed_sweeps() {
  PgsSolverSettings s;
  s.tolerance = 0.0;  // a fixed sweep count, as on the GPU
  s.max_iterations = 30;
  return s;
}

// System s: bar and wheel start moving up at 0.05 * s m/s (a bounce that differs per system).
void vary(PgsBatch& batch) {
  const auto base = batch.bodies(0);
  for (int s = 0; s < batch.system_count(); ++s) {
    auto b = base;
    b[1].velocity.y = 0.05 * s;
    b[2].velocity.y = 0.05 * s;
    batch.set_state(s, b);
  }
}

std::vector<PgsBodyState> run(int systems, int threads, Precision precision, int pick,
                              BackendKind backend = BackendKind::Cpu, bool colored = false, bool warp = false) {
  PgsSolverSettings settings = fixed_sweeps();
  settings.colored_sweeps = colored;
  PgsBatch batch(suspension(), systems, settings, {backend, precision, threads, warp});
  vary(batch);
  batch.step(600);
  return batch.bodies(pick);
}

bool identical(const std::vector<PgsBodyState>& a, const std::vector<PgsBodyState>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(PgsBodyState)) == 0;
}

double max_difference(const std::vector<PgsBodyState>& a, const std::vector<PgsBodyState>& b) {
  double worst = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, norm(a[i].position - b[i].position));
    worst = std::max(worst, norm(a[i].velocity - b[i].velocity));
  }
  return worst;
}

TEST(PgsBackends, CpuResultsAreBitIdenticalAcrossThreadsAndBatchSizes) {
  const auto one_thread = run(16, 1, Precision::Fp64, 11);
  const auto two_threads = run(16, 2, Precision::Fp64, 11);
  const auto bigger_batch = run(40, 2, Precision::Fp64, 11);
  EXPECT_TRUE(identical(one_thread, two_threads));
  EXPECT_TRUE(identical(one_thread, bigger_batch));
}

TEST(PgsBackends, Fp32AgreesWithFp64) {
  double worst = 0.0;
  for (int pick : {0, 7})
    worst = std::max(worst, max_difference(run(8, 1, Precision::Fp32, pick), run(8, 1, Precision::Fp64, pick)));
  std::printf("fp32 vs fp64 after 0.6 s over the bump: max |dx|, |dv| = %.3e\n", worst);
  // fp32 round-off (~1e-7 relative) on positions of order 1 m, carried by a damped system.
  EXPECT_LT(worst, 1.0e-4);
}

TEST(PgsBackends, RowColorsShareNoBody) {
  // The property the warp kernel's parallel rows rely on, for every model used here.
  PgsModelDef chain;
  chain.ground.enabled = false;
  for (int i = 0; i < 6; ++i) {
    PgsBodyDef b;
    b.position = {0.0, 0.0, -0.1 * i};
    chain.bodies.push_back(b);
    chain.joints.push_back(PgsJointDef{pgs::JointKind::Revolute, i - 1, i});
  }
  for (const PgsModelDef& m : {suspension(), chain}) {
    const PgsModelData<double> data = build_pgs_model<double>(m, {});
    std::vector<int> seen(data.rows.size(), 0);
    for (size_t c = 0; c + 1 < data.color_begin.size(); ++c) {
      std::vector<int> owner(m.bodies.size(), -1);
      for (int i = data.color_begin[c]; i < data.color_begin[c + 1]; ++i) {
        const int r = data.sweep_order[static_cast<size_t>(i)];
        ++seen[static_cast<size_t>(r)];
        for (int body : {data.rows[static_cast<size_t>(r)].body_a, data.rows[static_cast<size_t>(r)].body_b}) {
          if (body < 0) continue;
          EXPECT_EQ(owner[static_cast<size_t>(body)], -1)
              << "color " << c << " rows " << owner[static_cast<size_t>(body)] << " and " << r << " share body " << body;
          owner[static_cast<size_t>(body)] = r;
        }
      }
    }
    for (int count : seen) EXPECT_EQ(count, 1);  // a permutation of the rows
  }
}

TEST(PgsBackends, ColoredOrderConvergesToTheSameMotion) {
  // Converged solves (tolerance 1e-10) in the two row orders: the same step to the tolerance.
  PgsSolverSettings settings;
  settings.tolerance = 1.0e-10;
  settings.max_iterations = 1000;
  PgsBatch plain(suspension(), 1, settings, {BackendKind::Cpu, Precision::Fp64, 1});
  settings.colored_sweeps = true;
  PgsBatch colored(suspension(), 1, settings, {BackendKind::Cpu, Precision::Fp64, 1});
  plain.step(600);
  colored.step(600);
  const double d = max_difference(plain.bodies(0), colored.bodies(0));
  std::printf("colored vs table row order after 0.6 s: max |dx|, |dv| = %.3e\n", d);
  EXPECT_LT(d, 1.0e-7);
  EXPECT_EQ(colored.reports()[0].status, pgs::kStatusOk);
}

TEST(PgsBackends, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  for (int pick : {0, 63}) {
    const double d64 = max_difference(run(64, 0, Precision::Fp64, pick, BackendKind::Cuda), run(64, 1, Precision::Fp64, pick));
    const double d32 = max_difference(run(64, 0, Precision::Fp32, pick, BackendKind::Cuda), run(64, 1, Precision::Fp32, pick));
    std::printf("CUDA vs CPU, system %d: fp64 %.3e, fp32 %.3e\n", pick, d64, d32);
    EXPECT_LT(d64, 1.0e-9);  // FMA contraction differs between the compilers, nothing else
    EXPECT_LT(d32, 1.0e-4);
    // The lanes-per-system kernel sweeps color by color: compare with the CPU's colored order.
    const double w64 = max_difference(run(64, 0, Precision::Fp64, pick, BackendKind::Cuda, true, true),
                                      run(64, 1, Precision::Fp64, pick, BackendKind::Cpu, true));
    std::printf("CUDA lanes per system vs CPU colored, system %d: fp64 %.3e\n", pick, w64);
    EXPECT_LT(w64, 1.0e-9);
  }
}

}  // namespace
}  // namespace fleetdyn
