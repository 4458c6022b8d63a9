// The process_* metrics Go's client_golang process collector exports (and so every kube
// component): resident and virtual memory, CPU seconds, open and maximum file descriptors, start
// time. Read from /proc/self at scrape time; on a system without /proc the figures are absent.
//
// Thread-safety: registration is a Registry call; collection is safe concurrently.
#pragma once

#include "metrics/metrics.h"

namespace kube::metrics {

void RegisterProcessCollector(Registry* registry);

}  // namespace kube::metrics
