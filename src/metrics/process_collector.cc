#include "metrics/process_collector.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

namespace kube::metrics {

namespace {

struct ProcStat {
  double utime_ticks = 0, stime_ticks = 0, start_ticks = 0;
  double vsize = 0, rss_pages = 0;
};

std::optional<ProcStat> ReadStat() {
  std::ifstream in("/proc/self/stat");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 2));
  std::vector<std::string> f;
  for (std::string v; fields >> v;) f.push_back(v);
  // f[0] is field 3 (state): utime 14, stime 15, starttime 22, vsize 23, rss 24.
  if (f.size() < 22) return std::nullopt;
  ProcStat s;
  s.utime_ticks = std::stod(f[11]);
  s.stime_ticks = std::stod(f[12]);
  s.start_ticks = std::stod(f[19]);
  s.vsize = std::stod(f[20]);
  s.rss_pages = std::stod(f[21]);
  return s;
}

double BootTime() {
  std::ifstream in("/proc/stat");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("btime ")) return std::stod(line.substr(6));
  }
  return 0;
}

std::optional<double> OpenFds() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return std::nullopt;
  double n = 0;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] != '.') ++n;
  }
  closedir(dir);
  return n - 1;  // the directory handle itself
}

std::vector<GaugeFunc::Sample> One(std::optional<double> v) {
  if (!v) return {};
  return {GaugeFunc::Sample{{}, *v}};
}

}  // namespace

void RegisterProcessCollector(Registry* registry) {
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  registry->NewGaugeFunc(
      Desc{"process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", Stability::kRaw, {}},
      [ticks] {
        auto s = ReadStat();
        return One(s ? std::optional<double>((s->utime_ticks + s->stime_ticks) / ticks) : std::nullopt);
      },
      /*counter=*/true);
  registry->NewGaugeFunc(
      Desc{"process_resident_memory_bytes", "Resident memory size in bytes.", Stability::kRaw, {}}, [page] {
        auto s = ReadStat();
        return One(s ? std::optional<double>(s->rss_pages * page) : std::nullopt);
      });
  registry->NewGaugeFunc(Desc{"process_virtual_memory_bytes", "Virtual memory size in bytes.", Stability::kRaw, {}},
                         [] {
                           auto s = ReadStat();
                           return One(s ? std::optional<double>(s->vsize) : std::nullopt);
                         });
  registry->NewGaugeFunc(Desc{"process_open_fds", "Number of open file descriptors.", Stability::kRaw, {}},
                         [] { return One(OpenFds()); });
  registry->NewGaugeFunc(Desc{"process_max_fds", "Maximum number of open file descriptors.", Stability::kRaw, {}},
                         [] {
                           rlimit r{};
                           if (getrlimit(RLIMIT_NOFILE, &r) != 0) return One(std::nullopt);
                           return One(static_cast<double>(r.rlim_cur));
                         });
  // Fixed for the life of the process: computed once.
  std::optional<double> start;
  if (auto s = ReadStat(); s && ticks > 0) start = BootTime() + s->start_ticks / ticks;
  registry->NewGaugeFunc(
      Desc{"process_start_time_seconds", "Start time of the process since unix epoch in seconds.", Stability::kRaw, {}},
      [start] { return One(start); });
}

}  // namespace kube::metrics
