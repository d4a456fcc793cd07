// The ce model in the vector env: the check of a randomization against the base sets, which
// solves the rest state at the corners of the randomized box (host/ce/ce_env.h).
#include "host/ce/ce_env.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fleetdyn/ce.h"
#include "fleetdyn/ce_fields.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/ce/ce_rest.h"

namespace fleetdyn {

using env_checks::num;
using env_checks::require;

namespace {

// ce fields that move the rest state or enter a validity check of finalize_ce_params (inertias,
// the spring's free length against the bump stop): the host solves the rest state at every
// corner of their randomized box. The others (tire slip, damping, driveline, brakes, steering
// lag) only need their range.
const std::vector<std::string>& ce_statics_fields() {
  static const std::vector<std::string> names = {"chassis_mass",
                                                 "chassis_com_x",
                                                 "chassis_com_y",
                                                 "chassis_com_z",
                                                 "chassis_inertia_xx",
                                                 "chassis_inertia_yy",
                                                 "chassis_inertia_zz",
                                                 "wheel_mass",
                                                 "wheel_spin_inertia",
                                                 "wheel_transverse_inertia",
                                                 "spring_free_length_front",
                                                 "spring_free_length_rear",
                                                 "spring_rate_front",
                                                 "spring_rate_rear",
                                                 "spring_cubic_front",
                                                 "spring_cubic_rear",
                                                 "gravity",
                                                 "tire.unloaded_radius",
                                                 "tire.vertical_stiffness"};
  return names;
}

constexpr int kMaxCeStaticsRandomized = 10;  // 2^10 rest-state solves at construction, ~1 s

}  // namespace

// Every draw inside the field's allowed range; and at every corner of the box the
// statics fields (ce_statics_fields) span, a valid vehicle (finalize_ce_params) whose rest state
// exists (the Newton solve the device runs converges), stands on all four tires and rests inside
// the suspension's travel limits. The validity checks are convex in the parameters (inertia
// tensors, linear inequalities) and the rest state is smooth in them, so the corners stand for
// the box. Base sets that differ only in statics values (e.g. a chassis mass per env) share one
// box, the envelope of their ranges, so per-env values cost no more than one set.
void CeEnv::check_bases(const std::vector<ParamRandomization>& set, const std::vector<CeParams<double>>& bases) {
  const std::vector<std::string>& statics = ce_statics_fields();
  struct Box {
    CeParams<double> representative;
    std::vector<double> lo, hi;  // per statics field
    size_t first_base;
  };
  std::vector<Box> boxes;
  std::map<std::string, size_t> box_of;  // the base's bytes with the statics fields zeroed
  for (size_t b = 0; b < bases.size(); ++b) {
    std::vector<double> lo(statics.size()), hi(statics.size());
    for (size_t k = 0; k < statics.size(); ++k) lo[k] = hi[k] = ce_param(bases[b], statics[k]);
    for (size_t r = 0; r < set.size(); ++r) {
      const auto range = env_checks::checked_draw_range<CeHost>(set[r], r, bases[b], b, bases.size());
      const auto it = std::find(statics.begin(), statics.end(), set[r].name);
      if (it != statics.end()) {
        lo[static_cast<size_t>(it - statics.begin())] = range.first;
        hi[static_cast<size_t>(it - statics.begin())] = range.second;
      }
    }
    CeParams<double> blank = bases[b];
    for (const std::string& name : statics) *ce_param_ptr(blank, name) = 0.0;
    const std::string key(reinterpret_cast<const char*>(&blank), sizeof blank);
    const auto found = box_of.find(key);
    if (found == box_of.end()) {
      box_of.emplace(key, boxes.size());
      boxes.push_back({bases[b], lo, hi, b});
    } else {
      Box& box = boxes[found->second];
      for (size_t k = 0; k < statics.size(); ++k) {
        box.lo[k] = std::min(box.lo[k], lo[k]);
        box.hi[k] = std::max(box.hi[k], hi[k]);
      }
    }
  }
  for (const Box& box : boxes) {
    std::vector<size_t> varying;
    for (size_t k = 0; k < statics.size(); ++k) {
      if (box.lo[k] != box.hi[k]) varying.push_back(k);
    }
    require(varying.size() <= static_cast<size_t>(kMaxCeStaticsRandomized), "randomize",
            "at most " + std::to_string(kMaxCeStaticsRandomized) +
                " of the ce parameters that move the rest state (masses, COM, inertias, springs, tire radius and "
                "stiffness, gravity) may vary at once (randomized or between base sets): the host checks the rest "
                "state at every corner of their range");
    const std::string of_set = boxes.size() > 1 ? " (base set " + std::to_string(box.first_base) + " and those like it)" : "";
    for (size_t corner = 0; corner < (size_t(1) << varying.size()); ++corner) {
      CeParams<double> p = box.representative;
      std::string at;
      for (size_t k = 0; k < statics.size(); ++k) *ce_param_ptr(p, statics[k]) = box.lo[k];
      for (size_t j = 0; j < varying.size(); ++j) {
        const size_t k = varying[j];
        const double value = (corner >> j) & 1u ? box.hi[k] : box.lo[k];
        *ce_param_ptr(p, statics[k]) = value;
        at += (at.empty() ? "" : ", ") + statics[k] + " = " + num(value);
      }
      const std::string where = (at.empty() ? std::string("the base vehicle") : "the draw " + at) + of_set;
      try {
        finalize_ce_params(p);
      } catch (const Error& e) {
        throw Error("VectorEnv: randomize: " + where + " makes an invalid vehicle: " + e.what());
      }
      std::vector<double> s(kCeStateSize);
      const CeRestSolution<double> rest = ce_rest_solve(p, 0.0, s.data());
      require(rest.converged, "randomize",
              where + ": no static equilibrium found (the rest-state Newton solve ends at residual " +
                  num(rest.residual) + ")");
      for (int i = 0; i < kCorners; ++i) {
        static const char* const kCornerNames[] = {"front left", "front right", "rear left", "rear right"};
        const CeAxleForces<double>& a = p.axle[i / 2];
        const double lca = s[ce::kLca + i];
        require(rest.tire_load[i] > 0.0, "randomize",
                where + ": the " + kCornerNames[i] + " tire carries no load at rest");
        require(lca > a.droop_limit_lca && lca < a.bump_limit_lca, "randomize",
                where + ": the " + kCornerNames[i] + " suspension rests on its travel limit (LCA angle " + num(lca) +
                    " rad, limits [" + num(a.droop_limit_lca) + ", " + num(a.bump_limit_lca) + "])");
      }
    }
  }
}

}  // namespace fleetdyn
