// Time series of chosen samples written to HDF5 (study key `trajectories`): one group per
// sample, "/sample_<id>", with attributes `sample` (int64) and `label`, a dataset `time` [s] and
// one float64 dataset per channel, each with a `unit` attribute, and `metrics`, the rerun's final
// metrics (its samples.csv row), with the samples.csv column names in its attribute `columns`
// (comma-separated). Readable with h5py:
//   f["sample_000042"]["roll"][:]
//   dict(zip(g["metrics"].attrs["columns"].split(","), g["metrics"][:]))
#pragma once

#include <string>
#include <vector>

#include "host/study/report.h"

namespace fleetdyn::study {

// Whether this build writes HDF5 (CMake found the HDF5 C library).
bool built_with_hdf5();

// Writes the file atomically (temporary name, then rename). Throws fleetdyn::Error naming the
// path on failure, or when the build has no HDF5.
void write_trajectories_h5(const std::vector<ReportTrace>& traces, const std::string& path);

}  // namespace fleetdyn::study
