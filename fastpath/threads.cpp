#include "fastpath/threads.hpp"

#include <algorithm>

namespace nnref::fastpath {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < std::max(threads, 1); ++i) workers_.emplace_back([this, i] { work(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

std::vector<ThreadPool::Part> ThreadPool::parts(int64_t count, int64_t grain) const {
  const int64_t grains = (count + grain - 1) / grain;
  const int64_t n = std::min<int64_t>(size(), grains);
  std::vector<Part> out(static_cast<size_t>(size()));
  for (int64_t p = 0; p < n; ++p)
    out[static_cast<size_t>(p)] = {std::min(count, grains * p / n * grain), std::min(count, grains * (p + 1) / n * grain)};
  return out;
}

void ThreadPool::parallel_for(int64_t count, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
  if (count <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  if (workers_.empty() || count <= grain) return body(0, count);
  {
    std::lock_guard lock(mutex_);
    parts_ = parts(count, grain);
    body_ = &body;
    pending_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  start_.notify_all();
  if (parts_[0].begin < parts_[0].end) body(parts_[0].begin, parts_[0].end);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
}

void ThreadPool::work(int index) {
  uint64_t seen = 0;
  for (;;) {
    Part part;
    const std::function<void(int64_t, int64_t)>* body = nullptr;
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      part = parts_[static_cast<size_t>(index)];
      body = body_;
    }
    if (part.begin < part.end) (*body)(part.begin, part.end);
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace nnref::fastpath
