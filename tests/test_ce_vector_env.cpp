// The vector environment over the ce model: its rest state solved at every reset, its defaults,
// its randomization checks, and its observations against the strut env's on the same HMMWV.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
  ThreadCountRuns r = expect_same_whatever_the_thread_count(c, 40);
  EXPECT_EQ(r.pooled.read_state(), r.single.read_state());
  EXPECT_EQ(r.pooled.read_final_lengths(), std::vector<int32_t>(12, 15));  // the second episodes ended at step 30
  c.cpu_threads = 1;
  VectorEnv rerun(c);
  std::vector<float> rr;
  EXPECT_EQ(run(rerun, 40, &rr), r.single.read_observations());
  EXPECT_EQ(rr, r.single_rewards);
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
  c.observations = {"body_velocity", "roll_pitch", "yaw_rate",    "wheel_speeds", "wheel_loads",
                    "steering",      "pedals",     "path_errors", "lookahead"};
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
  EXPECT_THROW(env.set_base_params(std::vector<StrutParams<double>>{hmmwv_params()}), Error);
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
  m = message({{"wheel_mass", 0.9, 1.1, true},
               {"gravity", 9.7, 9.9, false},
               {"chassis_com_x", 0.0, 0.1, false},
               {"chassis_com_y", -0.01, 0.01, false},
               {"chassis_inertia_xx", 0.9, 1.1, true},
               {"chassis_inertia_yy", 0.9, 1.1, true}});  // 6 + the default's 4 statics fields: 10, the limit
  EXPECT_EQ(m, "no error");
  m = message({{"wheel_mass", 0.9, 1.1, true},
               {"gravity", 9.7, 9.9, false},
               {"chassis_com_x", 0.0, 0.1, false},
               {"chassis_com_y", -0.01, 0.01, false},
               {"chassis_inertia_xx", 0.9, 1.1, true},
               {"chassis_inertia_yy", 0.9, 1.1, true},
               {"chassis_inertia_zz", 0.9, 1.1, true}});
  EXPECT_NE(m.find("at most 10 of the ce parameters that move the rest state"), std::string::npos) << m;
}

// CUDA against the CPU at 64 envs and at awkward counts (13: a partial warp; 1001: a last warp
// of one env), fp64 and fp32.
struct CeEnvCudaCase {
  int envs;
  Precision precision;
};

class CeVectorEnvCuda : public ::testing::TestWithParam<CeEnvCudaCase> {};

TEST_P(CeVectorEnvCuda, CudaMatchesCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  VectorEnvConfig c = ce_config(GetParam().envs);
  c.precision = GetParam().precision;
  c.time_limit = 0.4;  // autoresets: the rest-state solve runs on the device too
  // 1001 envs: 12 steps with an autoreset at 5 (the CPU side ~4 s on a core).
  const bool many = c.num_envs > 64;
  if (many) c.time_limit = 0.1;
  VectorEnv cpu(c);
  c.backend = BackendKind::Cuda;
  VectorEnv gpu(c);
  EXPECT_EQ(gpu.buffer_space(), MemorySpace::Device);
  if (c.precision == Precision::Fp64) {  // fp32 keeps the loads in floats: no 1e-8 to compare at
    const std::vector<double> loads_cpu = cpu.read_static_loads(), loads_gpu = gpu.read_static_loads();
    // The two Newton solves agree to their tolerance (1e-9 m/s^2, ~1e-11 m of tire deflection).
    for (size_t j = 0; j < loads_cpu.size(); ++j) EXPECT_NEAR(loads_cpu[j], loads_gpu[j], 1e-8 * loads_cpu[j]) << j;
  }
  expect_cuda_runs_match_cpu(cpu, gpu, c, many ? 12 : 50);  // and a rerun on the device is bit-identical
}

INSTANTIATE_TEST_SUITE_P(Sizes, CeVectorEnvCuda, ::testing::ValuesIn(test::env_cuda_cases<CeEnvCudaCase>()),
                         test::env_cuda_case_name<CeEnvCudaCase>);

}  // namespace
}  // namespace fleetdyn
