// The fast path's threads: a fixed pool that splits a range of independent work items (rows of a
// product, output channels, samples) into one contiguous part per thread. Workers spin briefly
// for the next range before they sleep: a model's steps follow each other within microseconds,
// and waking a sleeping thread costs about as much as a small step. Work items never share
// a reduction: each output element is summed whole by one thread in one fixed order, so results
// are identical for every thread count (docs/fastpath.md, "Threads").
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace nnref::fastpath {

// A reference to a callable body(begin, end) that owns nothing and allocates nothing (a
// std::function of a capturing lambda may allocate on every call to parallel_for).
class RangeBody {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, RangeBody>)
  RangeBody(F&& body)  // NOLINT: converts from any callable, which must outlive the call that takes it
      : object_(const_cast<void*>(static_cast<const void*>(&body))),
        call_([](void* o, int64_t begin, int64_t end) { (*static_cast<std::remove_reference_t<F>*>(o))(begin, end); }) {}
  void operator()(int64_t begin, int64_t end) const { call_(object_, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, int64_t, int64_t);
};

class ThreadPool {
 public:
  explicit ThreadPool(int threads);  // threads ≥ 1: the caller and threads − 1 workers
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // body(begin, end) over [0, count) cut into at most size() parts whose edges are multiples of
  // grain; returns when every part is done. The caller runs the first part.
  void parallel_for(int64_t count, int64_t grain, RangeBody body);

 private:
  struct Part {
    int64_t begin = 0, end = 0;
  };
  void cut(int64_t count, int64_t grain);  // into parts_, without allocating
  void work(int index);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  std::atomic<uint64_t> generation_{0};  // one more for every range handed out
  std::atomic<int> pending_{0};          // workers still on the current range
  std::atomic<bool> stopping_{false};
  const RangeBody* body_ = nullptr;
  std::vector<Part> parts_;
};

}  // namespace nnref::fastpath
