// A minimal fork-join pool: run(task, context) calls task(context, i) for every worker i (the
// caller is worker 0) and returns when all are done. No per-call thread creation and no
// allocation: the task is a plain function pointer with a context, not a std::function.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace fleetdyn {

// The thread count a CPU backend runs with: `requested`, or every hardware thread for 0.
int cpu_thread_count(int requested);
// What a CPU backend reports as its device, e.g. "cpu (2 threads, 8 SIMD lanes)".
std::string cpu_device_name(int threads, int simd_lanes);  // simd_lanes 0: the scalar path

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  using Task = void (*)(void* context, int worker);
  // Calls task(context, i) for i in [0, size()), in parallel; returns when every call has returned.
  void run(Task task, void* context);

  // The CPU engines' work split: units [0, count) (vehicles, envs, lane groups, systems) in
  // size() contiguous slices, worker w taking [count * w / size(), count * (w + 1) / size()),
  // and body(begin, end, worker) called for each slice in parallel. A unit's result never
  // depends on the slicing. With fewer than min_per_worker units per worker the caller runs
  // them all as worker 0 (a small batch is not worth waking the workers for).
  template <class Body>
  void run_slices(int count, int min_per_worker, const Body& body) {
    struct Slices {
      const Body* body;
      long long count;
      int workers;
    };
    Slices slices{&body, count, count < min_per_worker * size() ? 1 : size()};
    if (slices.workers == 1) {
      body(0, count, 0);
      return;
    }
    run(
        [](void* context, int worker) {
          const Slices& s = *static_cast<const Slices*>(context);
          (*s.body)(static_cast<int>(s.count * worker / s.workers), static_cast<int>(s.count * (worker + 1) / s.workers), worker);
        },
        &slices);
  }

 private:
  void worker_loop(int index);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Task task_ = nullptr;
  void* context_ = nullptr;
  unsigned generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace fleetdyn
