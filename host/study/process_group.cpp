#include "host/study/process_group.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "fleetdyn/error.h"

#if defined(FLEETDYN_HAS_MPI)
#include <mpi.h>
#endif

namespace fleetdyn::study {

#if defined(FLEETDYN_HAS_MPI)
namespace {
// mpirun (OpenMPI, MPICH, Slurm's PMI) tells its children in the environment.
bool started_by_mpirun() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(var)) return true;
  }
  return false;
}
}  // namespace
#endif

int launcher_local_rank(const char* (*lookup)(const char*)) {
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const char* v = lookup(var)) {
      char* end = nullptr;
      const long r = std::strtol(v, &end, 10);
      if (end != v && *end == '\0' && r >= 0 && r < (1L << 30)) return static_cast<int>(r);
    }
  }
  return -1;
}

int cuda_device_for_rank(int local_rank, int device_count) {
  if (device_count <= 0 || local_rank < 0) return -1;
  return local_rank % device_count;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "?";
  return name;
}

int launcher_world_size() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    if (const char* v = std::getenv(var)) return std::max(1, std::atoi(v));
  }
  return 1;
}

#if defined(FLEETDYN_HAS_MPI)

bool built_with_mpi() { return true; }

ProcessGroup::ProcessGroup() {
  if (!started_by_mpirun()) return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  mpi_ = true;
  // The ranks sharing this node's memory are the ones sharing its GPUs.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_free(&node);
}

ProcessGroup::~ProcessGroup() {
  if (!mpi_) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void ProcessGroup::broadcast(std::string& text) const {
  if (size_ == 1) return;
  unsigned long long n = text.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  text.resize(static_cast<size_t>(n));
  MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
}

void ProcessGroup::send_to_root(const std::string& bytes) const {
  if (bytes.size() > 0x7fffffffu) throw Error("a chunk's rows exceed 2 GiB: choose a smaller study.chunk");
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, 0, 1, MPI_COMM_WORLD);
}

std::string ProcessGroup::receive_from(int rank) const {
  MPI_Status status;
  MPI_Probe(rank, 1, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string bytes(static_cast<size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_CHAR, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bytes;
}

void ProcessGroup::abort(int code) const {
  if (mpi_) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

#else  // one process

bool built_with_mpi() { return false; }

ProcessGroup::ProcessGroup() {
  // Without MPI a launcher may still have started several copies (refused by run_study).
  local_rank_ = std::max(0, launcher_local_rank([](const char* var) -> const char* { return std::getenv(var); }));
}
ProcessGroup::~ProcessGroup() = default;
void ProcessGroup::broadcast(std::string&) const {}
void ProcessGroup::send_to_root(const std::string&) const { throw Error("send_to_root: no MPI in this build"); }
std::string ProcessGroup::receive_from(int) const { throw Error("receive_from: no MPI in this build"); }
void ProcessGroup::abort(int code) const { std::exit(code); }

#endif

ProcessGroup& ProcessGroup::world() {
  static ProcessGroup group;
  return group;
}

}  // namespace fleetdyn::study
