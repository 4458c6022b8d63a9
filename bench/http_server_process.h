// http_bench's child server: spawns kube-apiserver-lite (--port 0 --kubeconfig-out FILE) with
// posix_spawn and its stdout on a pipe, reads the "ready: http://HOST:PORT" line, reads the
// child's VmRSS and CPU time, and stops it with SIGTERM + waitpid. Header-only; use from one thread.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

extern char** environ;

namespace kube::bench {

// User + system CPU time of process `pid` in ms (from /proc/<pid>/stat), -1 if unreadable.
inline long ProcessCpuMs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return -1;
  const size_t paren = line.rfind(')');  // the command name may contain spaces
  if (paren == std::string::npos) return -1;
  std::istringstream fields(line.substr(paren + 2));
  std::string skip;
  for (int i = 3; i < 14; ++i) fields >> skip;  // state .. cmajflt (fields 3-13)
  long utime = -1, stime = -1;
  if (!(fields >> utime >> stime)) return -1;
  return (utime + stime) * 1000 / ::sysconf(_SC_CLK_TCK);
}

class ServerProcess {
 public:
  ServerProcess() = default;
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  ~ServerProcess() {
    if (pid_ > 0) {  // only on an error path: never leave a server behind
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (out_fd_ >= 0) ::close(out_fd_);
  }

  // Spawns `binary --port 0 --kubeconfig-out kubeconfig`. Returns "" or what went wrong.
  std::string Start(const std::string& binary, const std::string& kubeconfig) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return std::string("pipe2: ") + std::strerror(errno);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);  // dup2 clears CLOEXEC
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;  // the bench ignores SIGPIPE; the child starts with default dispositions
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
    std::string port = "0";
    std::string a0 = binary, a1 = "--port", a3 = "--kubeconfig-out", a4 = kubeconfig;
    char* argv[] = {a0.data(), a1.data(), port.data(), a3.data(), a4.data(), nullptr};
    const int rc = ::posix_spawn(&pid_, binary.c_str(), &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(fds[1]);
    if (rc != 0) {
      pid_ = -1;
      ::close(fds[0]);
      return "posix_spawn " + binary + ": " + std::strerror(rc);
    }
    out_fd_ = fds[0];
    return "";
  }

  // Reads the child's stdout until its "ready: http://HOST:PORT" line, at most `timeout`.
  std::string WaitReady(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string out;
    while (out.find('\n') == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return "no ready line within " + std::to_string(timeout.count()) + " ms";
      pollfd p{out_fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[256];
      const ssize_t n = ::read(out_fd_, buf, sizeof buf);
      if (n == 0) return "server exited before its ready line (stdout: \"" + out + "\")";
      if (n < 0 && errno != EINTR) return std::string("read: ") + std::strerror(errno);
      if (n > 0) out.append(buf, static_cast<size_t>(n));
    }
    const std::string line = out.substr(0, out.find('\n'));
    const std::string prefix = "ready: http://";
    const size_t colon = line.rfind(':');
    if (!line.starts_with(prefix) || colon < prefix.size()) return "unexpected ready line: " + line;
    host_ = line.substr(prefix.size(), colon - prefix.size());
    auto [p, ec] = std::from_chars(line.data() + colon + 1, line.data() + line.size(), port_);
    if (ec != std::errc() || p != line.data() + line.size() || port_ <= 0) {
      return "bad port in ready line: " + line;
    }
    return "";
  }

  // SIGTERM, then waits up to `timeout` for a clean exit (status 0); SIGKILL after that.
  std::string Stop(std::chrono::milliseconds timeout) {
    if (pid_ <= 0) return "server not running";
    ::kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    std::string error;
    for (;;) {
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) break;
      if (r < 0 && errno != EINTR) {
        error = std::string("waitpid: ") + std::strerror(errno);
        break;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        error = "server did not exit within " + std::to_string(timeout.count()) + " ms of SIGTERM";
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (error.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      error = "server exited with status " + std::to_string(status);
    }
    pid_ = -1;
    ::close(out_fd_);
    out_fd_ = -1;
    return error;
  }

  // VmRSS of the child in KiB, -1 if it cannot be read.
  long RssKiB() const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    std::string key;
    long value = -1;
    while (status >> key) {
      if (key == "VmRSS:") {
        status >> value;
        return value;
      }
      status.ignore(1 << 16, '\n');
    }
    return -1;
  }

  const std::string& host() const { return host_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string host_;
  int port_ = 0;
};

}  // namespace kube::bench
