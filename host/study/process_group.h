// The processes one study is sharded over: MPI_COMM_WORLD when the program was started by
// mpirun (and built with MPI), else this process alone. MPI is initialized only under mpirun,
// so a plain `fleetdyn run` never touches it.
//
// A sharded study: rank 0 owns the output folder; chunk k of the samples still to do is
// simulated by rank k % size, and every other rank sends its rows to rank 0, which appends
// the chunks in order (MPI keeps the order of messages from one sender). So samples.csv, and
// everything computed from it, is byte for byte that of a one-process run.
//
// GPUs: each rank runs its CUDA batches on device (local rank mod device count), its local rank
// being its index among the ranks on its node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED), so
// ranks on one node spread over its GPUs and share them evenly when there are more ranks than
// GPUs. summary.json records each rank's node, local rank and device.
#pragma once

#include <string>

namespace fleetdyn::study {

class ProcessGroup {
 public:
  static ProcessGroup& world();
  int rank() const { return rank_; }
  int size() const { return size_; }
  // This rank's index among the ranks on its node (0 for one process).
  int local_rank() const { return local_rank_; }
  bool is_root() const { return rank_ == 0; }

  // Rank 0's value of `text` on every rank.
  void broadcast(std::string& text) const;
  void send_to_root(const std::string& bytes) const;
  std::string receive_from(int rank) const;
  // Ends every process of the group (MPI_Abort); used when one rank fails mid-study.
  [[noreturn]] void abort(int code) const;

  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;
  ~ProcessGroup();

 private:
  ProcessGroup();
  int rank_ = 0, size_ = 1, local_rank_ = 0;
  bool mpi_ = false;
};

// Whether this build can shard over MPI ranks.
bool built_with_mpi();
// The process count mpirun announced in the environment (1 when not started by mpirun).
int launcher_world_size();
// The node-local rank the launcher announced (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID,
// SLURM_LOCALID), or -1 when none did. `lookup` reads a variable (std::getenv; tests pass their own).
int launcher_local_rank(const char* (*lookup)(const char*));

// The CUDA device of a rank with node-local rank `local_rank` on a node with `device_count`
// visible devices: local_rank mod device_count; -1 when there is no device (or a negative rank).
int cuda_device_for_rank(int local_rank, int device_count);
// This host's name ("?" when it cannot be read), for the summary's per-rank records.
std::string host_name();

}  // namespace fleetdyn::study
