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

namespace {

// How long a thread polls before it sleeps: about 50 µs.
constexpr int kSpins = 20000;

// Polls done() up to kSpins times; true if it became true.
template <class Done>
bool spin_until(Done&& done) {
  for (int i = 0; i < kSpins; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  return done();
}

}  // namespace

void ThreadPool::parallel_for(int64_t count, int64_t grain, RangeBody body) {
  if (count <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  if (workers_.empty() || count <= grain) return body(0, count);
  cut(count, grain);
  body_ = &body;
  pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  {
    std::lock_guard lock(mutex_);  // a worker that sleeps checks the generation under the lock
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_.notify_all();
  if (parts_[0].begin < parts_[0].end) body(parts_[0].begin, parts_[0].end);
  const auto finished = [this] { return pending_.load(std::memory_order_acquire) == 0; };
  if (spin_until(finished)) return;
  std::unique_lock lock(mutex_);
  done_.wait(lock, finished);
}

void ThreadPool::work(int index) {
  uint64_t seen = 0;
  for (;;) {
    const auto started = [&] { return stopping_.load() || generation_.load(std::memory_order_acquire) != seen; };
    if (!spin_until(started)) {
      std::unique_lock lock(mutex_);
      start_.wait(lock, started);
    }
    if (stopping_) return;
    seen = generation_.load(std::memory_order_acquire);
    const Part part = parts_[static_cast<size_t>(index)];
    if (part.begin < part.end) (*body_)(part.begin, part.end);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard lock(mutex_);  // the caller may be about to sleep on done_
      done_.notify_one();
    }
  }
}

}  // namespace nnref::fastpath
