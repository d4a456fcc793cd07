// fleetdyn.Batch.summary: Batch::summary (include/fleetdyn/batch.h) as a dict of numbers and
// numpy arrays. On CUDA the reduction runs on the device: only the summary crosses to the host.
#include "common.h"

namespace fleetdyn {
namespace py_bindings {

namespace {

SummaryRequest request_from(const Batch& b, const py::object& metrics, const py::object& quantiles,
                            const py::object& worst_by, const py::object& worst_count) {
  SummaryRequest r;
  if (!metrics.is_none()) {
    if (py::isinstance<py::str>(metrics) || !py::isinstance<py::sequence>(metrics)) {
      throw py::type_error("metrics: expected None (all) or a list of metric names (fleetdyn.METRIC_NAMES), got " +
                           describe(metrics));
    }
    size_t i = 0;
    for (auto name : metrics) r.metrics.push_back(text_from(name, "metrics[" + std::to_string(i++) + "]"));
  }
  if (py::isinstance<py::str>(quantiles) || !py::isinstance<py::iterable>(quantiles)) {
    throw py::type_error("quantiles: expected a sequence of levels in [0, 1], got " + describe(quantiles));
  }
  size_t k = 0;
  for (auto level : quantiles) {
    r.quantiles.push_back(number_in(level, "quantiles[" + std::to_string(k++) + "]", 0.0, 1.0));
  }
  r.worst_by = text_from(worst_by, "worst_by");
  r.worst_count = static_cast<int>(integer_in(worst_count, "worst_count", 0, b.vehicle_count()));
  return r;
}

py::dict summary_dict(const BatchSummary& s) {
  py::dict d;
  d["vehicle_count"] = s.vehicle_count;
  d["running"] = s.running;
  d["diverged"] = s.diverged;
  d["rolled_over"] = s.rolled_over;
  d["quantile_levels"] = copy_array(s.quantile_levels.data(), {static_cast<py::ssize_t>(s.quantile_levels.size())});
  py::dict metrics;
  for (const MetricSummary& m : s.metrics) {
    py::dict one;
    one["count"] = m.count;
    one["min"] = m.min;
    one["mean"] = m.mean;
    one["max"] = m.max;
    one["quantiles"] = copy_array(m.quantiles.data(), {static_cast<py::ssize_t>(m.quantiles.size())});
    metrics[py::str(m.name)] = one;
  }
  d["metrics"] = metrics;
  const auto worst = static_cast<py::ssize_t>(s.worst_vehicles.size());
  d["worst_vehicles"] = copy_array(s.worst_vehicles.data(), {worst});
  d["worst_values"] = copy_array(s.worst_values.data(), {worst});
  return d;
}

}  // namespace

void bind_summary(py::class_<Batch>& cls) {
  cls.def(
      "summary",
      [](Batch& b, const py::object& metrics, const py::object& quantiles, const py::object& worst_by,
         const py::object& worst_count) {
        const SummaryRequest r = request_from(b, metrics, quantiles, worst_by, worst_count);
        BatchSummary s;
        {
          py::gil_scoped_release nogil;
          s = b.summary(r);
        }
        return summary_dict(s);
      },
      py::arg("metrics") = py::none(), py::arg("quantiles") = py::tuple(), py::arg("worst_by") = "max_abs_roll",
      py::arg("worst_count") = 0,
      "Status counts and, per metric (None: all), count, min, mean, max and the quantiles (levels in [0, 1], "
      "Hyndman-Fan type 7 as numpy's default) over the vehicles with a value, and the worst_count (0 .. "
      "num_vehicles) vehicles with the largest worst_by, equal values by index. A vehicle has a value when it is "
      "finite and: diverged_time, the vehicle diverged; any other metric, it did not, and for the event times "
      "(-1 = no event) the value is >= 0. Reduced where the batch runs (on the GPU without a download). Returns a "
      "dict: vehicle_count, running, diverged, rolled_over, quantile_levels, metrics {name: {count, min, mean, max, "
      "quantiles}} (NaN where count is 0), worst_vehicles, worst_values.");
}

}  // namespace py_bindings
}  // namespace fleetdyn
