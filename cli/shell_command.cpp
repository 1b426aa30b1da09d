#include "cli/shell_command.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

namespace nnref {

ChildEnd run_shell(const std::string& command, double timeout_seconds, const std::string& log_path) {
  const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) return {ChildEnd::End::NotStarted, errno, {}, {}};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0), ::dup2(log, 1), ::dup2(log, 2);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);  // as the shell does for a command it cannot run
  }
  const int fork_errno = errno;
  ::close(log);
  if (pid < 0) return {ChildEnd::End::NotStarted, fork_errno, {}, {}};
  ::setpgid(pid, pid);  // also here: the parent may signal the group before the child has made it

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  auto pause = std::chrono::microseconds(500);  // polled: a runtime's run takes milliseconds at least
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return {ChildEnd::End::NotStarted, errno, {}, {}};
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return {ChildEnd::End::TimedOut, 0, {}, {}};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  ::kill(-pid, SIGKILL);  // what the program left running in the background
  if (WIFSIGNALED(status)) return {ChildEnd::End::Signalled, WTERMSIG(status), {}, {}};
  return {ChildEnd::End::Exited, WEXITSTATUS(status), {}, {}};
}

}  // namespace nnref
