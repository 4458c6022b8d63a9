// The pod printer: the STATUS/READY/RESTARTS logic of kube's printPod.

#include <map>

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

std::string Phase(const Json& pod) {
  // The pod strategy resets status to phase Pending on create, so a stored pod without a phase
  // reads as Pending in kube.
  std::string phase = Str(Path(&pod, {"status", "phase"}));
  return phase.empty() ? "Pending" : phase;
}

bool HasConditionTrue(const Json& pod, std::string_view type, bool first_only) {
  for (const Json& c : Array(Path(&pod, {"status", "conditions"}))) {
    if (Str(Field(&c, "type")) != type) continue;
    const bool is_true = Str(Field(&c, "status")) == "True";
    if (is_true || first_only) return is_true;
  }
  return false;
}

bool IsRestartableInit(const Json* init_container) {
  return Str(Field(init_container, "restartPolicy")) == "Always";
}

// Keeps the latest lastState.terminated.finishedAt seen so far.
void TrackLastRestart(const Json& status, std::optional<Time>* last) {
  const Json* terminated = Path(&status, {"lastState", "terminated"});
  if (!IsObject(terminated)) return;
  std::optional<Time> finished = ParseTime(Field(terminated, "finishedAt"));
  if (finished && (!*last || **last < *finished)) *last = finished;
}

std::string TerminatedReason(const Json* terminated, const char* prefix) {
  const std::string reason = Str(Field(terminated, "reason"));
  if (!reason.empty()) return prefix + reason;
  const int64_t signal = Int32(Field(terminated, "signal"));
  if (signal != 0) return std::string(prefix) + "Signal:" + std::to_string(signal);
  return std::string(prefix) + "ExitCode:" + std::to_string(Int32(Field(terminated, "exitCode")));
}

std::string ReadinessGates(const Json& pod) {
  const Json& gates = Array(Path(&pod, {"spec", "readinessGates"}));
  if (gates.empty()) return "<none>";
  int64_t true_conditions = 0;
  for (const Json& gate : gates) {
    const std::string type = Str(Field(&gate, "conditionType"));
    for (const Json& c : Array(Path(&pod, {"status", "conditions"}))) {
      if (Str(Field(&c, "type")) != type) continue;
      if (Str(Field(&c, "status")) == "True") ++true_conditions;
      break;
    }
  }
  return std::to_string(true_conditions) + "/" + std::to_string(gates.size());
}

std::string PodIP(const Json& pod) {
  // v1 -> internal conversion makes status.podIP authoritative over podIPs[0].
  std::string ip = Str(Path(&pod, {"status", "podIP"}));
  if (ip.empty()) {
    const Json& ips = Array(Path(&pod, {"status", "podIPs"}));
    if (!ips.empty()) ip = Str(Field(&ips[0], "ip"));
  }
  return OrNone(ip);
}

}  // namespace

const std::vector<Column>& PodColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Ready", "string", "", "The aggregate readiness state of this pod for accepting traffic.",
       0},
      {"Status", "string", "", "The aggregate status of the containers in this pod.", 0},
      {"Restarts", "string", "",
       "The number of times the containers in this pod have been restarted and when the last "
       "container in this pod has restarted.",
       0},
      AgeColumn(),
      {"IP", "string", "", "IP address allocated to the pod.", 1},
      {"Node", "string", "", "Node the pod is scheduled onto.", 1},
      {"Nominated Node", "string", "", "Node the pod is nominated to run on after preemption.", 1},
      {"Readiness Gates", "string", "", "Readiness gates that are true, out of all gates.", 1},
  };
  return kColumns;
}

bool PodCompleted(const Json& pod, std::string* reason) {
  const std::string phase = Str(Path(&pod, {"status", "phase"}));
  if (phase != "Succeeded" && phase != "Failed") return false;
  *reason = phase;
  return true;
}

Cells PodCells(const Json& pod, TimePoint now) {
  const Json& containers = Array(Path(&pod, {"spec", "containers"}));
  const Json& init_specs = Array(Path(&pod, {"spec", "initContainers"}));
  const Json& init_statuses = Array(Path(&pod, {"status", "initContainerStatuses"}));
  const Json& statuses = Array(Path(&pod, {"status", "containerStatuses"}));

  int64_t restarts = 0;
  int64_t restartable_init_restarts = 0;
  int64_t total = static_cast<int64_t>(containers.size());
  int64_t ready = 0;
  std::optional<Time> last_restart;
  std::optional<Time> last_restartable_init_restart;

  const std::string phase = Phase(pod);
  const std::string status_reason = Str(Path(&pod, {"status", "reason"}));
  std::string reason = status_reason.empty() ? phase : status_reason;

  for (const Json& c : Array(Path(&pod, {"status", "conditions"}))) {
    if (Str(Field(&c, "type")) == "PodScheduled" && Str(Field(&c, "reason")) == "SchedulingGated") {
      reason = "SchedulingGated";
    }
  }

  // A later spec entry with the same name wins, as in kube's map.
  std::map<std::string, const Json*> init_by_name;
  for (const Json& c : init_specs) {
    init_by_name[Str(Field(&c, "name"))] = &c;
    if (IsRestartableInit(&c)) ++total;
  }
  auto init_spec = [&](const Json& status) -> const Json* {
    auto it = init_by_name.find(Str(Field(&status, "name")));
    return it == init_by_name.end() ? nullptr : it->second;
  };

  bool initializing = false;
  for (size_t i = 0; i < init_statuses.size(); ++i) {
    const Json& cs = init_statuses[i];
    const bool restartable = IsRestartableInit(init_spec(cs));
    restarts += Int32(Field(&cs, "restartCount"));
    TrackLastRestart(cs, &last_restart);
    if (restartable) {
      restartable_init_restarts += Int32(Field(&cs, "restartCount"));
      TrackLastRestart(cs, &last_restartable_init_restart);
    }
    const Json* terminated = Path(&cs, {"state", "terminated"});
    const Json* waiting = Path(&cs, {"state", "waiting"});
    const std::string waiting_reason = Str(Field(waiting, "reason"));
    if (IsObject(terminated) && Int32(Field(terminated, "exitCode")) == 0) continue;
    if (restartable && Bool(Field(&cs, "started"))) {
      if (Bool(Field(&cs, "ready"))) ++ready;
      continue;
    }
    if (IsObject(terminated)) {
      reason = TerminatedReason(terminated, "Init:");
    } else if (IsObject(waiting) && !waiting_reason.empty() &&
               waiting_reason != "PodInitializing") {
      reason = "Init:" + waiting_reason;
    } else {
      reason = "Init:" + std::to_string(i) + "/" + std::to_string(init_specs.size());
    }
    initializing = true;
    break;
  }

  if (!initializing || HasConditionTrue(pod, "Initialized", /*first_only=*/true)) {
    restarts = restartable_init_restarts;
    last_restart = last_restartable_init_restart;
    bool has_running = false;
    // kube walks the statuses backwards, so the first container's state has the last word.
    for (size_t n = statuses.size(); n-- > 0;) {
      const Json& cs = statuses[n];
      restarts += Int32(Field(&cs, "restartCount"));
      TrackLastRestart(cs, &last_restart);
      const Json* waiting = Path(&cs, {"state", "waiting"});
      const Json* terminated = Path(&cs, {"state", "terminated"});
      const std::string waiting_reason = Str(Field(waiting, "reason"));
      const std::string terminated_reason = Str(Field(terminated, "reason"));
      if (IsObject(waiting) && !waiting_reason.empty()) {
        reason = waiting_reason;
      } else if (IsObject(terminated)) {
        reason = TerminatedReason(terminated, "");
      } else if (Bool(Field(&cs, "ready")) && IsObject(Path(&cs, {"state", "running"}))) {
        has_running = true;
        ++ready;
      }
    }
    if (reason == "Completed" && has_running) {
      reason = HasConditionTrue(pod, "Ready", /*first_only=*/false) ? "Running" : "NotReady";
    }
  }

  const bool deleting = IsSet(Path(&pod, {"metadata", "deletionTimestamp"}));
  if (deleting && status_reason == "NodeLost") {
    reason = "Unknown";
  } else if (deleting && phase != "Succeeded" && phase != "Failed") {
    reason = "Terminating";
  }

  std::string restarts_cell = std::to_string(restarts);
  if (restarts != 0 && last_restart) {
    restarts_cell += " (" + HumanDuration(Sub(FromTimePoint(now), *last_restart)) + " ago)";
  }

  return {
      Name(pod),
      std::to_string(ready) + "/" + std::to_string(total),
      reason,
      restarts_cell,
      Age(pod, now),
      PodIP(pod),
      OrNone(Str(Path(&pod, {"spec", "nodeName"}))),
      OrNone(Str(Path(&pod, {"status", "nominatedNodeName"}))),
      ReadinessGates(pod),
  };
}

}  // namespace kube::printers::internal
