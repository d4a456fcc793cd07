// Helpers shared by the vector environment tests: small configurations, a deterministic action
// sequence, observation columns, and the masked-reset and CUDA-against-CPU checks.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fleetdyn/vector_env.h"

namespace fleetdyn {
namespace test {

inline VectorEnvConfig small_config(int envs = 8) {
  VectorEnvConfig c;
  c.num_envs = envs;
  c.backend = BackendKind::Cpu;
  c.cpu_threads = 2;
  c.track_points = 128;
  c.seed = 7;
  return c;
}

// A smooth, deterministic action sequence that differs per env: weaving with some throttle.
inline std::vector<float> actions_at(int step, int envs) {
  std::vector<float> a(static_cast<size_t>(envs) * 3);
  for (int e = 0; e < envs; ++e) {
    a[static_cast<size_t>(e) * 3] = static_cast<float>(0.3 * std::sin(0.1 * step + e));
    a[static_cast<size_t>(e) * 3 + 1] = static_cast<float>(0.3 + 0.2 * std::cos(0.05 * step + 2 * e));
    a[static_cast<size_t>(e) * 3 + 2] = 0.0f;
  }
  return a;
}

inline std::vector<float> run(VectorEnv& env, int steps, std::vector<float>* rewards = nullptr) {
  for (int k = 0; k < steps; ++k) {
    env.step(actions_at(k, env.num_envs()).data());
    if (rewards) {
      const std::vector<float> r = env.read_rewards();
      rewards->insert(rewards->end(), r.begin(), r.end());
    }
  }
  return env.read_observations();
}

// Two environments of config c, one on c's thread pool and one on a single thread, stepped with
// the same actions, and the rewards of the single-threaded one.
struct ThreadCountRuns {
  VectorEnv pooled, single;
  std::vector<float> single_rewards;
};

// Both runs of `steps` steps give the same observations and rewards, bit for bit.
inline ThreadCountRuns expect_same_whatever_the_thread_count(VectorEnvConfig c, int steps) {
  VectorEnv a(c);
  c.cpu_threads = 1;
  VectorEnv b(c);
  std::vector<float> ra, rb;
  EXPECT_EQ(run(a, steps, &ra), run(b, steps, &rb));
  EXPECT_EQ(ra, rb);
  return {std::move(a), std::move(b), std::move(rb)};
}

// A straight track and no randomization: the geometry tests know where everything is.
inline VectorEnvConfig straight_config(int envs = 4) {
  VectorEnvConfig c = small_config(envs);
  c.track_max_curvature = 0.0;
  c.lateral_offset_max = 0.0;
  c.heading_offset_max = 0.0;
  c.speed_min = c.speed_max = 10.0;
  c.use_default_randomization = false;
  return c;
}

inline int column(const VectorEnv& env, const std::string& name) {
  const std::vector<std::string> names = env.observation_names();
  const auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return static_cast<int>(it - names.begin());
}

// Resets the envs in `masked` after `steps` steps and checks that exactly those changed their
// state, observation and the drawn parameter `param` (a reset draws fresh parameters).
inline void expect_masked_reset_touches_only(VectorEnv& env, int steps, std::vector<int> masked, const char* param) {
  run(env, steps);
  const std::vector<double> state_before = env.read_state();
  const std::vector<float> obs_before = env.read_observations();
  const std::vector<double> param_before = env.episode_param(param);
  const int n = env.num_envs(), dim = env.observation_size();
  std::vector<uint8_t> mask(n, 0);
  for (int e : masked) mask[e] = 1;
  env.reset(mask.data());
  const std::vector<double> state_after = env.read_state();
  const std::vector<float> obs_after = env.read_observations();
  const std::vector<double> param_after = env.episode_param(param);
  const size_t size = state_after.size() / n;
  for (int e = 0; e < n; ++e) {
    bool same_state = true, same_obs = true;
    for (size_t j = 0; j < size; ++j) same_state &= state_after[j * n + e] == state_before[j * n + e];
    for (int j = 0; j < dim; ++j)
      same_obs &= obs_after[static_cast<size_t>(e) * dim + j] == obs_before[static_cast<size_t>(e) * dim + j];
    EXPECT_EQ(same_state, !mask[e]) << "env " << e;
    EXPECT_EQ(same_obs, !mask[e]) << "env " << e;
    EXPECT_EQ(param_after[e] == param_before[e], !mask[e]) << "env " << e << ": a reset draws fresh parameters";
  }
}

// `steps` steps of the same env on the CPU and on CUDA (config `c`, its backend CUDA): observations
// and rewards agree within 1e-4 (relative, plus 1e-4), and a rerun on the device is bit-identical.
inline void expect_cuda_runs_match_cpu(VectorEnv& cpu, VectorEnv& gpu, const VectorEnvConfig& c, int steps = 50) {
  std::vector<float> rc, rg;
  const std::vector<float> oc = run(cpu, steps, &rc), og = run(gpu, steps, &rg);
  ASSERT_EQ(oc.size(), og.size());
  for (size_t j = 0; j < oc.size(); ++j) EXPECT_NEAR(oc[j], og[j], 1e-4 * (1.0 + std::fabs(oc[j]))) << j;
  for (size_t j = 0; j < rc.size(); ++j) EXPECT_NEAR(rc[j], rg[j], 1e-4 * (1.0 + std::fabs(rc[j]))) << j;
  VectorEnv again(c);
  EXPECT_EQ(run(again, steps), og);
}

// The CUDA parity cases of an env test: 64 envs and the awkward counts, each fp64 and fp32.
template <class Case>
std::vector<Case> env_cuda_cases() {
  std::vector<Case> cases;
  for (int envs : {64, 13, 1001}) {
    for (Precision precision : {Precision::Fp64, Precision::Fp32}) cases.push_back(Case{envs, precision});
  }
  return cases;
}

template <class Case>
std::string env_cuda_case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::to_string(info.param.envs) + "Envs" + (info.param.precision == Precision::Fp64 ? "Fp64" : "Fp32");
}

}  // namespace test
}  // namespace fleetdyn
