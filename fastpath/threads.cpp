#include "fastpath/threads.hpp"

#include <algorithm>

namespace nnref::fastpath {

ThreadPool::ThreadPool(int threads) {
  parts_.resize(static_cast<size_t>(std::max(threads, 1)));
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

void ThreadPool::cut(int64_t count, int64_t grain) {
  const int64_t grains = (count + grain - 1) / grain;
  const int64_t n = std::min<int64_t>(size(), grains);
  for (int64_t p = 0; p < size(); ++p)
    parts_[static_cast<size_t>(p)] = p < n ? Part{std::min(count, grains * p / n * grain), std::min(count, grains * (p + 1) / n * grain)} : Part{};
}

void ThreadPool::parallel_for(int64_t count, int64_t grain, RangeBody body) {
  if (count <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  if (workers_.empty() || count <= grain) return body(0, count);
  {
    std::lock_guard lock(mutex_);
    cut(count, grain);
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
    const RangeBody* body = nullptr;
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
