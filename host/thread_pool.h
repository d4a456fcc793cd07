// A minimal fork-join pool: run(fn, count) calls fn(0..count-1) on `count` workers (the
// caller is worker 0) and returns when all are done. No per-call thread creation.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fleetdyn {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // Calls task(i) for i in [0, size()), in parallel; returns when every call has returned.
  void run(const std::function<void(int)>& task);

 private:
  void worker_loop(int index);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* task_ = nullptr;
  unsigned generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace fleetdyn
