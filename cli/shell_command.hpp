// An external program run through /bin/sh with a time limit: how `nnref fuzz --runtime` runs the
// runtime it judges. The program runs in its own process group, so that a timeout kills what it
// started too (a Python interpreter under a wrapper script, say), and its stdout and stderr go to a
// log file, so that a chatty runtime cannot fill a pipe nobody reads.
#pragma once

#include <string>

#include "cli/deadline.hpp"

namespace nnref {

// How it ended (out and err stay empty: they are in the log).
ChildEnd run_shell(const std::string& command, double timeout_seconds, const std::string& log_path);

}  // namespace nnref
