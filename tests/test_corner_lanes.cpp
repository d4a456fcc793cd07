// The corner-lane form of a vehicle's run and of a vector env's step, the CUDA kernels' mapping (four lanes per vehicle, lane k
// holding corner k, kernels/corner_lanes.cuh), emulated on the CPU: four threads per vehicle run
// the same run_vehicle_steps with the split layout, their per-corner values meeting through a
// barrier where the GPU's lanes shuffle. The group sums in AllCorners' order, so the result must
// be the whole-vehicle path's (the CPU backend's) to the bit: the split layout's load and store,
// the leader's writes, the shared tire loads, the all-corners sanity vote and the sums are
// checked here; the shuffles themselves by the CUDA parity tests. Built with -ffp-contract=off so
// that the two instantiations cannot contract multiply-adds differently.
#include <gtest/gtest.h>

#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/physics/env/env_episode.h"
#include "fleetdyn/vehicle.h"
#include "host/batch/batch_storage.h"
#include "host/batch/convert_scalars.h"
#include "host/batch/typed_batch.h"
#include "host/ce/ce_host.h"
#include "host/env/env_models.h"
#include "host/env/env_storage.h"
#include "host/strut/strut_host.h"
#include "kernels/cuda_mapping.h"

namespace fleetdyn {
namespace {

// Four threads' meeting point: each puts its value in its slot, all read all four.
class Exchange {
 public:
  template <class V>
  void exchange(int lane, const V& mine, V (&all)[kCorners]) {
    static_assert(sizeof(V) <= kSlotBytes, "slot too small");
    std::memcpy(slot_[lane], &mine, sizeof(V));
    barrier();
    for (int c = 0; c < kCorners; ++c) std::memcpy(&all[c], slot_[c], sizeof(V));
    barrier();
  }

 private:
  static constexpr int kSlotBytes = 512;
  void barrier() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long generation = generation_;
    if (++arrived_ == kCorners) {
      arrived_ = 0;
      ++generation_;
      wake_.notify_all();
    } else {
      wake_.wait(lock, [&] { return generation != generation_; });
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  int arrived_ = 0;
  long generation_ = 0;
  alignas(16) unsigned char slot_[kCorners][kSlotBytes];
};

// The corner group of one emulated lane (the interface of physics/core/corner_group.h).
struct ThreadedCornerLane {
  static constexpr int kCount = 1;
  int lane;
  Exchange* meeting;
  int corner(int) const { return lane; }
  template <class V>
  V sum(const V (&part)[1]) const {
    V all[kCorners];
    meeting->exchange(lane, part[0], all);
    return sum_of_corners(all[0], all[1], all[2], all[3]);
  }
  template <class V>
  void share(V (&v)[kCorners]) const {
    const V mine = v[0];
    meeting->exchange(lane, mine, v);
  }
  bool all(bool ok) const {
    int votes[kCorners];
    meeting->exchange(lane, ok ? 1 : 0, votes);
    return votes[0] && votes[1] && votes[2] && votes[3];
  }
  bool leader() const { return lane == 0; }
  void sync() const {
    int ignored[kCorners];
    meeting->exchange(lane, 0, ignored);
  }
};

// A few vehicles of one model on flat ground, each with its own inputs; the last starts so fast
// that its first step is not sane (the sanity vote and the leader's status write).
template <class Model>
BatchStorage<Model, double> make_storage(const typename Model::template Params<double>& p, double step) {
  constexpr int n = 4;
  BatchStorage<Model, double> b;
  b.vehicle_count = n;
  b.terrain = default_terrain_desc<double>();
  b.integrator = IntegratorSettings<double>{step, 1, true};
  b.params = {p};
  b.state.assign(static_cast<size_t>(Model::kStateSize) * n, 0.0);
  b.origin.assign(2 * n, 0.0);
  b.step_count.assign(n, 0);
  b.status.assign(n, kStatusRunning);
  b.metrics.assign(static_cast<size_t>(kMetricCount) * n, 0.0);
  for (int m = 0; m < kMetricCount; ++m) {
    if (typed_batch::starts_at_minus_one(m)) {
      for (int v = 0; v < n; ++v) b.metrics[m * n + v] = -1.0;
    }
  }
  const double steer[n] = {0.0, 0.6, -0.9, 0.2}, throttle[n] = {0.3, 0.0, 0.5, 0.0}, brake[n] = {0.0, 0.4, 0.0, 0.0};
  b.inputs.assign(3 * n, 0.0);
  for (int v = 0; v < n; ++v) {
    std::vector<double> s(Model::kStateSize);
    double ox = 0.0, oy = 0.0, load[kCorners];
    Model::initial_state(p, b.terrain, 3.0 * v, 0.0, 0.1 * v, v == n - 1 ? 2.0e3 : 15.0 + 3.0 * v, s.data(), &ox, &oy, load);
    for (int j = 0; j < Model::kStateSize; ++j) b.state[j * n + v] = s[j];
    b.origin[v] = ox;
    b.origin[n + v] = oy;
    b.inputs[v] = steer[v];
    b.inputs[n + v] = throttle[v];
    b.inputs[2 * n + v] = brake[v];
  }
  return b;
}

template <class Model>
void expect_lanes_match_whole_vehicle(const typename Model::template Params<double>& p, double step, int steps) {
  BatchStorage<Model, double> whole = make_storage<Model>(p, step);
  BatchStorage<Model, double> lanes = whole;
  const BatchView<Model, double> a = whole.view(), b = lanes.view();
  for (int v = 0; v < a.vehicle_count; ++v) {
    run_vehicle_steps<false>(a, a.params[0], v, steps);
    Exchange meeting;
    std::vector<std::thread> threads;
    for (int lane = 0; lane < kCorners; ++lane) {
      threads.emplace_back([&, lane] {
        run_vehicle_steps<false>(b, b.params[0], v, steps, ThreadedCornerLane{lane, &meeting});
      });
    }
    for (std::thread& t : threads) t.join();
  }
  EXPECT_EQ(whole.status, lanes.status);
  EXPECT_EQ(whole.step_count, lanes.step_count);
  EXPECT_EQ(whole.status.back(), kStatusDiverged);
  EXPECT_EQ(whole.step_count[0], steps);
  ASSERT_EQ(whole.state.size(), lanes.state.size());
  EXPECT_EQ(std::memcmp(whole.state.data(), lanes.state.data(), whole.state.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(whole.metrics.data(), lanes.metrics.data(), whole.metrics.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(whole.origin.data(), lanes.origin.data(), whole.origin.size() * sizeof(double)), 0);
  // The runs did something: the turning vehicle rolled.
  EXPECT_GT(whole.metrics[metric::max_abs_roll * a.vehicle_count + 2], 0.01);
}

TEST(CornerLanes, StrutLanesGiveTheWholeVehiclesBits) {
  expect_lanes_match_whole_vehicle<StrutModel>(hmmwv_params(), 1.0e-3, 400);
}

TEST(CornerLanes, CeLanesGiveTheWholeVehiclesBits) {
  expect_lanes_match_whole_vehicle<CeModel>(hmmwv_ce_params(), 2.0e-3, 200);
}

// The vector env's step the same way (the env kernel's mapping: the lanes step the physics, the
// leader finishes the step after the group's sync): four envs on the default path-following
// task with their own actions, 40 env steps, episodes ending (0.15 s time limit) and resetting on
// the way.
template <class Host>
void expect_env_lanes_match_whole_env() {
  using Model = typename Host::Model;
  VectorEnvConfig c;
  c.num_envs = 4;
  c.model = Host::kModel;
  c.seed = 7;
  c.time_limit = 0.15;  // episodes end by the time limit, so the leader's finish path resets envs
  c = env_checks::resolve(c);
  EnvStorage<Model, double> whole;
  whole.config = env_checks::device_config<double>(c);
  whole.terrain = default_terrain_desc<double>();
  whole.integrator = IntegratorSettings<double>{c.physics_step, 1, true};
  whole.base_params = {Host::template to_precision<double>(Host::Env::base(c))};
  whole.allocate(c.num_envs);
  {
    const EnvView<Model, double> v = whole.view();
    for (int e = 0; e < c.num_envs; ++e) env::reset_env(v, e);
  }
  EnvStorage<Model, double> lanes = whole;
  std::vector<float> actions(3 * static_cast<size_t>(c.num_envs));
  int episodes_ended = 0;
  for (int k = 0; k < 40; ++k) {
    for (int e = 0; e < c.num_envs; ++e) {
      actions[3 * e] = static_cast<float>(std::sin(0.3 * k + e));  // steer
      actions[3 * e + 1] = e % 2 ? 0.8f : 0.2f;                    // throttle
      actions[3 * e + 2] = k % 13 == 0 ? 0.5f : 0.0f;              // brake
    }
    EnvView<Model, double> a = whole.view(), b = lanes.view();
    a.actions = actions.data();
    b.actions = actions.data();
    for (int e = 0; e < c.num_envs; ++e) {
      env::step_env(a, e);
      Exchange meeting;
      std::vector<std::thread> threads;
      for (int lane = 0; lane < kCorners; ++lane) {
        threads.emplace_back([&, lane] { env::step_env(b, e, ThreadedCornerLane{lane, &meeting}); });
      }
      for (std::thread& t : threads) t.join();
      episodes_ended += a.has_final[e];
    }
  }
#define FLEETDYN_EXPECT_SAME_ARRAY(name, E, view, rows, fill) \
  ASSERT_EQ(whole.name.size(), lanes.name.size()) << #name;   \
  EXPECT_EQ(std::memcmp(whole.name.data(), lanes.name.data(), whole.name.size() * sizeof(whole.name[0])), 0) << #name;
  FLEETDYN_ENV_ARRAYS(FLEETDYN_EXPECT_SAME_ARRAY)
#undef FLEETDYN_EXPECT_SAME_ARRAY
  EXPECT_GT(episodes_ended, 0);  // the leader's finish path reset an env on the way
}

TEST(CornerLanes, StrutVectorEnvLanesGiveTheWholeEnvsBits) { expect_env_lanes_match_whole_env<StrutHost>(); }

TEST(CornerLanes, CeVectorEnvLanesGiveTheWholeEnvsBits) { expect_env_lanes_match_whole_env<CeHost>(); }

// Each state index is held exactly once by the chassis and the four corners' split layouts.
template <class Model>
void expect_split_layout_covers_state() {
  std::vector<int> held(Model::kStateSize, 0);
  for (int j = 0; j < Model::kChassisSize; ++j) ++held[Model::chassis_index(j)];
  for (int c = 0; c < kCorners; ++c) {
    for (int j = 0; j < Model::kCornerSize; ++j) ++held[Model::corner_index(c, j)];
  }
  for (int i = 0; i < Model::kStateSize; ++i) EXPECT_EQ(held[i], 1) << "state index " << i;
}

TEST(CornerLanes, SplitLayoutsHoldEveryStateScalarOnce) {
  expect_split_layout_covers_state<StrutModel>();
  expect_split_layout_covers_state<CeModel>();
}

// Which mapping the CUDA engines take (kernels/cuda_mapping.h): four lanes per vehicle unless a
// diagnostic variable asks for a measuring variant, and in a build without the variants (the
// default, as this test's) each such request is an error naming the variable and the option
// that builds it, never a silent fallback.
TEST(CornerLanes, MeasuringVariantsAreAnErrorWhereNotBuilt) {
  ASSERT_FALSE(kCudaVariantsBuilt);
  const char* variables[] = {"FLEETDYN_CUDA_LANES", "FLEETDYN_CUDA_CORNER_REGISTERS", "FLEETDYN_CUDA_PARAMS"};
  for (const char* v : variables) unsetenv(v);
  const CudaMapping plain = cuda_mapping_from_environment();
  EXPECT_TRUE(plain.lanes_per_vehicle);
  EXPECT_FALSE(plain.capped_registers);
  EXPECT_FALSE(plain.global_params);
  const char* requests[][2] = {{"FLEETDYN_CUDA_LANES", "vehicle"},
                               {"FLEETDYN_CUDA_CORNER_REGISTERS", "128"},
                               {"FLEETDYN_CUDA_PARAMS", "global"}};
  for (const auto& r : requests) {
    setenv(r[0], r[1], 1);
    try {
      cuda_mapping_from_environment();
      ADD_FAILURE() << r[0] << "=" << r[1] << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(r[0]) + "=" + r[1]), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("-DFLEETDYN_CUDA_VARIANTS=ON"), std::string::npos) << e.what();
    }
    unsetenv(r[0]);
  }
  setenv("FLEETDYN_CUDA_LANES", "lanes", 1);  // any other value is the default
  EXPECT_TRUE(cuda_mapping_from_environment().lanes_per_vehicle);
  unsetenv("FLEETDYN_CUDA_LANES");
}

}  // namespace
}  // namespace fleetdyn
