// A Batch's per-model part: its vehicles' parameters in the model's own form and the per-model
// work of the batch (placing vehicles, reading them back, energy), each done by the model's host
// traits (host/<model>/<model>_host.h) behind one model-independent face. Made through the
// dispatch with_model (host/batch/vehicle_models.h) or, in Batch's typed constructors, from the traits.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "fleetdyn/batch.h"
#include "host/batch/typed_batch.h"
#include "host/batch/vehicle_models.h"

namespace fleetdyn {

class BatchModel {
 public:
  virtual ~BatchModel() = default;
  virtual VehicleModel model() const = 0;
  virtual int state_size() const = 0;
  virtual bool contact_requery_optional() const = 0;
  virtual size_t param_count() const = 0;  // 1 (shared) or one per vehicle
  // The tire, driveline and brakes every model shares, of vehicle v.
  virtual const VehicleCommon<double>& common(int v) const = 0;
  // Checks parameter set i (of param_count()); throws fleetdyn::Error naming `what` and the field.
  virtual void check_params(size_t i, const std::string& what) const = 0;
  // A model's own parameter sets, or null where the model has none of that kind.
  virtual const StrutParams<double>* strut_params(int v) const = 0;
  virtual const CeParams<double>* ce_params(int v) const = 0;
  virtual const PgsVehicleParams<double>* pgs_params(int v) const = 0;
  // Builds what the step needs once the options and terrain are known, then the typed batch.
  virtual std::unique_ptr<TypedBatch> make_typed(int n, const TerrainSpec& terrain, const BatchOptions& options,
                                                 BackendKind backend) = 0;
  // The state and origin of vehicles at rest at their initial conditions; `terrain_of(v)` is the
  // ground vehicle v meets. Writes [state_size][n] and [2][n].
  virtual void place(const std::vector<InitialCondition>& initial, int n, int cpu_threads,
                     const std::function<TerrainDesc<double>(int)>& terrain_of, std::vector<double>& state,
                     std::vector<double>& origin) const = 0;
  // Where the state holds a rigid body's pose and motion (strut, ce), or null (pgs: snapshot()).
  virtual const RigidStateLayout* rigid_state() const = 0;
  // The body COM in the rigid-state frame of vehicle v (RigidStateLayout::frame_off_com).
  virtual Vec3<double> com_offset(int v) const = 0;
  // Vehicle v read back from its state column s (state_size values), where rigid_state() is null.
  virtual void snapshot(int v, const double* s, double origin_x, double origin_y, VehicleSnapshot& snap) const = 0;
  virtual double mechanical_energy(int v, const TerrainDesc<double>& ground, double origin_x, double origin_y,
                                   const std::vector<double>& s) const = 0;
};

// Runs work(first, last) over vehicles [0, n) in `threads` parts; the first failure by vehicle
// order is rethrown, whatever the thread timing.
void run_in_parts(int n, int threads, const std::function<void(int, int)>& work);

template <class Host>
class ModelBatchOf final : public BatchModel {
 public:
  explicit ModelBatchOf(std::vector<typename Host::Def> defs) : vehicles_(Host::vehicles(std::move(defs))) {}

  VehicleModel model() const override { return Host::kModel; }
  int state_size() const override { return Host::kStateSize; }
  bool contact_requery_optional() const override { return Host::kContactRequeryOptional; }
  size_t param_count() const override { return Host::count(vehicles_); }
  const VehicleCommon<double>& common(int v) const override { return Host::common(vehicles_, v); }
  void check_params(size_t i, const std::string& what) const override {
    Host::check(Host::checked_params(vehicles_, static_cast<int>(i)), what);
  }
  const StrutParams<double>* strut_params(int v) const override { return Host::strut_params(vehicles_, v); }
  const CeParams<double>* ce_params(int v) const override { return Host::ce_params(vehicles_, v); }
  const PgsVehicleParams<double>* pgs_params(int v) const override { return Host::pgs_params(vehicles_, v); }

  std::unique_ptr<TypedBatch> make_typed(int n, const TerrainSpec& terrain, const BatchOptions& options,
                                         BackendKind backend) override {
    Host::prepare(vehicles_, options, terrain.desc);
    return fleetdyn::make_typed<Host>(Host::kernel_params(vehicles_), n, terrain, options, backend);
  }

  void place(const std::vector<InitialCondition>& initial, int n, int cpu_threads,
             const std::function<TerrainDesc<double>(int)>& terrain_of, std::vector<double>& state,
             std::vector<double>& origin) const override {
    const int size = Host::kStateSize;
    const typename Host::Placement plan = Host::placement(vehicles_, initial);
    // Vehicles [first, last): each writes only its own columns.
    const auto work = [&](int first, int last) {
      std::vector<double> s(size);
      for (int v = first; v < last; ++v) {
        const InitialCondition& ic = initial[initial.size() == 1 ? 0 : v];
        double ox, oy;
        Host::place(vehicles_, plan, v, ic, terrain_of(v), s, &ox, &oy);
        for (int j = 0; j < size; ++j) state[static_cast<size_t>(j) * n + v] = s[j];
        origin[v] = ox;
        origin[n + v] = oy;
      }
    };
    const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const int threads = plan.parallel && n >= 64 ? std::min(n / 32, cpu_threads > 0 ? cpu_threads : hardware) : 1;
    if (threads <= 1) {
      work(0, n);
    } else {
      run_in_parts(n, threads, work);
    }
  }

  const RigidStateLayout* rigid_state() const override { return Host::kRigidState; }
  Vec3<double> com_offset(int v) const override { return Host::com_offset(vehicles_, v); }
  void snapshot(int v, const double* s, double origin_x, double origin_y, VehicleSnapshot& snap) const override {
    Host::snapshot(vehicles_, v, s, origin_x, origin_y, snap);
  }
  double mechanical_energy(int v, const TerrainDesc<double>& ground, double origin_x, double origin_y,
                           const std::vector<double>& s) const override {
    return Host::mechanical_energy(vehicles_, v, ground, origin_x, origin_y, s);
  }

 private:
  typename Host::Vehicles vehicles_;
};

}  // namespace fleetdyn
