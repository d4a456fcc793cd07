// From a study's sample index to the vehicle it simulates: the unit-cube point of the sampling
// design, the parameter values (inverse CDFs), and the vehicle's parameters, initial condition
// and maneuver scaling. Everything depends on the sample index alone, never on the chunking.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/scenario/scenario.h"

namespace fleetdyn::study {

// The study's design: a SampleDesign, or a SaltelliDesign with Sobol sensitivity.
class StudyDesign {
 public:
  explicit StudyDesign(const StudySpec& spec);
  ~StudyDesign();
  int64_t run_count() const { return run_count_; }
  // The parameter values of run `index` (dimensions() of them), in the order of spec.parameters.
  void values(int64_t index, double* out) const;
  // The sample run `index` belongs to: itself, or with Sobol sensitivity its base sample (the
  // d + 2 runs of a base sample share what is not a sampled parameter: the road's stretch).
  int64_t base_sample(int64_t index) const;

 private:
  const StudySpec& spec_;
  int64_t run_count_;
  std::unique_ptr<SampleDesign> plain_;
  std::unique_ptr<SaltelliDesign> saltelli_;
};

struct SampleSetup {
  bool valid = true;
  std::string invalid_reason;  // when !valid: which parameter, and why
  ModelParams params;          // finalized
  InitialCondition initial;
  double steer_scale = 1.0, time_scale = 1.0;
  SteerProgram program;  // the scenario's programmed driver with the sampled values
  TerrainVariation<double> terrain{0.0, 0.0, 1.0, 0, {}, 0.0, 0.0};  // its own terrain (sample_terrain_varies)
};

// Whether the samples of scenario s meet their own variation of its terrain: a per-sample rough
// road, or a sampled terrain.class / roughness / relief_scale / offset_x / offset_y.
bool sample_terrain_varies(const Scenario& s);

// The vehicle of one sample of scenario s with the sampled values. `sample` (the base sample,
// StudyDesign::base_sample) keys its stretch of a per-sample rough road: Philox stream
// kStreamRoad of (study seed, sample), dimensions 0 and 1 the shift along x and y as fractions
// of the road tile's length and width, dimension 2 below 1/2 turns the road's sign.
SampleSetup sample_setup(const Scenario& s, const double* values, int64_t sample);

// The maneuver table with steer scaled (saturating at +-1) and times stretched.
Maneuver scaled_maneuver(const Maneuver& m, double steer_scale, double time_scale);

// The batch of these (valid) samples, in this order: their parameters and drivers (their
// programs, their scaled tables, or the scenario's path), placed at their initial conditions.
Batch sample_batch(const Scenario& s, const std::vector<const SampleSetup*>& setups);

}  // namespace fleetdyn::study
