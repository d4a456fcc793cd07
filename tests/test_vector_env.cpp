// The vector environment (issue 6 section 1): shapes, determinism, masked resets, same-step
// autoreset, randomization ranges and exact per-env values, actuator rate limits, observation
// geometry, rewards, termination, bad actions and diverging envs; on the CPU backend here, and
// the CUDA backend against it where a device exists. Then the same over the ce model (issue 6,
// "any fleetdyn model"): its rest state solved at every reset, its defaults, its randomization
// checks, and its observations against the strut env's on the same HMMWV.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce_model.h"
#include "fleetdyn/physics/env/env_config.h"
#include "fleetdyn/vector_env.h"
#include "fleetdyn/vehicle.h"

namespace fleetdyn {
namespace {

VectorEnvConfig small_config(int envs = 8) {
  VectorEnvConfig c;
  c.num_envs = envs;
  c.backend = BackendKind::Cpu;
  c.cpu_threads = 2;
  c.track_points = 128;
  c.seed = 7;
  return c;
}

// A smooth, deterministic action sequence that differs per env: weaving with some throttle.
std::vector<float> actions_at(int step, int envs) {
  std::vector<float> a(static_cast<size_t>(envs) * 3);
  for (int e = 0; e < envs; ++e) {
    a[static_cast<size_t>(e) * 3] = static_cast<float>(0.3 * std::sin(0.1 * step + e));
    a[static_cast<size_t>(e) * 3 + 1] = static_cast<float>(0.3 + 0.2 * std::cos(0.05 * step + 2 * e));
    a[static_cast<size_t>(e) * 3 + 2] = 0.0f;
  }
  return a;
}

std::vector<float> run(VectorEnv& env, int steps, std::vector<float>* rewards = nullptr) {
  for (int k = 0; k < steps; ++k) {
    env.step(actions_at(k, env.num_envs()).data());
    if (rewards) {
      const std::vector<float> r = env.read_rewards();
      rewards->insert(rewards->end(), r.begin(), r.end());
    }
  }
  return env.read_observations();
}

// A straight track and no randomization: the geometry tests know where everything is.
VectorEnvConfig straight_config(int envs = 4) {
  VectorEnvConfig c = small_config(envs);
  c.track_max_curvature = 0.0;
  c.lateral_offset_max = 0.0;
  c.heading_offset_max = 0.0;
  c.speed_min = c.speed_max = 10.0;
  c.use_default_randomization = false;
  return c;
}

int column(const VectorEnv& env, const std::string& name) {
  const std::vector<std::string> names = env.observation_names();
  const auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return static_cast<int>(it - names.begin());
}

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
  VectorEnv a(c);
  c.cpu_threads = 1;
  VectorEnv b(c);
  std::vector<float> ra, rb;
  EXPECT_EQ(run(a, 60, &ra), run(b, 60, &rb));
  EXPECT_EQ(ra, rb);
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
  c.time_limit = 0.6;                    // resets on the way
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
  env.reset();  // episode 1 of seed 99
  env.reset_with_seed(7);  // episode 0 of seed 7 again
  EXPECT_EQ(env.read_observations(), first);
  EXPECT_EQ(env.config().seed, 7u);
}

// Resets the envs in `masked` after `steps` steps and checks that exactly those changed their
// state, observation and the drawn parameter `param` (a reset draws fresh parameters).
void expect_masked_reset_touches_only(VectorEnv& env, int steps, std::vector<int> masked, const char* param) {
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
    for (int j = 0; j < dim; ++j) same_obs &= obs_after[static_cast<size_t>(e) * dim + j] == obs_before[static_cast<size_t>(e) * dim + j];
    EXPECT_EQ(same_state, !mask[e]) << "env " << e;
    EXPECT_EQ(same_obs, !mask[e]) << "env " << e;
    EXPECT_EQ(param_after[e] == param_before[e], !mask[e]) << "env " << e << ": a reset draws fresh parameters";
  }
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
  const VehicleParams<double> base = hmmwv_params();
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
  EXPECT_NEAR(travelled, 10.0 * 0.02, 0.01);                    // coasting at about 10 m/s
  const double penalty_bound = 1e-3;                              // lateral and heading errors ~0
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
  EXPECT_GT(std::fabs(env.read_final_observations()[lateral]), 1.0);   // beyond the half-width (scaled by it)
  EXPECT_LT(std::fabs(env.read_observations()[lateral]), 1e-3);         // the new episode starts on the track
}

TEST(VectorEnv, RolloverTerminates) {
  VectorEnvConfig c = straight_config(1);
  c.speed_min = c.speed_max = 22.0;
  c.road_half_width = 50.0;
  c.steer_rate = 100.0;  // a step steer
  VectorEnv env(c);
  env.set_base_param("cg_height", {1.6});  // a top-heavy truck (static stability factor 0.57)
  env.set_base_param("tire.mu", {1.2});     // on a grippy road
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
  VehicleParams<double> unstable = hmmwv_params();
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
  EXPECT_NE(message(c).find("time_limit: must be in (0, 2e+07] s (1e9 env steps), got 1e+12"), std::string::npos) << message(c);
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

// 50 steps of the same env on the CPU and on CUDA (config `c`, its backend CUDA): observations
// and rewards agree within 1e-4 (relative, plus 1e-4), and a rerun on the device is bit-identical.
void expect_cuda_runs_match_cpu(VectorEnv& cpu, VectorEnv& gpu, const VectorEnvConfig& c) {
  std::vector<float> rc, rg;
  const std::vector<float> oc = run(cpu, 50, &rc), og = run(gpu, 50, &rg);
  ASSERT_EQ(oc.size(), og.size());
  for (size_t j = 0; j < oc.size(); ++j) EXPECT_NEAR(oc[j], og[j], 1e-4 * (1.0 + std::fabs(oc[j]))) << j;
  for (size_t j = 0; j < rc.size(); ++j) EXPECT_NEAR(rc[j], rg[j], 1e-4 * (1.0 + std::fabs(rc[j]))) << j;
  VectorEnv again(c);
  EXPECT_EQ(run(again, 50), og);
}

TEST(VectorEnv, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  VectorEnvConfig c = small_config(64);
  c.precision = Precision::Fp64;
  VectorEnv cpu(c);
  c.backend = BackendKind::Cuda;
  VectorEnv gpu(c);
  EXPECT_EQ(gpu.buffer_space(), MemorySpace::Device);
  expect_cuda_runs_match_cpu(cpu, gpu, c);  // and determinism on the device: a rerun is bit-identical
}


// ---- the ce model -------------------------------------------------------------------------------

VectorEnvConfig ce_config(int envs = 8) {
  VectorEnvConfig c = small_config(envs);
  c.model = VehicleModel::Ce;
  return c;
}

// Largest change over the envs of the chassis origin (position) and the largest chassis speed,
// from two read_state() snapshots of a ce env.
struct ChassisMotion {
  double displacement = 0.0, speed = 0.0;
};
ChassisMotion chassis_motion(const std::vector<double>& before, const std::vector<double>& after, int n) {
  ChassisMotion m;
  for (int e = 0; e < n; ++e) {
    double d2 = 0.0, v2 = 0.0;
    for (int j = 0; j < 3; ++j) {
      d2 += std::pow(after[static_cast<size_t>(ce::kPos + j) * n + e] - before[static_cast<size_t>(ce::kPos + j) * n + e], 2);
      v2 += std::pow(after[static_cast<size_t>(ce::kVel + j) * n + e], 2);
    }
    m.displacement = std::max(m.displacement, std::sqrt(d2));
    m.speed = std::max(m.speed, std::sqrt(v2));
  }
  return m;
}

// The ce env's defaults follow the model: its default step (ce_step_analysis: 2 ms for the
// HMMWV, strut's 1 ms unchanged), 50 Hz control either way, the scalar path on the CPU.
TEST(CeVectorEnv, DefaultsFollowTheModel) {
  VectorEnv env(ce_config(2));
  EXPECT_EQ(env.config().physics_step, ce_step_analysis(hmmwv_ce_params()).default_step);
  EXPECT_DOUBLE_EQ(env.config().physics_step, 2.0e-3);
  EXPECT_EQ(env.config().decimation, 10);
  EXPECT_EQ(env.max_episode_steps(), 1500);  // 30 s at 50 Hz
  EXPECT_EQ(env.observation_size(), 21);
  EXPECT_EQ(env.device_name().find("SIMD"), std::string::npos) << env.device_name();
  for (float x : env.read_observations()) EXPECT_TRUE(std::isfinite(x));
  VectorEnv strut(small_config(2));
  EXPECT_DOUBLE_EQ(strut.config().physics_step, 1.0e-3);
  EXPECT_EQ(strut.config().decimation, 20);
  VectorEnvConfig explicit_step = ce_config(2);
  explicit_step.physics_step = 1.0e-3;  // decimation follows: still 50 Hz
  EXPECT_EQ(VectorEnv(explicit_step).config().decimation, 20);
  const std::vector<std::string> names = env_randomizable_params(VehicleModel::Ce);
  for (const char* yes : {"chassis_mass", "chassis_com_z", "tire.mu", "spring_rate_front", "spring_rate_rear"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), yes), names.end()) << yes;
  }
  for (const char* no : {"bump_stop_length_front", "rebound_stop_length_rear", "droop_limit_lca_front", "max_steer"}) {
    EXPECT_EQ(std::find(names.begin(), names.end(), no), names.end()) << no;
  }
}

TEST(CeVectorEnv, SameSeedSameActionsBitIdenticalWhateverTheThreadCount) {
  VectorEnvConfig c = ce_config(12);  // 12 envs: two pool threads share them
  c.time_limit = 0.3;                 // 15 env steps per episode: autoresets (fresh rest-state solves) on the way
  VectorEnv a(c);
  c.cpu_threads = 1;
  VectorEnv b(c);
  std::vector<float> ra, rb;
  EXPECT_EQ(run(a, 40, &ra), run(b, 40, &rb));
  EXPECT_EQ(ra, rb);
  EXPECT_EQ(a.read_state(), b.read_state());
  EXPECT_EQ(a.read_final_lengths(), std::vector<int32_t>(12, 15));  // the second episodes ended at step 30
  VectorEnv rerun(c);
  std::vector<float> rr;
  EXPECT_EQ(run(rerun, 40, &rr), b.read_observations());
  EXPECT_EQ(rr, rb);
  c.seed = 8;
  EXPECT_NE(VectorEnv(c).read_observations(), VectorEnv(ce_config(12)).read_observations());
}

TEST(CeVectorEnv, MaskedResetTouchesOnlyTheMaskedEnvs) {
  VectorEnv env(ce_config());
  expect_masked_reset_touches_only(env, 10, {2, 7}, "chassis_mass");
}

// Every reset draws fresh values inside the ranges, and its rest state is that draw's: the tire
// loads at rest carry exactly the drawn vehicle's weight (vertical equilibrium of the Newton
// solution, residual < 1e-9 m/s^2, so to ~1e-9 relative), which a rest state solved for any other
// mass would not (the chassis mass scatters by 25 %).
TEST(CeVectorEnv, RandomizedParametersStayInTheirRangesAreFreshAndSetTheRestState) {
  VectorEnvConfig c = ce_config(128);
  c.precision = Precision::Fp64;
  VectorEnv env(c);
  const CeParams<double> base = hmmwv_ce_params();
  const double other_mass = ce_total_mass(base) - base.chassis_mass;  // bodies and wheels (not randomized)
  std::vector<double> all_mass;
  for (int episode = 0; episode < 3; ++episode) {
    if (episode > 0) env.reset();
    const std::vector<double> mass = env.episode_param("chassis_mass"), com_z = env.episode_param("chassis_com_z");
    const std::vector<double> mu = env.episode_param("tire.mu"), k_front = env.episode_param("spring_rate_front"),
                              k_rear = env.episode_param("spring_rate_rear");
    const std::vector<double> loads = env.read_static_loads();
    for (int e = 0; e < c.num_envs; ++e) {
      EXPECT_GE(mass[e], 0.9 * base.chassis_mass * (1 - 1e-12));
      EXPECT_LE(mass[e], 1.15 * base.chassis_mass * (1 + 1e-12));
      EXPECT_GE(com_z[e], base.chassis_com.z - 0.035 - 1e-12);
      EXPECT_LE(com_z[e], base.chassis_com.z + 0.07 + 1e-12);
      EXPECT_GE(mu[e], 0.7 - 1e-12);
      EXPECT_LE(mu[e], 1.0 + 1e-12);
      EXPECT_GE(k_front[e], 0.85 * base.axle[0].spring_rate * (1 - 1e-12));
      EXPECT_LE(k_front[e], 1.15 * base.axle[0].spring_rate * (1 + 1e-12));
      EXPECT_GE(k_rear[e], 0.85 * base.axle[1].spring_rate * (1 - 1e-12));
      EXPECT_LE(k_rear[e], 1.15 * base.axle[1].spring_rate * (1 + 1e-12));
      double sum = 0.0;
      for (int i = 0; i < kCorners; ++i) sum += loads[static_cast<size_t>(i) * c.num_envs + e];
      const double weight = (other_mass + mass[e]) * base.gravity;
      EXPECT_NEAR(sum, weight, 1e-6 * weight) << "env " << e << " episode " << episode;
    }
    // 128 uniform draws cover the range: the extremes lie within 5 % of its ends (P(fail) ~ 1e-3).
    const double lo = 0.9 * base.chassis_mass, hi = 1.15 * base.chassis_mass;
    EXPECT_LT(*std::min_element(mass.begin(), mass.end()), lo + 0.05 * (hi - lo));
    EXPECT_GT(*std::max_element(mass.begin(), mass.end()), hi - 0.05 * (hi - lo));
    all_mass.insert(all_mass.end(), mass.begin(), mass.end());
  }
  for (int e = 0; e < c.num_envs; ++e) {
    EXPECT_NE(all_mass[e], all_mass[c.num_envs + e]);
    EXPECT_NE(all_mass[c.num_envs + e], all_mass[2 * c.num_envs + e]);
  }
}

// The invariant of a rest state: started at zero speed with zero actions, every env's chassis
// stays where its reset put it for 1 s (50 env steps), with the default randomization on, so
// each env rests on its own drawn mass, CG and springs. A rest state solved for other parameters
// would not: over the default ranges the chassis origin's rest height spans 0.435 m (heaviest,
// softest) to 0.509 m (lightest, stiffest) around the base's 0.481 m, and a vehicle released
// centimetres off its equilibrium bounces by centimetres. Bounds: fp64 1e-9 m and 1e-9 m/s (the
// solve's 1e-9 m/s^2 residual over a ~1.5 Hz heave mode is ~1e-11 m); fp32 1e-6 m and 1e-4 m/s
// (the fp64 rest state rounded to fp32: heights to ~3e-8 m, then fp32 round-off in the dynamics).
TEST(CeVectorEnv, TheRestStateIsAtRest) {
  for (Precision precision : {Precision::Fp64, Precision::Fp32}) {
    VectorEnvConfig c = ce_config(16);
    c.precision = precision;
    c.speed_min = c.speed_max = 0.0;
    c.lateral_offset_max = 0.0;
    c.heading_offset_max = 0.0;
    c.observations = {"wheel_loads", "roll_pitch"};
    VectorEnv env(c);
    const std::vector<double> start = env.read_state();
    const std::vector<float> still(static_cast<size_t>(c.num_envs) * 3, 0.0f);
    for (int k = 0; k < 50; ++k) env.step(still.data());
    for (uint8_t f : env.read_has_final()) EXPECT_EQ(f, 0);
    const ChassisMotion m = chassis_motion(start, env.read_state(), c.num_envs);
    const bool fp64 = precision == Precision::Fp64;
    EXPECT_LT(m.displacement, fp64 ? 1e-9 : 1e-6) << precision_name(precision);
    EXPECT_LT(m.speed, fp64 ? 1e-9 : 1e-4) << precision_name(precision);
    // The tires still carry the static loads the reset computed (the wheel_loads feature is 1).
    const std::vector<float> obs = env.read_observations();
    for (int e = 0; e < c.num_envs; ++e) {
      for (int i = 0; i < kCorners; ++i) EXPECT_NEAR(obs[static_cast<size_t>(e) * 6 + i], 1.0, fp64 ? 1e-6 : 1e-4) << e;
    }
  }
}

// A ce path-following episode under a plain pursuit controller (steer toward the look-ahead point
// 10 m ahead, hold 8 m/s) runs its 15 s to the time limit in every env: no divergence, no
// rollover, on the road, finite observations throughout, progress rewarded.
TEST(CeVectorEnv, PathFollowingEpisodeRunsWithoutDivergence) {
  VectorEnvConfig c = ce_config(4);
  c.time_limit = 15.0;
  VectorEnv env(c);
  const int n = c.num_envs, dim = env.observation_size();
  const int ahead_x = column(env, "lookahead2.x"), ahead_y = column(env, "lookahead2.y");
  const int speed = column(env, "body_velocity.x"), lateral = column(env, "lateral_error");
  std::vector<int> reason(n, -1), length(n, 0);
  std::vector<float> episode_return(n, 0.0f);
  double worst_lateral = 0.0;
  for (int k = 0; k < 800 && *std::min_element(reason.begin(), reason.end()) < 0; ++k) {
    const std::vector<float> obs = env.read_observations();
    std::vector<float> a(static_cast<size_t>(n) * 3);
    for (int e = 0; e < n; ++e) {
      const float* row = obs.data() + static_cast<size_t>(e) * dim;
      for (int j = 0; j < dim; ++j) ASSERT_TRUE(std::isfinite(row[j])) << "env " << e << " step " << k;
      worst_lateral = std::max(worst_lateral, std::fabs(row[lateral]) * c.road_half_width);
      const float error = 8.0f - 10.0f * row[speed];
      a[static_cast<size_t>(e) * 3] = std::clamp(2.0f * std::atan2(row[ahead_y], row[ahead_x]), -1.0f, 1.0f);
      a[static_cast<size_t>(e) * 3 + 1] = std::clamp(0.3f * error, 0.0f, 1.0f);
      a[static_cast<size_t>(e) * 3 + 2] = std::clamp(-0.3f * error, 0.0f, 1.0f);
    }
    env.step(a.data());
    const std::vector<uint8_t> ended = env.read_has_final();
    const std::vector<int32_t> why = env.read_end_reasons(), steps = env.read_final_lengths();
    const std::vector<float> returns = env.read_final_returns();
    for (int e = 0; e < n; ++e) {
      if (ended[e] && reason[e] < 0) {
        reason[e] = why[e];
        length[e] = steps[e];
        episode_return[e] = returns[e];
      }
    }
  }
  for (int e = 0; e < n; ++e) {
    EXPECT_EQ(reason[e], env::kTimeLimit) << "env " << e;
    EXPECT_EQ(length[e], env.max_episode_steps()) << "env " << e;
    EXPECT_GT(episode_return[e], 100.0f) << "env " << e;  // ~120 m of progress at 8 m/s, small penalties
  }
  EXPECT_LT(worst_lateral, 2.0);
}

// Both models are the HMMWV: the ce env's static loads (its rest state's tire forces) match the
// strut env's (moment balance of its lumped parameters) within 3 % per corner (the ce vehicle is
// 0.9 % heavier: Chrono's body list against the lumped total), and the first observation of the
// same episode (same seed: same track, start offsets and speed) agrees feature by feature within
// 1e-3 (ce's chassis rests pitched by 0.3 mrad; wheel speeds differ by the rolling radius under
// the two loads), as after 0.5 s of coasting within 2e-3.
TEST(CeVectorEnv, AgreesWithTheStrutEnvOnTheSameVehicle) {
  VectorEnvConfig c = ce_config(4);
  c.precision = Precision::Fp64;
  c.use_default_randomization = false;
  c.observations = {"body_velocity", "roll_pitch", "yaw_rate", "wheel_speeds", "wheel_loads", "steering", "pedals",
                    "path_errors", "lookahead"};
  VectorEnv ce(c);
  c.model = VehicleModel::Strut;
  VectorEnv strut(c);
  const std::vector<double> ce_loads = ce.read_static_loads(), strut_loads = strut.read_static_loads();
  for (size_t j = 0; j < ce_loads.size(); ++j) EXPECT_NEAR(ce_loads[j], strut_loads[j], 0.03 * strut_loads[j]) << j;
  const std::vector<std::string> names = ce.observation_names();
  std::vector<float> a = ce.read_observations(), b = strut.read_observations();
  ASSERT_EQ(a.size(), b.size());
  for (size_t j = 0; j < a.size(); ++j) EXPECT_NEAR(a[j], b[j], 1e-3) << names[j % names.size()];
  const std::vector<float> coast(12, 0.0f);
  for (int k = 0; k < 25; ++k) {
    ce.step(coast.data());
    strut.step(coast.data());
  }
  a = ce.read_observations();
  b = strut.read_observations();
  for (size_t j = 0; j < a.size(); ++j) EXPECT_NEAR(a[j], b[j], 2e-3) << names[j % names.size()];
}

TEST(CeVectorEnv, ExactPerEnvValuesAndBadParametersNameTheField) {
  VectorEnvConfig c = ce_config(3);
  c.use_default_randomization = false;
  c.precision = Precision::Fp64;
  VectorEnv env(c);
  env.set_base_param("chassis_mass", {1900.0, 2100.0, 2300.0});
  env.reset();
  const std::vector<double> mass = env.episode_param("chassis_mass"), loads = env.read_static_loads();
  const CeParams<double> base = hmmwv_ce_params();
  for (int e = 0; e < 3; ++e) {
    EXPECT_EQ(mass[e], 1900.0 + 200.0 * e);
    double sum = 0.0;
    for (int i = 0; i < kCorners; ++i) sum += loads[static_cast<size_t>(i) * 3 + e];
    const double weight = (ce_total_mass(base) - base.chassis_mass + mass[e]) * base.gravity;
    EXPECT_NEAR(sum, weight, 1e-6 * weight);
  }
  CeParams<double> soft = hmmwv_ce_params();
  soft.axle[1].spring_rate *= 0.8;
  env.set_base_params(std::vector<CeParams<double>>{soft});
  env.reset();
  EXPECT_EQ(env.episode_param("spring_rate_rear")[1], soft.axle[1].spring_rate);
  EXPECT_THROW(env.set_base_params(std::vector<VehicleParams<double>>{hmmwv_params()}), Error);
  EXPECT_THROW(env.set_base_param("total_mass", {2500.0}), Error);  // a strut name
  EXPECT_THROW(env.set_base_param("chassis_mass", {1.0}), Error);   // below the field's range
  EXPECT_THROW(VectorEnv(small_config()).set_base_params(std::vector<CeParams<double>>{hmmwv_ce_params()}), Error);

  const auto message = [](std::vector<ParamRandomization> randomize) {
    VectorEnvConfig bad = ce_config(2);
    bad.randomize = std::move(randomize);
    try {
      VectorEnv e(bad);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string m = message({{"bump_stop_length_front", 0.9, 1.1, true}});
  EXPECT_NE(m.find("randomize[5] (bump_stop_length_front): not randomizable in the ce env"), std::string::npos) << m;
  EXPECT_NE(m.find("randomizable: chassis_mass"), std::string::npos) << m;
  m = message({{"max_steer", 0.9, 1.1, true}});
  EXPECT_NE(m.find("(max_steer): not randomizable"), std::string::npos) << m;
  m = message({{"total_mass", 0.9, 1.1, true}});
  EXPECT_NE(m.find("unknown ce parameter 'total_mass'"), std::string::npos) << m;
  m = message({{"tire.mu", 0.5, 4.0, false}});
  EXPECT_NE(m.find("(tire.mu): draws [0.5, 4] -, outside the allowed"), std::string::npos) << m;
  m = message({{"chassis_mass", 0.5, 3.0, true}});  // a 6.3 t chassis on the HMMWV's springs
  EXPECT_NE(m.find("chassis_mass = 6275"), std::string::npos) << m;
  EXPECT_NE(m.find("no static equilibrium found"), std::string::npos) << m;
  m = message({{"spring_free_length_front", 0.3, 1.0, true}});  // free length below the bump stop's 0.15 m
  EXPECT_NE(m.find("makes an invalid vehicle"), std::string::npos) << m;
  EXPECT_NE(m.find("spring_free_length_front"), std::string::npos) << m;
  m = message({{"wheel_mass", 0.9, 1.1, true}, {"gravity", 9.7, 9.9, false}, {"chassis_com_x", 0.0, 0.1, false},
               {"chassis_com_y", -0.01, 0.01, false}, {"chassis_inertia_xx", 0.9, 1.1, true},
               {"chassis_inertia_yy", 0.9, 1.1, true}});  // 6 + the default's 4 statics fields: 10, the limit
  EXPECT_EQ(m, "no error");
  m = message({{"wheel_mass", 0.9, 1.1, true}, {"gravity", 9.7, 9.9, false}, {"chassis_com_x", 0.0, 0.1, false},
               {"chassis_com_y", -0.01, 0.01, false}, {"chassis_inertia_xx", 0.9, 1.1, true},
               {"chassis_inertia_yy", 0.9, 1.1, true}, {"chassis_inertia_zz", 0.9, 1.1, true}});
  EXPECT_NE(m.find("at most 10 of the ce parameters that move the rest state"), std::string::npos) << m;
}

TEST(CeVectorEnv, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  VectorEnvConfig c = ce_config(64);
  c.precision = Precision::Fp64;
  c.time_limit = 0.4;  // autoresets: the rest-state solve runs on the device too
  VectorEnv cpu(c);
  c.backend = BackendKind::Cuda;
  VectorEnv gpu(c);
  EXPECT_EQ(gpu.buffer_space(), MemorySpace::Device);
  const std::vector<double> loads_cpu = cpu.read_static_loads(), loads_gpu = gpu.read_static_loads();
  // The two Newton solves agree to their tolerance (1e-9 m/s^2, ~1e-11 m of tire deflection).
  for (size_t j = 0; j < loads_cpu.size(); ++j) EXPECT_NEAR(loads_cpu[j], loads_gpu[j], 1e-8 * loads_cpu[j]) << j;
  expect_cuda_runs_match_cpu(cpu, gpu, c);
  // fp32 on the device: the rest solve still runs in fp64 there; a rerun is bit-identical.
  c.precision = Precision::Fp32;
  VectorEnv a32(c), b32(c);
  EXPECT_EQ(run(a32, 30), run(b32, 30));
}

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
