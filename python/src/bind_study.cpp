// fleetdyn._run_study: a Monte Carlo study through the command line's own job (run_command,
// host/cli/run_job.h), so Python and `fleetdyn run` write the same files and resume the same way.
// The Python half (python/fleetdyn/_study.py) checks the arguments, turns a dict into YAML text,
// prints progress and reads the results back.
#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "common.h"

#ifdef FLEETDYN_PY_HAVE_SCENARIOS
#include "host/cli/run_job.h"
#include "host/scenario/scenario.h"
#endif

namespace fleetdyn {
namespace py_bindings {

void bind_study(py::module_& m) {
#ifdef FLEETDYN_PY_HAVE_SCENARIOS
  m.def(
      "_run_study",
      [](const std::string& scenario, std::optional<std::string> scenario_text, std::optional<std::string> out,
         std::optional<long long> samples, std::optional<std::string> backend, std::optional<std::string> precision,
         std::optional<int> threads, std::optional<std::string> resume, bool quiet, const py::object& on_progress) {
        // A plain scenario would run as `fleetdyn run` runs it (results.csv): refuse it here.
        // Reading the scenario first also gives its errors exactly as the command line words them.
        if (!resume) {
          const Scenario s = scenario_text ? parse_scenario(*scenario_text, scenario) : load_scenario(scenario);
          if (!s.study.enabled) {
            throw Error(scenario + ": has no study section (a plain run: fleetdyn.Batch.from_scenario)");
          }
        }
        RunOptions o;
        o.scenario = scenario;
        o.scenario_text = std::move(scenario_text);
        o.out = std::move(out);
        o.samples = samples;
        o.backend = std::move(backend);
        o.precision = std::move(precision);
        o.cpu_threads = threads;
        o.resume = std::move(resume);
        o.quiet = quiet;
        o.progress = false;  // progress reaches Python through on_progress instead
        // The study runs without the GIL; each progress report takes it to call Python and to
        // see Ctrl-C. A Python exception (from the callback, or KeyboardInterrupt) stops the study
        // between slices (samples.csv keeps whole chunks) and is raised again once it has stopped.
        // The callback captures by reference only: RunOptions is copied without the GIL.
        std::optional<py::error_already_set> stopped;
        o.on_progress = [&on_progress, &stopped](int64_t done, int64_t total) {
          py::gil_scoped_acquire gil;
          try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (!on_progress.is_none()) on_progress(done, total);
          } catch (py::error_already_set& e) {
            stopped.emplace(std::move(e));
            throw std::runtime_error("stopped from Python");
          }
        };
        std::ostringstream out_text, err_text;
        int code = 0;
        {
          py::gil_scoped_release release;
          code = run_command(o, out_text, err_text);
        }
        if (stopped) {
          py::error_already_set e = std::move(*stopped);
          stopped.reset();
          throw e;
        }
        return py::make_tuple(code, out_text.str(), err_text.str());
      },
      py::arg("scenario"), py::arg("scenario_text"), py::arg("out"), py::arg("samples"), py::arg("backend"),
      py::arg("precision"), py::arg("threads"), py::arg("resume"), py::arg("quiet"), py::arg("on_progress"),
      "(exit code, summary text, errors and warnings): `fleetdyn run` on a study; use fleetdyn.run_study");
#else
  (void)m;
#endif
}

}  // namespace py_bindings
}  // namespace fleetdyn
