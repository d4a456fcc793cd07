#include "host/study/sample_setup.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "fleetdyn/physics/core/math.h"
#include "fleetdyn/physics/core/philox.h"

namespace fleetdyn::study {

namespace {

std::string number_text(double v) {
  std::ostringstream o;
  o.precision(10);
  o << v;
  return o.str();
}

// A sampled soil parameter (terrain.soil.<field>) into the sample's own soil, which starts as the
// scenario's.
void set_sample_soil(TerrainVariation<double>& road, const SoilParams<double>& scenario_soil, const std::string& name,
                     double v) {
  if (!road.soil_varied) {
    road.soil = scenario_soil;
    road.soil_varied = 1;
  }
  const std::string field = name.substr(std::string("terrain.soil.").size());
  if (field == "friction_angle_deg") {
    road.soil.friction_angle = deg_to_rad(v);
    return;
  }
#define FLEETDYN_SAMPLE_SOIL_FIELD(unused, f) \
  if (field == #f) road.soil.f = v;
  FLEETDYN_SOIL_FIELDS(FLEETDYN_SAMPLE_SOIL_FIELD, )
#undef FLEETDYN_SAMPLE_SOIL_FIELD
}

// Runs a check that throws fleetdyn::Error; a failure marks the sample invalid with its message.
template <class Check>
bool passes(SampleSetup& out, Check check) {
  try {
    check();
    return true;
  } catch (const Error& e) {
    out.valid = false;
    out.invalid_reason = e.what();
    return false;
  }
}
}  // namespace

StudyDesign::StudyDesign(const StudySpec& spec) : spec_(spec), run_count_(spec.run_count()) {
  if (spec.sobol_sensitivity) {
    saltelli_ = std::make_unique<SaltelliDesign>(spec.sampling, spec.dimensions(), spec.samples, spec.seed);
  } else {
    plain_ = std::make_unique<SampleDesign>(spec.sampling, spec.dimensions(), spec.samples, spec.seed);
  }
}

StudyDesign::~StudyDesign() = default;

int64_t StudyDesign::base_sample(int64_t index) const { return saltelli_ ? index / (spec_.dimensions() + 2) : index; }

void StudyDesign::values(int64_t index, double* out) const {
  const int d = spec_.dimensions();
  std::vector<double> u(static_cast<size_t>(d));
  if (saltelli_) {
    saltelli_->unit_point(index, u.data());
  } else {
    plain_->unit_point(index, u.data());
  }
  for (int k = 0; k < d; ++k)
    out[k] = inverse_cdf(spec_.parameters[static_cast<size_t>(k)].distribution, u[static_cast<size_t>(k)]);
}

bool sample_terrain_varies(const Scenario& s) {
  if (s.terrain_per_sample) return true;
  for (const SampledParameter& p : s.study.parameters) {
    switch (p.target) {
      case SampleTarget::TerrainClass:
      case SampleTarget::TerrainRoughness:
      case SampleTarget::TerrainReliefScale:
      case SampleTarget::TerrainOffsetX:
      case SampleTarget::TerrainOffsetY:
      case SampleTarget::TerrainSoil: return true;
      case SampleTarget::TerrainCurbHeight:
      case SampleTarget::TerrainCurbOffset: return true;
      default: break;
    }
  }
  return false;
}

SampleSetup sample_setup(const Scenario& s, const double* values, int64_t sample) {
  SampleSetup out;
  out.params = s.params;
  out.initial = s.initial;
  out.program = s.driver.program;
  double yaw_deg = s.initial_yaw_deg;
  double mu_scale = -1.0;  // sampled terrain friction, if any
  TerrainVariation<double>& road = out.terrain;
  if (s.terrain_per_sample) {
    // The sample's own stretch of the periodic road tile, and its sign: a random-phase road and
    // its negative are equally likely (every phase moved by pi).
    const RoughRoadSettings& r = s.rough_road;
    const TerrainDesc<double>& d = s.terrain.desc;
    const auto u = [&](uint32_t dim) {
      return counter_uniform(s.study.seed, static_cast<uint64_t>(sample), dim, kStreamRoad);
    };
    road.shift_x = u(0) * (d.hf_nx - 1) * r.spacing_x;
    road.shift_y = u(1) * (d.hf_ny - 1) * r.spacing_y;
    road.relief_scale = u(2) < 0.5 ? -1.0 : 1.0;
  }
  double relief = 1.0;  // sampled height factor of the relief, if any
  const StudySpec& spec = s.study;
  for (int k = 0; k < spec.dimensions(); ++k) {
    const SampledParameter& p = spec.parameters[static_cast<size_t>(k)];
    const double v = values[k];
    if (!(v >= p.min && v <= p.max)) {
      out.valid = false;
      out.invalid_reason = p.name + " = " + number_text(v) + " is outside the allowed range [" + number_text(p.min) +
                           ", " + number_text(p.max) + "]";
      return out;
    }
    switch (p.target) {
      case SampleTarget::VehicleParam: *model_param_ptr(out.params, p.name) = v; break;
      case SampleTarget::InitialSpeed: out.initial.speed = v; break;
      case SampleTarget::InitialLateralSpeed: out.initial.lateral_speed = v; break;
      case SampleTarget::InitialYawDeg: yaw_deg = v; break;
      case SampleTarget::InitialX: out.initial.x = v; break;
      case SampleTarget::InitialY: out.initial.y = v; break;
      case SampleTarget::SteerScale: out.steer_scale = v; break;
      case SampleTarget::TimeScale: out.time_scale = v; break;
      case SampleTarget::MuScale: mu_scale = v; break;
      case SampleTarget::DriverAmplitude: out.program.amplitude = v; break;
      case SampleTarget::DriverRate: out.program.rate = v; break;
      case SampleTarget::DriverStartTime: out.program.start_time = v; break;
      // Heights scale with the square root of the PSD.
      case SampleTarget::TerrainClass: relief = std::sqrt(iso8608_class_psd(v) / rough_road_psd(s.rough_road)); break;
      case SampleTarget::TerrainRoughness: relief = std::sqrt(v / rough_road_psd(s.rough_road)); break;
      case SampleTarget::TerrainReliefScale: relief = v; break;
      case SampleTarget::TerrainOffsetX: road.shift_x = v; break;
      case SampleTarget::TerrainOffsetY: road.shift_y = v; break;
      case SampleTarget::TerrainSoil: set_sample_soil(road, s.terrain.desc.soil, p.name, v); break;
      case SampleTarget::TerrainCurbHeight: road.curb_rise = v - s.terrain.desc.curb_height; break;
      case SampleTarget::TerrainCurbOffset: road.curb_offset = v; break;
    }
  }
  road.relief_scale *= relief;
  if (road.soil_varied && !passes(out, [&] { check_soil_params(road.soil); })) return out;
  out.initial.yaw = deg_to_rad(yaw_deg);
  if (mu_scale >= 0.0) {
    // The tire's grip is mu * (surface factor): a sampled surface factor scales the tire's mu
    // relative to the scenario's surface (the batch's terrain keeps the scenario's factor).
    double* mu = model_param_ptr(out.params, "tire.mu");
    const double base = s.terrain.desc.mu_scale;
    *mu = base > 0.0 ? *mu * mu_scale / base : 0.0;
    for (const auto& f : model_param_fields(s.params.model())) {
      if (std::string(f.name) == "tire.mu" && !(*mu >= f.min && *mu <= f.max)) {
        out.valid = false;
        out.invalid_reason = "terrain.mu_scale = " + number_text(mu_scale) + " makes tire.mu " + number_text(*mu) +
                             ", outside its allowed range [" + number_text(f.min) + ", " + number_text(f.max) + "]";
        return out;
      }
    }
  }
  passes(out, [&] { finalize_model_params(out.params); });
  return out;
}

Maneuver scaled_maneuver(const Maneuver& m, double steer_scale, double time_scale) {
  Maneuver out = m;
  for (ManeuverPoint& p : out) {
    p.steer = std::clamp(p.steer * steer_scale, -1.0, 1.0);
    p.time *= time_scale;
  }
  return out;
}

namespace {

void apply_sample_drivers(Batch& batch, const Scenario& s, const std::vector<const SampleSetup*>& setups) {
  switch (s.driver.kind) {
    case DriverSpec::Kind::Path: apply_driver(batch, s.driver, s.maneuver); return;
    case DriverSpec::Kind::Program: {
      std::vector<SteerProgram> programs;
      for (const SampleSetup* su : setups) programs.push_back(su->program);
      batch.set_steer_program(programs);
      return;
    }
    case DriverSpec::Kind::Table: {
      bool scaled = false;
      for (const auto& p : s.study.parameters) {
        scaled = scaled || p.target == SampleTarget::SteerScale || p.target == SampleTarget::TimeScale;
      }
      if (!scaled) {
        batch.set_maneuvers({s.maneuver});
        return;
      }
      std::vector<Maneuver> tables;
      std::vector<int> vehicle_table;
      for (const SampleSetup* su : setups) {
        vehicle_table.push_back(static_cast<int>(tables.size()));
        tables.push_back(scaled_maneuver(s.maneuver, su->steer_scale, su->time_scale));
      }
      batch.set_maneuvers(tables, vehicle_table);
      return;
    }
  }
}

}  // namespace

Batch sample_batch(const Scenario& s, const std::vector<const SampleSetup*>& setups) {
  std::vector<InitialCondition> initial;
  for (const SampleSetup* su : setups) initial.push_back(su->initial);
  const int n = static_cast<int>(setups.size());
  const BatchOptions bo = scenario_batch_options(s);
  TerrainSpec terrain = s.terrain;
  if (sample_terrain_varies(s)) {
    for (const SampleSetup* su : setups) terrain.variation.push_back(su->terrain);
  }
  Batch batch = with_model(s.params.model(), [&](auto host) {
    using Host = decltype(host);
    std::vector<typename Host::Params> params;  // each sample's own
    for (const SampleSetup* su : setups) params.push_back(su->params.of<Host>());
    return Batch(Host::batch_defs(std::move(params), s.pgs), n, std::move(terrain), bo);
  });
  apply_sample_drivers(batch, s, setups);  // the driver first: set_initial_conditions starts the run
  batch.set_initial_conditions(initial);
  return batch;
}

}  // namespace fleetdyn::study
