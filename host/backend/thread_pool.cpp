#include "host/backend/thread_pool.h"

#include <algorithm>

namespace fleetdyn {

int cpu_thread_count(int requested) {
  return requested > 0 ? requested : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::string cpu_device_name(int threads, int simd_lanes) {
  return "cpu (" + std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
         (simd_lanes > 0 ? ", " + std::to_string(simd_lanes) + " SIMD lanes)" : ", scalar)");
}

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::run(Task task, void* context) {
  if (workers_.empty()) {
    task(context, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = task;
    context_ = context;
    pending_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  task(context, 0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
  task_ = nullptr;
  context_ = nullptr;
}

void ThreadPool::worker_loop(int index) {
  unsigned seen = 0;
  for (;;) {
    Task task;
    void* context;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      task = task_;
      context = context_;
    }
    task(context, index);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace fleetdyn
