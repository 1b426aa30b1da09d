#include "cli/deadline.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <initializer_list>
#include <ostream>
#include <sstream>
#include <string>

#include "cli/app.hpp"

namespace nnref {

namespace {

// Writes all of `s` to `fd`, retrying short writes; errors end the child anyway, so are ignored.
void write_all(int fd, const std::string& s) {
  for (size_t done = 0; done < s.size();) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] void run_child(const Work& work, int out_fd, int err_fd) {
  std::ostringstream out, err;
  const int code = work(out, err);
  write_all(out_fd, out.str());
  write_all(err_fd, err.str());
  ::_exit(code);  // no atexit handlers or static destructors: they belong to the parent
}

// Reads both pipes until both reach end of file (true) or the deadline passes (false).
bool drain(int out_fd, int err_fd, std::chrono::steady_clock::time_point deadline, std::string& out,
           std::string& err) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* into[2] = {&out, &err};
  int open = 2;
  char buffer[65536];
  while (open > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)));
    if (ready < 0 && errno != EINTR) return false;
    for (int k = 0; k < 2 && ready > 0; ++k) {
      if (fds[k].fd < 0 || fds[k].revents == 0) continue;
      const ssize_t n = ::read(fds[k].fd, buffer, sizeof buffer);
      if (n > 0) {
        into[k]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[k].fd = -1;  // poll ignores negative descriptors
        --open;
      }
    }
  }
  return true;
}

// The child could not be started: says why, closes what was opened, returns the usage exit code.
int not_started(std::ostream& err, std::initializer_list<int> fds) {
  err << "error[io.process]: cannot start the check process: " << std::strerror(errno) << "\n";
  for (int fd : fds) ::close(fd);
  return kExitUsage;
}

}  // namespace

std::optional<int> run_with_deadline(unsigned seconds, const Work& work, std::ostream& out, std::ostream& err) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0) return not_started(err, {});
  if (::pipe(err_pipe) != 0) return not_started(err, {out_pipe[0], out_pipe[1]});
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(out_pipe[0]), ::close(err_pipe[0]);
    run_child(work, out_pipe[1], err_pipe[1]);
  }
  if (pid < 0) return not_started(err, {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]});
  ::close(out_pipe[1]), ::close(err_pipe[1]);
  std::string child_out, child_err;
  const bool finished = drain(out_pipe[0], err_pipe[0], deadline, child_out, child_err);
  ::close(out_pipe[0]), ::close(err_pipe[0]);
  if (!finished) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) return std::nullopt;
  out << child_out;
  err << child_err;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  err << "error[internal.signal]: the check process ended with signal " << WTERMSIG(status) << " ("
      << ::strsignal(WTERMSIG(status)) << ")\n";
  return kExitUsage;
}

}  // namespace nnref
