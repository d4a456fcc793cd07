#include "host/study/trajectories_h5.h"

#include <cstdio>
#include <filesystem>

#include "fleetdyn/error.h"
#include "host/output/output_files.h"

#if defined(FLEETDYN_HAS_HDF5)
#include <hdf5.h>
#endif

namespace fleetdyn::study {

#if defined(FLEETDYN_HAS_HDF5)

bool built_with_hdf5() { return true; }

namespace {

// HDF5 handles closed on scope exit; a negative id is an error.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t), const std::string& what) : id_(id), close_(close) {
    if (id < 0) throw Error(what);
  }
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void string_attribute(hid_t object, const char* name, const std::string& value, const std::string& where) {
  const Handle type(H5Tcopy(H5T_C_S1), H5Tclose, where);
  H5Tset_size(type.get(), value.empty() ? 1 : value.size());
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose, where);
  const Handle attr(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, where);
  if (H5Awrite(attr.get(), type.get(), value.empty() ? "" : value.c_str()) < 0) throw Error(where);
}

// A float64 dataset with one string attribute (a channel's `unit`, the metrics' `columns`).
void vector_dataset(hid_t group, const std::string& name, const std::vector<double>& values, const char* attribute,
                    const std::string& attribute_value, const std::string& where) {
  const hsize_t n = values.size();
  const Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, where);
  const Handle set(H5Dcreate2(group, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose, where + ": dataset " + name);
  if (n > 0 && H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
    throw Error(where + ": dataset " + name);
  }
  string_attribute(set.get(), attribute, attribute_value, where);
}

}  // namespace

void write_trajectories_h5(const std::vector<ReportTrace>& traces, const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path temp = target.parent_path() / ("." + target.filename().string() + ".tmp");
  const std::string where = "cannot write '" + path + "'";
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors come back as exceptions, not stderr noise
  {
    const Handle file(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, where);
    for (const ReportTrace& t : traces) {
      char name[40];
      std::snprintf(name, sizeof name, "sample_%06lld", static_cast<long long>(t.sample));
      const Handle group(H5Gcreate2(file.get(), name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, where);
      {
        const Handle space(H5Screate(H5S_SCALAR), H5Sclose, where);
        const Handle attr(H5Acreate2(group.get(), "sample", H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                          H5Aclose, where);
        const long long id = t.sample;
        if (H5Awrite(attr.get(), H5T_NATIVE_LLONG, &id) < 0) throw Error(where);
      }
      string_attribute(group.get(), "label", t.label, where);
      vector_dataset(group.get(), "time", t.time, "unit", "s", where);
      for (const ReportColumn& c : t.channels) vector_dataset(group.get(), c.name, c.values, "unit", c.unit, where);
      if (!t.metrics.empty()) vector_dataset(group.get(), "metrics", t.metrics, "columns", metric_columns(), where);
    }
    if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0) throw Error(where);
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) throw Error(where + ": " + ec.message());
}

#else

bool built_with_hdf5() { return false; }

void write_trajectories_h5(const std::vector<ReportTrace>&, const std::string& path) {
  throw Error("cannot write '" + path + "': this fleetdyn was built without HDF5 (install libhdf5-dev and rebuild)");
}

#endif

}  // namespace fleetdyn::study
