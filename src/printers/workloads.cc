// Printers for the apps/v1 and batch/v1 workload controllers.

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

// Functions rather than globals so that the column tables never depend on the order of static
// initialisation across translation units.
Column ContainersColumn() {
  return {"Containers", "string", "", "Names of each container in the template.", 1};
}
Column ImagesColumn() {
  return {"Images", "string", "", "Images referenced by each container in the template.", 1};
}
Column SelectorColumn() {
  return {"Selector", "string", "", "Label selector of the pods.", 1};
}

// spec.replicas, which v1 defaulting sets to 1 when absent.
int64_t Replicas(const Json& obj) {
  const Json* r = Path(&obj, {"spec", "replicas"});
  return r != nullptr && r->is_number() ? Int32(r) : 1;
}

const Json* TemplateContainers(const Json& obj) {
  return Path(&obj, {"spec", "template", "spec", "containers"});
}

// kube's hasJobCondition: the first condition of the type decides.
bool HasJobCondition(const Json& job, std::string_view type) {
  for (const Json& c : Array(Path(&job, {"status", "conditions"}))) {
    if (Str(Field(&c, "type")) == type) return Str(Field(&c, "status")) == "True";
  }
  return false;
}

}  // namespace

const std::vector<Column>& DeploymentColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Ready", "string", "", "Number of the pod with ready state", 0},
      {"Up-to-date", "string", "", "Total number of non-terminated pods with the desired template.",
       0},
      {"Available", "string", "", "Total number of available pods.", 0},
      AgeColumn(),
      ContainersColumn(),
      ImagesColumn(),
      SelectorColumn(),
  };
  return kColumns;
}

Cells DeploymentCells(const Json& obj, TimePoint now) {
  auto [names, images] = ContainerCells(TemplateContainers(obj));
  std::optional<std::string> selector = SelectorString(Path(&obj, {"spec", "selector"}));
  return {
      Name(obj),
      std::to_string(Int32(Path(&obj, {"status", "readyReplicas"}))) + "/" +
          std::to_string(Replicas(obj)),
      Int32(Path(&obj, {"status", "updatedReplicas"})),
      Int32(Path(&obj, {"status", "availableReplicas"})),
      Age(obj, now),
      names,
      images,
      selector ? *selector : "<invalid>",
  };
}

const std::vector<Column>& ReplicaSetColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Desired", "integer", "", "Number of desired pods.", 0},
      {"Current", "integer", "", "Number of pods currently created.", 0},
      {"Ready", "integer", "", "Number of ready pods.", 0},
      AgeColumn(),
      ContainersColumn(),
      ImagesColumn(),
      SelectorColumn(),
  };
  return kColumns;
}

Cells ReplicaSetCells(const Json& obj, TimePoint now) {
  auto [names, images] = ContainerCells(TemplateContainers(obj));
  return {
      Name(obj),
      Replicas(obj),
      Int32(Path(&obj, {"status", "replicas"})),
      Int32(Path(&obj, {"status", "readyReplicas"})),
      Age(obj, now),
      names,
      images,
      FormatLabelSelector(Path(&obj, {"spec", "selector"})),
  };
}

const std::vector<Column>& StatefulSetColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),   {"Ready", "string", "", "Number of the pod with ready state", 0},
      AgeColumn(),    ContainersColumn(),
      ImagesColumn(),
  };
  return kColumns;
}

Cells StatefulSetCells(const Json& obj, TimePoint now) {
  auto [names, images] = ContainerCells(TemplateContainers(obj));
  return {
      Name(obj),
      std::to_string(Int32(Path(&obj, {"status", "readyReplicas"}))) + "/" +
          std::to_string(Replicas(obj)),
      Age(obj, now),
      names,
      images,
  };
}

const std::vector<Column>& DaemonSetColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Desired", "integer", "", "Number of nodes that should run the daemon pod.", 0},
      {"Current", "integer", "", "Number of nodes running at least one daemon pod.", 0},
      {"Ready", "integer", "", "Number of nodes with a ready daemon pod.", 0},
      {"Up-to-date", "integer", "", "Number of nodes running the updated daemon pod.", 0},
      {"Available", "integer", "", "Number of nodes with an available daemon pod.", 0},
      {"Node Selector", "string", "", "Node selector of the pod template.", 0},
      AgeColumn(),
      ContainersColumn(),
      ImagesColumn(),
      SelectorColumn(),
  };
  return kColumns;
}

Cells DaemonSetCells(const Json& obj, TimePoint now) {
  auto [names, images] = ContainerCells(TemplateContainers(obj));
  const Json* status = Field(&obj, "status");
  return {
      Name(obj),
      Int32(Field(status, "desiredNumberScheduled")),
      Int32(Field(status, "currentNumberScheduled")),
      Int32(Field(status, "numberReady")),
      Int32(Field(status, "updatedNumberScheduled")),
      Int32(Field(status, "numberAvailable")),
      FormatLabels(Path(&obj, {"spec", "template", "spec", "nodeSelector"})),
      Age(obj, now),
      names,
      images,
      FormatLabelSelector(Path(&obj, {"spec", "selector"})),
  };
}

const std::vector<Column>& JobColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Status", "string", "", "Status of the job.", 0},
      {"Completions", "string", "", "Number of pods that reached phase Succeeded.", 0},
      {"Duration", "string", "", "Time required to complete the job.", 0},
      AgeColumn(),
      ContainersColumn(),
      ImagesColumn(),
      SelectorColumn(),
  };
  return kColumns;
}

Cells JobCells(const Json& obj, TimePoint now) {
  const int64_t succeeded = Int32(Path(&obj, {"status", "succeeded"}));
  const Json* completions = Path(&obj, {"spec", "completions"});
  std::string completions_cell;
  if (completions != nullptr && completions->is_number()) {
    completions_cell = std::to_string(succeeded) + "/" + std::to_string(Int32(completions));
  } else {
    const int64_t parallelism = Int32(Path(&obj, {"spec", "parallelism"}));
    completions_cell = std::to_string(succeeded) + "/1";
    if (parallelism > 1) completions_cell += " of " + std::to_string(parallelism);
  }

  std::string duration;
  std::optional<Time> start = ParseTime(Path(&obj, {"status", "startTime"}));
  std::optional<Time> completion = ParseTime(Path(&obj, {"status", "completionTime"}));
  if (start) {
    duration =
        HumanDuration(completion ? Sub(*completion, *start) : Sub(FromTimePoint(now), *start));
  }

  std::string status;
  if (HasJobCondition(obj, "Complete")) {
    status = "Complete";
  } else if (HasJobCondition(obj, "Failed")) {
    status = "Failed";
  } else if (IsSet(Path(&obj, {"metadata", "deletionTimestamp"}))) {
    status = "Terminating";
  } else if (HasJobCondition(obj, "Suspended")) {
    status = "Suspended";
  } else if (HasJobCondition(obj, "FailureTarget")) {
    status = "FailureTarget";
  } else {
    status = "Running";
  }

  auto [names, images] = ContainerCells(TemplateContainers(obj));
  return {
      Name(obj),        status,
      completions_cell, duration,
      Age(obj, now),    names,
      images,           FormatLabelSelector(Path(&obj, {"spec", "selector"})),
  };
}

const std::vector<Column>& CronJobColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Schedule", "string", "", "The schedule in Cron format.", 0},
      {"Timezone", "string", "", "The time zone of the schedule.", 0},
      {"Suspend", "boolean", "", "Whether subsequent executions are suspended.", 0},
      {"Active", "integer", "", "Number of currently running jobs.", 0},
      {"Last Schedule", "string", "", "Time since the job was last scheduled.", 0},
      AgeColumn(),
      ContainersColumn(),
      ImagesColumn(),
      SelectorColumn(),
  };
  return kColumns;
}

Cells CronJobCells(const Json& obj, TimePoint now) {
  const Json* spec = Field(&obj, "spec");
  const Json* tz = Field(spec, "timeZone");
  const Json* suspend = Field(spec, "suspend");
  // printBoolPtr; v1 defaulting sets suspend=false, so a missing value reads as False.
  const std::string suspend_cell =
      (suspend != nullptr && suspend->is_boolean() && suspend->get<bool>()) ? "True" : "False";
  const Json* last = Path(&obj, {"status", "lastScheduleTime"});
  const Json* job_spec = Path(spec, {"jobTemplate", "spec"});
  auto [names, images] = ContainerCells(Path(job_spec, {"template", "spec", "containers"}));
  return {
      Name(obj),
      Str(Field(spec, "schedule")),
      tz != nullptr && tz->is_string() ? Str(tz) : "<none>",
      suspend_cell,
      static_cast<int64_t>(Array(Path(&obj, {"status", "active"})).size()),
      IsSet(last) ? Since(last, now) : "<none>",
      Age(obj, now),
      names,
      images,
      FormatLabelSelector(Field(job_spec, "selector")),
  };
}

}  // namespace kube::printers::internal
