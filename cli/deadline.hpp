// A wall-clock limit on a whole command. Z3's resource budget bounds each solver call, but its
// units are not time (one call under a budget of 10^6 units was measured at 515 s), so
// `check --deadline` runs the check in a forked child and kills it when the deadline passes.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

namespace nnref {

using Work = std::function<int(std::ostream& out, std::ostream& err)>;

// How a child running `work` ended, and what it wrote (nothing when it timed out or died of a
// signal). Fork only from a single-threaded process: the child runs ordinary code, not just
// async-signal-safe calls. `nnref fuzz` judges each model this way, so that an engine's crash or
// hang is a failure found, not the end of the campaign.
struct ChildEnd {
  enum class End { Exited, Signalled, TimedOut, NotStarted };
  End end = End::NotStarted;
  int code = 0;  // the exit code (Exited), the signal (Signalled) or errno (NotStarted)
  std::string out, err;

  bool succeeded() const { return end == End::Exited && code == 0; }
  std::string describe() const;  // "exit code 3", "ended with signal 11 (Segmentation fault)", ...
};
ChildEnd run_in_child(double seconds, const Work& work);

// Runs `work` in a child process and copies what it wrote to `out` and `err`; returns its exit
// code, or nullopt when `seconds` pass first (the child is killed and nothing it wrote is copied).
// A child that cannot be started, or that dies of a signal, is reported on `err` with exit code 2.
std::optional<int> run_with_deadline(unsigned seconds, const Work& work, std::ostream& out, std::ostream& err);

}  // namespace nnref
