// kube-apiserver-lite: a Kubernetes API server for tests. Invoked as "etcd" it is the envtest
// stand-in for etcd instead (etcd_standin.h).
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "server/etcd_standin.h"
#include "server/flag_table.h"
#include "server/flags.h"
#include "server/server_instance.h"

namespace {

using namespace kube;

int Fail(const std::string& message) {
  std::fprintf(stderr, "Error: %s\n", message.c_str());
  return 1;
}

// klog's header: severity, month and day, time with microseconds, pid, source.
void LogHeader(char severity, const char* source) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  const long micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() % 1000000;
  std::fprintf(stderr, "%c%02d%02d %02d:%02d:%02d.%06ld %7d %s] ", severity, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
               tm.tm_min, tm.tm_sec, micros, static_cast<int>(getpid()), source);
}

// An error of the running command, as component-base's cli.Run logs it.
int FailCommand(const std::string& message) {
  LogHeader('E', "run.go:72");
  std::fprintf(stderr, "\"command failed\" err=%s\n", nlohmann::json(message).dump().c_str());
  return 1;
}

// The one-line start summary, in klog's header format on stderr (stdout keeps only the "ready:"
// lines tests wait for).
void LogStartSummary(const server::ServerInstance& instance) {
  LogHeader('I', "main.cc");
  std::fprintf(stderr, "%s\n", instance.StartSummary().c_str());
}

// Says once which flags were taken but change nothing, as the issue asks.
void ReportIgnored(const server::ServerOptions& o) {
  if (!o.ignored_flags.empty()) {
    std::string list;
    for (const auto& f : o.ignored_flags) list += (list.empty() ? "" : " ") + f;
    std::fprintf(stderr, "kube-apiserver-lite: ignoring flags that mean nothing here: %s\n", list.c_str());
    for (const auto& f : o.ignored_flags) {
      if (f.starts_with("--etcd-servers=")) {
        std::fprintf(stderr, "kube-apiserver-lite: --etcd-servers is ignored: the store is embedded%s\n",
                     o.data_dir.empty() ? " (in memory)" : (" (--data-dir " + o.data_dir + ")").c_str());
      }
    }
  }
  // Admission here: namespace lifecycle is always on; no other plugin exists yet.
  for (const auto& p : o.enable_admission_plugins) {
    if (p != "NamespaceLifecycle") {
      std::fprintf(stderr, "kube-apiserver-lite: admission plugin %s is not available here; requests are admitted without it\n",
                   p.c_str());
    }
  }
}

int Run(int argc, char** argv) {
  const char* slash = std::strrchr(argv[0], '/');
  if (std::strcmp(slash ? slash + 1 : argv[0], "etcd") == 0) return server::RunEtcdStandIn(argc, argv);

  auto flags = server::ParseFlags(argc, argv);
  if (!flags.ok()) return Fail(flags.status().message());
  if (!flags->run_error.ok()) return FailCommand(flags->run_error.message());
  if (flags->help) {
    std::fputs(server::Usage(argv[0]).c_str(), stdout);
    return 0;
  }
  if (flags->version) {
    if (flags->version_raw) {
      std::puts(R"({"major":"1","minor":"36","gitVersion":"v1.36.0","gitCommit":"kube-apiserver-lite",)"
                R"("gitTreeState":"clean","goVersion":"go1.25.0","compiler":"gc","platform":"linux/amd64"})");
    } else {
      std::puts("Kubernetes v1.36.0");
    }
    return 0;
  }
  server::ServerOptions options = flags->options;
  ReportIgnored(options);
  // kube's ApplyAuthorization: AlwaysAllow would let anonymous requests do anything. (Said only
  // when there is a secure port for it to matter on.)
  if (server::ResetAnonymousAuthForAlwaysAllow(&options)) {
    std::fprintf(stderr, "AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to "
                         "false. You should use a different authorizer\n");
  }

  // SIGTERM/SIGINT are taken synchronously by the main thread once everything runs.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  server::ServerInstance instance({.options = options});
  if (auto s = instance.Start(); !s.ok()) return Fail(instance.start_error());
  if (!instance.plain_url().empty()) std::printf("ready: %s\n", instance.plain_url().c_str());
  if (!instance.secure_url().empty()) std::printf("ready: %s\n", instance.secure_url().c_str());
  std::fflush(stdout);
  LogStartSummary(instance);

  int sig = 0;
  sigwait(&signals, &sig);
  if (options.verbosity >= 1) std::fprintf(stderr, "received signal %d, shutting down\n", sig);
  instance.Stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
