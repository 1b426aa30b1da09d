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

}  // namespace

std::string ChildEnd::describe() const {
  switch (end) {
    case End::Exited: return "exit code " + std::to_string(code);
    case End::Signalled: return "ended with signal " + std::to_string(code) + " (" + ::strsignal(code) + ")";
    case End::TimedOut: return "timed out (killed)";
    case End::NotStarted: break;
  }
  return std::string("could not be started: ") + std::strerror(code);
}

ChildEnd run_in_child(double seconds, const Work& work) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  ChildEnd child;
  int out_pipe[2], err_pipe[2];
  const auto not_started = [&child](std::initializer_list<int> fds) {
    child.code = errno;
    for (int fd : fds) ::close(fd);
    return child;
  };
  if (::pipe(out_pipe) != 0) return not_started({});
  if (::pipe(err_pipe) != 0) return not_started({out_pipe[0], out_pipe[1]});
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(out_pipe[0]), ::close(err_pipe[0]);
    run_child(work, out_pipe[1], err_pipe[1]);
  }
  if (pid < 0) return not_started({out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]});
  ::close(out_pipe[1]), ::close(err_pipe[1]);
  const bool finished = drain(out_pipe[0], err_pipe[0], deadline, child.out, child.err);
  ::close(out_pipe[0]), ::close(err_pipe[0]);
  if (!finished) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) {
    child.out.clear(), child.err.clear();
    child.end = ChildEnd::End::TimedOut;
  } else if (WIFEXITED(status)) {
    child.end = ChildEnd::End::Exited;
    child.code = WEXITSTATUS(status);
  } else {
    child.end = ChildEnd::End::Signalled;
    child.code = WTERMSIG(status);
  }
  return child;
}

std::optional<int> run_with_deadline(unsigned seconds, const Work& work, std::ostream& out, std::ostream& err) {
  const ChildEnd child = run_in_child(seconds, work);
  switch (child.end) {
    case ChildEnd::End::TimedOut: return std::nullopt;
    case ChildEnd::End::NotStarted:
      err << "error[io.process]: cannot start the check process: " << std::strerror(child.code) << "\n";
      return kExitUsage;
    case ChildEnd::End::Signalled:
      out << child.out;
      err << child.err << "error[internal.signal]: the check process ended with signal " << child.code << " ("
          << ::strsignal(child.code) << ")\n";
      return kExitUsage;
    case ChildEnd::End::Exited: break;
  }
  out << child.out;
  err << child.err;
  return child.code;
}

}  // namespace nnref
