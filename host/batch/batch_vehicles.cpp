// Batch: placing vehicles on the terrain and reading them back (snapshots, energy, the strut
// model's diagnostics), each per model through its host traits (host/batch/batch_model.h).
#include <cmath>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "fleetdyn/batch.h"
#include "fleetdyn/error.h"
#include "fleetdyn/physics/strut/strut_model.h"
#include "host/batch/batch_impl.h"

namespace fleetdyn {

void run_in_parts(int n, int threads, const std::function<void(int, int)>& work) {
  std::vector<std::exception_ptr> failure(static_cast<size_t>(threads));
  std::vector<std::thread> workers;
  for (int w = 0; w < threads; ++w) {
    workers.emplace_back([&, w] {
      try {
        work(static_cast<int>(static_cast<long long>(n) * w / threads),
             static_cast<int>(static_cast<long long>(n) * (w + 1) / threads));
      } catch (...) {
        failure[static_cast<size_t>(w)] = std::current_exception();
      }
    });
  }
  for (std::thread& t : workers) t.join();
  for (const std::exception_ptr& e : failure) {
    if (e) std::rethrow_exception(e);
  }
}

void Batch::set_initial_conditions(const std::vector<InitialCondition>& initial) {
  Impl& b = *impl_;
  b.check_length(initial, "initial conditions");
  const int n = b.vehicle_count;
  for (int v = 0; v < static_cast<int>(initial.size()); ++v) {
    const InitialCondition& ic = initial[static_cast<size_t>(v)];
    if (!std::isfinite(ic.x) || !std::isfinite(ic.y) || !std::isfinite(ic.yaw) || !std::isfinite(ic.speed) ||
        !std::isfinite(ic.lateral_speed)) {
      throw Error("initial conditions: vehicle " + std::to_string(v) + " has a non-finite value");
    }
  }
  std::vector<double> state(static_cast<size_t>(b.state_size()) * n), origin(2 * static_cast<size_t>(n));
  b.vehicles->place(
      initial, n, b.options.cpu_threads, [&b](int v) { return b.terrain_of(v); }, state, origin);
  b.typed->set_vehicles(state, origin);
}

std::vector<VehicleSnapshot> Batch::snapshots() {
  Impl& b = *impl_;
  const int n = b.vehicle_count;
  const int size = b.state_size();
  std::vector<double> s, o;
  std::vector<int> status, counts;
  b.typed->read(&s, &o, nullptr, &status, &counts);
  std::vector<VehicleSnapshot> out(n);
  const RigidStateLayout* rigid = b.vehicles->rigid_state();
  if (!rigid) {
    for (int v = 0; v < n; ++v) {
      const std::vector<double> col = b.column(s, v, size);
      VehicleSnapshot& snap = out[v];
      snap.time = counts[v] * b.options.step;
      snap.status = status[v];
      b.vehicles->snapshot(v, col.data(), o[v], o[n + v], snap);
    }
    return out;
  }
  // A rigid-body state: the frame's pose and motion, moved to the COM where the frame is not it.
  const bool off_com = rigid->frame_off_com;
  const int pos = rigid->pos, quat = rigid->quat;
  const int vel = rigid->vel, omega_at = rigid->omega;
  const int spin = rigid->wheel_spin;
  for (int v = 0; v < n; ++v) {
    auto at = [&](int j) { return s[static_cast<size_t>(j) * n + v]; };
    auto vec_at = [&](int j) { return Vec3<double>{at(j), at(j + 1), at(j + 2)}; };
    VehicleSnapshot& snap = out[v];
    snap.time = counts[v] * b.options.step;
    snap.status = status[v];
    const Quat<double> q = normalized(Quat<double>{at(quat), at(quat + 1), at(quat + 2), at(quat + 3)});
    const Vec3<double> omega = vec_at(omega_at);
    Vec3<double> com = vec_at(pos), com_vel = vec_at(vel);
    if (off_com) {
      const Mat3<double> rot = rotation_matrix(q);
      const Vec3<double> com_offset = b.vehicles->com_offset(v);
      com += rot * com_offset;
      com_vel = rot * (com_vel + cross(omega, com_offset));
    }
    const Vec3<double> e = euler_zyx(q);
    snap.position = {o[v] + com.x, o[n + v] + com.y, com.z};
    snap.euler = {e.x, e.y, e.z};
    snap.velocity = {com_vel.x, com_vel.y, com_vel.z};
    snap.omega_body = {omega.x, omega.y, omega.z};
    for (int i = 0; i < kCorners; ++i) snap.wheel_spin[i] = at(spin + i);
  }
  return out;
}

double Batch::mechanical_energy(int vehicle) {
  Impl& b = *impl_;
  b.check_vehicle(vehicle);
  std::vector<double> s, o;
  b.typed->read(&s, &o, nullptr, nullptr, nullptr);
  return b.vehicles->mechanical_energy(vehicle, b.terrain_of(vehicle), o[vehicle], o[b.vehicle_count + vehicle],
                                       b.column(s, vehicle, b.state_size()));
}

EnergyLedger<double> Batch::energy(int vehicle) {
  Impl& b = *impl_;
  b.require_strut("energy()");
  b.check_vehicle(vehicle);
  std::vector<double> s, o;
  b.typed->read(&s, &o, nullptr, nullptr, nullptr);
  const std::vector<double> col = b.column(s, vehicle, kStrutStateSize);
  return strut_energy(*b.vehicles->strut_params(vehicle), b.terrain_of(vehicle), o[vehicle],
                      o[b.vehicle_count + vehicle], col.data());
}

StrutDiagnostics<double> Batch::diagnostics(int vehicle) {
  Impl& b = *impl_;
  b.require_strut("diagnostics()");
  b.check_vehicle(vehicle);
  const StrutParams<double>& p = *b.vehicles->strut_params(vehicle);
  std::vector<double> s, o;
  std::vector<int> counts;
  b.typed->read(&s, &o, nullptr, nullptr, &counts);
  const std::vector<double> col = b.column(s, vehicle, kStrutStateSize);
  const DriverInput<double> input = clamped(b.typed->current_input(vehicle, counts[vehicle] * b.options.step));
  const TerrainDesc<double> ground = b.terrain_of(vehicle);
  const StrutEnvironment<double> env(p, &ground, o[vehicle], o[b.vehicle_count + vehicle], input);
  double ds[kStrutStateSize];
  StrutDiagnostics<double> diag{};
  strut_derivative(p, env, input, col.data(), ds, &diag);
  return diag;
}

void Batch::set_vehicle_state(int vehicle, const std::vector<double>& state) {
  impl_->check_vehicle(vehicle);
  if (state.size() != static_cast<size_t>(impl_->state_size())) {
    throw Error("set_vehicle_state: expected " + std::to_string(impl_->state_size()) + " values, got " +
                std::to_string(state.size()));
  }
  impl_->typed->write_vehicle_state(vehicle, state);
}

}  // namespace fleetdyn
