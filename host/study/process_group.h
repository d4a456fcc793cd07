// The processes one study is sharded over: MPI_COMM_WORLD when the program was started by
// mpirun (and built with MPI), else this process alone. MPI is initialized only under mpirun,
// so a plain `fleetdyn run` never touches it.
//
// A sharded study: rank 0 owns the output folder; chunk k of the samples still to do is
// simulated by rank k % size, and every other rank sends its rows to rank 0, which appends
// the chunks in order (MPI keeps the order of messages from one sender). So samples.csv, and
// everything computed from it, is byte for byte that of a one-process run.
#pragma once

#include <string>

namespace fleetdyn::study {

class ProcessGroup {
 public:
  static ProcessGroup& world();
  int rank() const { return rank_; }
  int size() const { return size_; }
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
  int rank_ = 0, size_ = 1;
  bool mpi_ = false;
};

// Whether this build can shard over MPI ranks.
bool built_with_mpi();
// The process count mpirun announced in the environment (1 when not started by mpirun).
int launcher_world_size();

}  // namespace fleetdyn::study
