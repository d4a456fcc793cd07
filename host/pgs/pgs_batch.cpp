// PgsBatch: checks its inputs, picks the backend, converts between the API's doubles and the
// batch's precision.
#include <cmath>
#include <string>

#include "fleetdyn/error.h"
#include "fleetdyn/pgs.h"
#include "host/pgs/pgs_engine.h"

namespace fleetdyn {

struct PgsBatch::Impl {
  PgsModelDef model;
  PgsSolverSettings settings;
  PgsBatchOptions options;
  std::vector<PgsRowDesc> rows;
  int n = 0;
  int state_size = 0;
  BackendKind backend = BackendKind::Cpu;
  std::unique_ptr<PgsEngine<float>> engine32;
  std::unique_ptr<PgsEngine<double>> engine64;

  template <class T>
  PgsEngine<T>& engine();

  template <class T>
  void start() {
    const PgsModelData<T> data = build_pgs_model<T>(model, settings);
    std::unique_ptr<PgsEngine<T>> e = backend == BackendKind::Cuda ? make_pgs_cuda_engine<T>(options.cuda_warp_per_system)
                                                                   : make_pgs_cpu_engine<T>(options.cpu_threads);
    const std::vector<double> one = pgs_system_state(model, pgs_initial_bodies(model), static_cast<int>(rows.size()), 0.0);
    PgsHostArrays<T> arrays;
    arrays.state.resize(static_cast<size_t>(state_size) * static_cast<size_t>(n));
    for (int j = 0; j < state_size; ++j)
      for (int s = 0; s < n; ++s) arrays.state[static_cast<size_t>(j) * n + s] = T(one[static_cast<size_t>(j)]);
    arrays.status.assign(static_cast<size_t>(n), 0);
    arrays.iterations.assign(static_cast<size_t>(n), 0);
    arrays.report.assign(static_cast<size_t>(pgs::kReportFieldCount) * n, T(0));
    e->init(data, n, arrays);
    if constexpr (std::is_same_v<T, float>) engine32 = std::move(e);
    else engine64 = std::move(e);
  }

  template <class T>
  PgsHostArrays<T> read() {
    PgsHostArrays<T> a;
    engine<T>().read(&a);
    return a;
  }

  void check_system(int system) const {
    if (system < 0 || system >= n) {
      throw Error("pgs batch: system " + std::to_string(system) + " out of range [0, " + std::to_string(n) + ")");
    }
  }
};

template <>
PgsEngine<float>& PgsBatch::Impl::engine<float>() {
  return *engine32;
}
template <>
PgsEngine<double>& PgsBatch::Impl::engine<double>() {
  return *engine64;
}

namespace {

template <class F>
auto with_precision(PgsBatch::Impl& impl, F&& f) {
  if (impl.options.precision == Precision::Fp32) return f(float{});
  return f(double{});
}

}  // namespace

PgsBatch::PgsBatch(const PgsModelDef& model, int system_count, const PgsSolverSettings& settings, const PgsBatchOptions& options)
    : impl_(std::make_unique<Impl>()) {
  if (system_count < 1) throw Error("pgs batch: system_count must be >= 1, got " + std::to_string(system_count));
  validate_pgs_model(model, settings);
  impl_->model = model;
  impl_->settings = settings;
  impl_->options = options;
  impl_->rows = pgs_row_descs(model);
  impl_->n = system_count;
  impl_->state_size = pgs::state_size(static_cast<int>(model.bodies.size()), static_cast<int>(impl_->rows.size()));
  std::string why;
  if (options.backend == BackendKind::Cuda) {
    if (!pgs_cuda_device_usable(&why)) throw Error("pgs batch: backend 'cuda' requested but " + why);
    impl_->backend = BackendKind::Cuda;
  } else if (options.backend == BackendKind::Auto) {
    impl_->backend = pgs_cuda_device_usable(&why) ? BackendKind::Cuda : BackendKind::Cpu;
  } else {
    impl_->backend = BackendKind::Cpu;
  }
  with_precision(*impl_, [&](auto zero) { impl_->start<decltype(zero)>(); });
}

PgsBatch::~PgsBatch() = default;
PgsBatch::PgsBatch(PgsBatch&&) noexcept = default;
PgsBatch& PgsBatch::operator=(PgsBatch&&) noexcept = default;

int PgsBatch::system_count() const { return impl_->n; }
int PgsBatch::body_count() const { return static_cast<int>(impl_->model.bodies.size()); }
int PgsBatch::row_count() const { return static_cast<int>(impl_->rows.size()); }
const std::vector<PgsRowDesc>& PgsBatch::rows() const { return impl_->rows; }
BackendKind PgsBatch::backend() const { return impl_->backend; }
Precision PgsBatch::precision() const { return impl_->options.precision; }
const std::string& PgsBatch::device_name() const {
  return impl_->engine32 ? impl_->engine32->device_name() : impl_->engine64->device_name();
}

void PgsBatch::step(int n) {
  if (n < 0) throw Error("pgs batch: step count must be >= 0, got " + std::to_string(n));
  if (n == 0) return;
  with_precision(*impl_, [&](auto zero) { impl_->engine<decltype(zero)>().step(n); });
}

void PgsBatch::synchronize() {
  with_precision(*impl_, [&](auto zero) { impl_->engine<decltype(zero)>().synchronize(); });
}

std::vector<PgsBodyState> PgsBatch::bodies(int system) {
  impl_->check_system(system);
  return with_precision(*impl_, [&](auto zero) {
    using T = decltype(zero);
    const PgsHostArrays<T> a = impl_->read<T>();
    const int n = impl_->n;
    auto at = [&](int j) { return double(a.state[static_cast<size_t>(j) * n + system]); };
    std::vector<PgsBodyState> out;
    for (int i = 0; i < body_count(); ++i) {
      auto f = [&](int k) { return at(pgs::body_field(i, k)); };
      out.push_back({{f(pgs::kPx), f(pgs::kPy), f(pgs::kPz)},
                     {f(pgs::kQw), f(pgs::kQx), f(pgs::kQy), f(pgs::kQz)},
                     {f(pgs::kVx), f(pgs::kVy), f(pgs::kVz)},
                     {f(pgs::kWx), f(pgs::kWy), f(pgs::kWz)}});
    }
    return out;
  });
}

std::vector<double> PgsBatch::impulses(int system) {
  impl_->check_system(system);
  return with_precision(*impl_, [&](auto zero) {
    using T = decltype(zero);
    const PgsHostArrays<T> a = impl_->read<T>();
    std::vector<double> out;
    for (int r = 0; r < row_count(); ++r) {
      out.push_back(double(a.state[static_cast<size_t>(pgs::impulse_field(body_count(), r)) * impl_->n + system]));
    }
    return out;
  });
}

double PgsBatch::time(int system) {
  impl_->check_system(system);
  return with_precision(*impl_, [&](auto zero) {
    using T = decltype(zero);
    const PgsHostArrays<T> a = impl_->read<T>();
    return double(a.state[static_cast<size_t>(pgs::time_field(body_count(), row_count())) * impl_->n + system]);
  });
}

std::vector<PgsReport> PgsBatch::reports() {
  return with_precision(*impl_, [&](auto zero) {
    using T = decltype(zero);
    const PgsHostArrays<T> a = impl_->read<T>();
    const int n = impl_->n;
    std::vector<PgsReport> out(static_cast<size_t>(n));
    for (int s = 0; s < n; ++s) {
      auto f = [&](int k) { return double(a.report[static_cast<size_t>(k) * n + s]); };
      out[static_cast<size_t>(s)] = {a.status[static_cast<size_t>(s)],
                                     a.iterations[static_cast<size_t>(s)],
                                     f(pgs::kReportResidualBilateral),
                                     f(pgs::kReportResidualComplementarity),
                                     f(pgs::kReportDrift),
                                     f(pgs::kReportPenetration)};
    }
    return out;
  });
}

void PgsBatch::set_state(int system, const std::vector<PgsBodyState>& bodies, double time) {
  impl_->check_system(system);
  if (!std::isfinite(time)) throw Error("pgs batch: set_state time must be finite");
  const std::vector<double> one = pgs_system_state(impl_->model, bodies, row_count(), time);
  with_precision(*impl_, [&](auto zero) {
    using T = decltype(zero);
    PgsHostArrays<T> a = impl_->read<T>();
    const int n = impl_->n;
    for (int j = 0; j < impl_->state_size; ++j)
      a.state[static_cast<size_t>(j) * n + system] = T(one[static_cast<size_t>(j)]);
    a.status[static_cast<size_t>(system)] = 0;
    a.iterations[static_cast<size_t>(system)] = 0;
    for (int k = 0; k < pgs::kReportFieldCount; ++k) a.report[static_cast<size_t>(k) * n + system] = T(0);
    impl_->engine<T>().write(a);
  });
}

}  // namespace fleetdyn
