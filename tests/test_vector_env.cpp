// The vector environment: shapes, determinism, masked resets, same-step autoreset, randomization
// ranges and exact per-env values, actuator rate limits, observation geometry, rewards,
// termination, bad actions and diverging envs; on the CPU backend here, and the CUDA backend
// against it where a device exists. The ce model's env is in test_ce_vector_env.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_model.h"
#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/vector_env.h"
#include "fleetdyn/vehicle.h"
#include "tests/vector_env_test_util.h"

namespace fleetdyn {
namespace {

using namespace test;

TEST(VectorEnv, ShapesNamesAndFiniteFirstObservations) {
  VectorEnv env(small_config());
  EXPECT_EQ(env.num_envs(), 8);
  EXPECT_EQ(env.backend(), BackendKind::Cpu);
  EXPECT_EQ(env.buffer_space(), MemorySpace::Host);
  // Default path-following features: 3 + 2 + 1 + 1 + 2 + 2 + 2 x 5 look-ahead points.
  EXPECT_EQ(env.observation_size(), 21);
  EXPECT_EQ(static_cast<int>(env.observation_names().size()), env.observation_size());
  EXPECT_EQ(env.max_episode_steps(), 1500);  // 30 s at 50 Hz
  for (float x : env.read_observations()) EXPECT_TRUE(std::isfinite(x));
  for (uint8_t f : env.read_has_final()) EXPECT_EQ(f, 0);
}

TEST(VectorEnv, SameSeedSameActionsBitIdenticalWhateverTheThreadCount) {
  VectorEnvConfig c = small_config();
  expect_same_whatever_the_thread_count(c, 60);
  // Another seed draws other episodes.
  c.seed = 8;
  VectorEnv other(c);
  EXPECT_NE(other.read_observations(), VectorEnv(small_config()).read_observations());
}

// The CPU's SIMD lanes (host/env/strut_env_lanes.h) and its scalar path (the GPU's code) agree
// to round-off in fp64 over 1 s of driving with resets included (the compiler contracts
// multiply-adds differently in the two, so not bitwise). Rewards are compared as each env's sum
// over the run: the track progress a step gains depends on which segment the projection's
// search hint lands in when the vehicle crosses a segment end, so round-off can move progress
// from one step to the next (seen: 0.007 between two consecutive steps, same sum).
TEST(VectorEnv, SimdLanesMatchTheScalarPath) {
  VectorEnvConfig c = small_config(11);  // not a multiple of the lane width: a padded group
  c.precision = Precision::Fp64;
  c.time_limit = 0.6;  // resets on the way
  VectorEnv lanes(c);
  c.cpu_simd = false;
  VectorEnv scalar(c);
  EXPECT_NE(lanes.device_name(), scalar.device_name());
  std::vector<float> rl, rs;
  const std::vector<float> ol = run(lanes, 50, &rl), os = run(scalar, 50, &rs);
  ASSERT_EQ(ol.size(), os.size());
  for (size_t j = 0; j < ol.size(); ++j) EXPECT_NEAR(ol[j], os[j], 1e-5 * (1.0 + std::fabs(os[j]))) << j;
  const size_t envs = 11;
  for (size_t v = 0; v < envs; ++v) {
    double sum_lanes = 0.0, sum_scalar = 0.0, scale = 1.0;
    for (size_t j = v; j < rl.size(); j += envs) {
      sum_lanes += rl[j];
      sum_scalar += rs[j];
      scale += std::fabs(rs[j]);
    }
    EXPECT_NEAR(sum_lanes, sum_scalar, 1e-5 * scale) << "env " << v;
  }
}

TEST(VectorEnv, ResetWithSeedRestartsTheRandomStreams) {
  VectorEnv fresh(small_config());
  const std::vector<float> first = fresh.read_observations();
  VectorEnvConfig c = small_config();
  c.seed = 99;
  VectorEnv env(c);
  run(env, 10);
  env.reset();             // episode 1 of seed 99
  env.reset_with_seed(7);  // episode 0 of seed 7 again
  EXPECT_EQ(env.read_observations(), first);
  EXPECT_EQ(env.config().seed, 7u);
}

TEST(VectorEnv, MaskedResetTouchesOnlyTheMaskedEnvs) {
  VectorEnv env(small_config());
  expect_masked_reset_touches_only(env, 20, {1, 5}, "tire.mu");
}

// Same-step autoreset: at the time limit every env is truncated; final_observations() holds
// what a longer-lived twin observes at that step, observations() what a twin that was simply
// reset (its episode 1) observes.
TEST(VectorEnv, SameStepAutoresetReturnsTheFinalAndTheNewObservation) {
  VectorEnvConfig c = small_config();
  c.time_limit = 0.1;  // 5 env steps of 20 ms
  VectorEnv env(c);
  ASSERT_EQ(env.max_episode_steps(), 5);
  c.time_limit = 30.0;
  VectorEnv longer(c), twin(c);
  twin.reset();
  for (int k = 0; k < 4; ++k) {
    env.step(actions_at(k, c.num_envs).data());
    longer.step(actions_at(k, c.num_envs).data());
    for (uint8_t f : env.read_has_final()) EXPECT_EQ(f, 0);
  }
  env.step(actions_at(4, c.num_envs).data());
  longer.step(actions_at(4, c.num_envs).data());
  for (int e = 0; e < c.num_envs; ++e) {
    EXPECT_EQ(env.read_truncated()[e], 1);
    EXPECT_EQ(env.read_terminated()[e], 0);
    EXPECT_EQ(env.read_has_final()[e], 1);
    EXPECT_EQ(env.read_end_reasons()[e], env::kTimeLimit);
    EXPECT_EQ(env.read_final_lengths()[e], 5);
  }
  EXPECT_EQ(env.read_final_observations(), longer.read_observations());
  EXPECT_EQ(env.read_observations(), twin.read_observations());
  // The return of the ended episode is the sum of its rewards.
  VectorEnvConfig again = small_config();
  again.time_limit = 0.1;
  VectorEnv replay(again);
  std::vector<double> sum(c.num_envs, 0.0);
  for (int k = 0; k < 5; ++k) {
    replay.step(actions_at(k, c.num_envs).data());
    const std::vector<float> r = replay.read_rewards();
    for (int e = 0; e < c.num_envs; ++e) sum[e] += r[e];
  }
  const std::vector<float> returns = replay.read_final_returns();
  for (int e = 0; e < c.num_envs; ++e) EXPECT_NEAR(returns[e], sum[e], 1e-4 * (1.0 + std::fabs(sum[e])));
  // The next step continues the new episode (no final observation).
  env.step(actions_at(5, c.num_envs).data());
  for (uint8_t f : env.read_has_final()) EXPECT_EQ(f, 0);
}

TEST(VectorEnv, RandomizedParametersStayInTheirRangesAndAreFreshEachEpisode) {
  VectorEnvConfig c = small_config(256);
  VectorEnv env(c);
  const StrutParams<double> base = hmmwv_params();
  std::vector<double> all_mu;
  for (int episode = 0; episode < 3; ++episode) {
    if (episode > 0) env.reset();
    const std::vector<double> mu = env.episode_param("tire.mu");
    const std::vector<double> mass = env.episode_param("total_mass");
    const std::vector<double> cg = env.episode_param("cg_height");
    for (int e = 0; e < c.num_envs; ++e) {
      EXPECT_GE(mu[e], 0.7 - 1e-6);
      EXPECT_LE(mu[e], 1.0 + 1e-6);
      EXPECT_GE(mass[e], 0.9 * base.total_mass * (1 - 1e-6));
      EXPECT_LE(mass[e], 1.15 * base.total_mass * (1 + 1e-6));
      EXPECT_GE(cg[e], 0.95 * base.cg_height * (1 - 1e-6));
      EXPECT_LE(cg[e], 1.1 * base.cg_height * (1 + 1e-6));
    }
    // 256 uniform draws cover the range: the extremes lie within 3 % of its ends (P(fail) ~ 1e-3).
    EXPECT_LT(*std::min_element(mu.begin(), mu.end()), 0.7 + 0.03 * 0.3);
    EXPECT_GT(*std::max_element(mu.begin(), mu.end()), 1.0 - 0.03 * 0.3);
    all_mu.insert(all_mu.end(), mu.begin(), mu.end());
  }
  // Every episode draws anew: no env repeats its friction across its three episodes.
  for (int e = 0; e < c.num_envs; ++e) {
    EXPECT_NE(all_mu[e], all_mu[c.num_envs + e]);
    EXPECT_NE(all_mu[c.num_envs + e], all_mu[2 * c.num_envs + e]);
  }
}

TEST(VectorEnv, ExactPerEnvValuesWithoutRandomization) {
  VectorEnvConfig c = small_config(4);
  c.use_default_randomization = false;
  VectorEnv env(c);
  env.set_base_param("tire.mu", {0.3, 0.5, 0.7, 0.9});
  env.set_base_param("total_mass", {2400.0});
  env.reset();
  const std::vector<double> mu = env.episode_param("tire.mu"), mass = env.episode_param("total_mass");
  const double expected[] = {0.3, 0.5, 0.7, 0.9};
  for (int e = 0; e < 4; ++e) {
    EXPECT_FLOAT_EQ(static_cast<float>(mu[e]), static_cast<float>(expected[e]));
    EXPECT_FLOAT_EQ(static_cast<float>(mass[e]), 2400.0f);
  }
  EXPECT_THROW(env.set_base_param("tire.mu", {0.5, 0.5}), Error);
  EXPECT_THROW(env.set_base_param("tire.grip", {0.5}), Error);
  EXPECT_THROW(env.set_base_param("tire.mu", {7.0}), Error);
}

// The actuators follow a step command at their rate limits: after one env step (20 ms) the
// steering has moved 4/s x 20 ms = 0.08 and the brake 10/s x 20 ms = 0.2.
TEST(VectorEnv, ActuatorsFollowAtTheirRateLimits) {
  VectorEnv env(straight_config(2));
  const int steer = column(env, "steering"), brake = column(env, "brake"), dim = env.observation_size();
  const std::vector<float> step_command = {1.0f, 0.0f, 1.0f, -1.0f, 0.0f, 0.02f};
  env.step(step_command.data());
  std::vector<float> obs = env.read_observations();
  EXPECT_NEAR(obs[steer], 0.08, 1e-5);
  EXPECT_NEAR(obs[brake], 0.2, 1e-5);
  EXPECT_NEAR(obs[dim + steer], -0.08, 1e-5);
  EXPECT_NEAR(obs[dim + brake], 0.02, 1e-5);  // reached the command within the step
  // Out-of-range commands are clipped: 5 acts as 1.
  const std::vector<float> wild = {5.0f, 3.0f, -2.0f, -1.0f, 0.0f, 0.02f};
  env.step(wild.data());
  obs = env.read_observations();
  EXPECT_NEAR(obs[steer], 0.16, 1e-5);
}

// On a straight track with the vehicle on it, the look-ahead points lie straight ahead at the
// spacing, the path errors are zero, and the progress reward is the distance covered.
TEST(VectorEnv, ObservationGeometryAndProgressRewardOnAStraightTrack) {
  VectorEnv env(straight_config(2));
  std::vector<float> obs = env.read_observations();
  const int first = column(env, "lookahead1.x"), lateral = column(env, "lateral_error");
  for (int k = 0; k < 5; ++k) {
    EXPECT_NEAR(obs[first + 2 * k], 0.5 * (k + 1), 1e-4) << "point " << k + 1;  // 5 m spacing / 10 m
    EXPECT_NEAR(obs[first + 2 * k + 1], 0.0, 1e-4);
  }
  EXPECT_NEAR(obs[lateral], 0.0, 1e-5);
  EXPECT_NEAR(obs[column(env, "body_velocity.x")], 1.0, 1e-4);  // 10 m/s / 10
  const std::vector<float> coast(6, 0.0f);
  const std::vector<double> x0 = env.read_state();
  env.step(coast.data());
  const std::vector<double> x1 = env.read_state(), o = env.read_origins();
  const std::vector<double> o0 = {0.0, 0.0, 0.0, 0.0};
  const double travelled = (x1[0] + o[0]) - (x0[0] + o0[0]);  // strut state 0 is the COM x (local)
  EXPECT_NEAR(travelled, 10.0 * 0.02, 0.01);                  // coasting at about 10 m/s
  const double penalty_bound = 1e-3;                          // lateral and heading errors ~0
  EXPECT_NEAR(env.read_rewards()[0], travelled, penalty_bound + 1e-4);
}

TEST(VectorEnv, LeavingTheRoadTerminatesWithTheCrashPenalty) {
  VectorEnvConfig c = straight_config(1);
  c.road_half_width = 2.0;
  VectorEnv env(c);
  const std::vector<float> hard_left = {1.0f, 0.2f, 0.0f};
  int steps = 0;
  while (env.read_has_final()[0] == 0 && steps < 200) {
    env.step(hard_left.data());
    ++steps;
  }
  ASSERT_LT(steps, 200) << "a full-lock turn at 10 m/s leaves a 4 m road within 4 s";
  EXPECT_EQ(env.read_end_reasons()[0], env::kOffRoad);
  EXPECT_EQ(env.read_terminated()[0], 1);
  EXPECT_EQ(env.read_truncated()[0], 0);
  EXPECT_LT(env.read_rewards()[0], -40.0);  // w_crash 50 dominates the step
  const int lateral = column(env, "lateral_error");
  EXPECT_GT(std::fabs(env.read_final_observations()[lateral]), 1.0);  // beyond the half-width (scaled by it)
  EXPECT_LT(std::fabs(env.read_observations()[lateral]), 1e-3);       // the new episode starts on the track
}

TEST(VectorEnv, RolloverTerminates) {
  VectorEnvConfig c = straight_config(1);
  c.speed_min = c.speed_max = 22.0;
  c.road_half_width = 50.0;
  c.steer_rate = 100.0;  // a step steer
  VectorEnv env(c);
  env.set_base_param("cg_height", {1.6});  // a top-heavy truck (static stability factor 0.57)
  env.set_base_param("tire.mu", {1.2});    // on a grippy road
  env.reset();
  const std::vector<float> hard_left = {1.0f, 0.0f, 0.0f};
  int steps = 0;
  while (env.read_has_final()[0] == 0 && steps < 150) {
    env.step(hard_left.data());
    ++steps;
  }
  ASSERT_LT(steps, 150);
  EXPECT_EQ(env.read_end_reasons()[0], env::kRollover);
  EXPECT_EQ(env.read_terminated()[0], 1);
  const int roll = column(env, "roll");
  const float final_roll = std::fabs(env.read_final_observations()[roll]);
  EXPECT_GT(final_roll, 0.1f);  // tipped (the two-wheel-lift rule may end it before 45 deg)
}

TEST(VectorEnv, NonFiniteActionsAreRejectedAndNoEnvSteps) {
  VectorEnv env(small_config(4));
  const std::vector<double> before = env.read_state();
  std::vector<float> a(12, 0.1f);
  a[3 * 2 + 1] = std::nanf("");
  try {
    env.step(a.data());
    FAIL() << "NaN accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("env 2 has a non-finite action"), std::string::npos) << e.what();
  }
  EXPECT_EQ(env.read_state(), before);
  a[3 * 2 + 1] = INFINITY;
  EXPECT_THROW(env.step(a.data()), Error);
  EXPECT_THROW(env.step(nullptr), Error);
}

TEST(VectorEnv, ADivergingEnvEndsItsEpisodeAndLeavesTheOthersAlone) {
  StrutParams<double> unstable = hmmwv_params();
  unstable.link_stiffness = 1.0e9;  // beyond RK4's limit at 1 ms (test_backend_parity)
  VectorEnvConfig c = small_config(3);
  c.use_default_randomization = false;
  VectorEnv mixed(c), clean(c);
  mixed.set_base_params({hmmwv_params(), unstable, hmmwv_params()});
  mixed.reset();
  clean.reset();
  bool diverged = false;
  for (int k = 0; k < 20; ++k) {
    mixed.step(actions_at(k, 3).data());
    clean.step(actions_at(k, 3).data());
    if (mixed.read_has_final()[1]) {
      diverged = true;
      EXPECT_EQ(mixed.read_end_reasons()[1], env::kDiverged);
      EXPECT_EQ(mixed.read_terminated()[1], 1);
      break;
    }
  }
  EXPECT_TRUE(diverged);
  for (float x : mixed.read_observations()) EXPECT_TRUE(std::isfinite(x));
  const std::vector<float> a = mixed.read_observations(), b = clean.read_observations();
  const int dim = mixed.observation_size();
  for (int e : {0, 2}) {
    for (int j = 0; j < dim; ++j) EXPECT_EQ(a[static_cast<size_t>(e) * dim + j], b[static_cast<size_t>(e) * dim + j]);
  }
}

TEST(VectorEnv, BadConfigurationsNameTheField) {
  const auto message = [](VectorEnvConfig c) {
    try {
      VectorEnv env(c);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  VectorEnvConfig c = small_config();
  c.num_envs = 0;
  EXPECT_NE(message(c).find("num_envs"), std::string::npos);
  // At most INT_MAX / the largest per-env row count (strut: the 49 state rows), so every int index
  // of a [row][env] array fits; refused before any array is allocated.
  const int most = std::numeric_limits<int>::max() / kStrutStateSize;
  EXPECT_EQ(max_envs(VehicleModel::Strut), most);
  EXPECT_EQ(max_envs(VehicleModel::Ce), std::numeric_limits<int>::max() / kCeStateSize);
  const std::string range = "VectorEnv: num_envs: must be in [1, " + std::to_string(most) + "] for the strut model";
  for (int n : {0, -1, most + 1, std::numeric_limits<int>::max()}) {
    c = small_config();
    c.num_envs = n;
    const std::string what = message(c);
    EXPECT_NE(what.find(range), std::string::npos) << what;
    EXPECT_NE(what.find("got " + std::to_string(n)), std::string::npos) << what;
  }
  c = small_config();
  c.observations = {"body_velocity", "altitude"};
  EXPECT_NE(message(c).find("unknown feature 'altitude'"), std::string::npos);
  c = small_config();
  c.randomize = {{"tire.mu", 0.5, 4.0, false}};
  EXPECT_NE(message(c).find("tire.mu"), std::string::npos);
  c = small_config();
  c.randomize = {{"wheel_base", 0.9, 1.1, true}};
  EXPECT_NE(message(c).find("unknown vehicle parameter 'wheel_base'"), std::string::npos);
  c = small_config();
  c.randomize = {{"total_mass", 0.15, 1.0, true}};  // 386 kg with 420 kg of wheels
  EXPECT_NE(message(c).find("extreme draws"), std::string::npos);
  c = small_config();
  c.decimation = 0;
  EXPECT_NE(message(c).find("decimation"), std::string::npos);
  // An episode's step count is an int: a time limit past 1e9 env steps is refused, not wrapped.
  c = small_config();
  c.physics_step = 1.0e-3;
  c.decimation = 20;
  c.time_limit = 1.0e12;
  EXPECT_NE(message(c).find("time_limit: must be in (0, 2e+07] s (1e9 env steps), got 1e+12"), std::string::npos)
      << message(c);
  c = small_config();
  c.physics_step = 1.0e-300;
  EXPECT_NE(message(c).find("physics_step: must be in [1e-6, 0.05] s"), std::string::npos) << message(c);
  c = small_config();
  c.track_spacing = 1.0e300;
  EXPECT_NE(message(c).find("track_spacing: must be in (0, 100] m"), std::string::npos) << message(c);
  EXPECT_THROW(env_task_from_name("drift"), Error);
}

TEST(VectorEnv, ReachSpeedOnARoughRoad) {
  VectorEnvConfig c = small_config(4);
  c.task = EnvTask::ReachSpeed;
  c.road.length = 400.0;
  c.track_points = 64;
  VectorEnv env(c);
  const int error = column(env, "speed_error"), vx = column(env, "body_velocity.x");
  std::vector<float> obs = env.read_observations();
  for (int e = 0; e < 4; ++e) {
    const float* row = obs.data() + static_cast<size_t>(e) * env.observation_size();
    const double target = row[vx] * 10.0 - row[error] * 10.0;
    EXPECT_GE(target, c.target_speed_min - 1e-3);
    EXPECT_LE(target, c.target_speed_max + 1e-3);
  }
  std::vector<float> rewards;
  run(env, 25, &rewards);
  for (float r : rewards) EXPECT_TRUE(std::isfinite(r));
  for (float r : rewards) EXPECT_LE(r, 0.0f);  // reach speed pays only penalties
}

// CUDA against the CPU at 64 envs and at awkward counts (13: a partial warp; 1001: a last warp
// of one env), fp64 and fp32.
struct EnvCudaCase {
  int envs;
  Precision precision;
};

class VectorEnvCuda : public ::testing::TestWithParam<EnvCudaCase> {};

TEST_P(VectorEnvCuda, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  VectorEnvConfig c = small_config(GetParam().envs);
  c.precision = GetParam().precision;
  VectorEnv cpu(c);
  c.backend = BackendKind::Cuda;
  VectorEnv gpu(c);
  EXPECT_EQ(gpu.buffer_space(), MemorySpace::Device);
  expect_cuda_runs_match_cpu(cpu, gpu, c);  // and determinism on the device: a rerun is bit-identical
}

INSTANTIATE_TEST_SUITE_P(Sizes, VectorEnvCuda, ::testing::ValuesIn(test::env_cuda_cases<EnvCudaCase>()),
                         test::env_cuda_case_name<EnvCudaCase>);

// The strut model's parts are switched on the base parameters, never drawn at reset: a draw
// between 0 and 1 would be half a linkage.
TEST(VectorEnv, StrutPartsAreNotRandomized) {
  VectorEnvConfig c = small_config(2);
  c.randomize = {{"linkage_geometry", 0.0, 1.0, false}};
  try {
    VectorEnv env(c);
    FAIL() << "linkage_geometry randomized";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("(linkage_geometry): not randomizable in the strut env: a part of the model"), std::string::npos) << m;
  }
  for (const std::string& name : env_randomizable_params(VehicleModel::Strut)) {
    EXPECT_NE(name, "tire_force_at_contact");
    EXPECT_NE(name, "progressive_spring");
  }
  VectorEnv env(small_config(2));
  env.set_base_param("linkage_geometry", {0.0});  // switched off on the base set: fine
  EXPECT_THROW(env.set_base_param("linkage_geometry", {0.5}), Error);
}

}  // namespace
}  // namespace fleetdyn
