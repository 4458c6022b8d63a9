// Printers for podtemplates, replicationcontrollers, poddisruptionbudgets, controllerrevisions,
// componentstatuses and resourcequotas.

#include <algorithm>
#include <map>

#include "printers/internal.h"

namespace kube::printers::internal {

const std::vector<Column>& PodTemplateColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Containers", "string", "", "Names of each container in the template.", 0},
      {"Images", "string", "", "Images referenced by each container in the template.", 0},
      {"Pod Labels", "string", "", "The labels of the pod template.", 0},
  };
  return kColumns;
}

Cells PodTemplateCells(const Json& obj, TimePoint /*now*/) {
  auto [names, images] = ContainerCells(Path(&obj, {"template", "spec", "containers"}));
  return {Name(obj), names, images, FormatLabels(Path(&obj, {"template", "metadata", "labels"}))};
}

const std::vector<Column>& ReplicationControllerColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Desired", "integer", "", "The number of desired replicas.", 0},
      {"Current", "integer", "", "The number of current replicas.", 0},
      {"Ready", "integer", "", "The number of ready replicas.", 0},
      AgeColumn(),
      {"Containers", "string", "", "Names of each container in the template.", 1},
      {"Images", "string", "", "Images referenced by each container in the template.", 1},
      {"Selector", "string", "", "The label query over the pods the controller manages.", 1},
  };
  return kColumns;
}

Cells ReplicationControllerCells(const Json& obj, TimePoint now) {
  const Json* replicas = Path(&obj, {"spec", "replicas"});
  // v1 defaults: one replica; the selector (when empty) is the template's labels.
  const Json* selector = Path(&obj, {"spec", "selector"});
  if (ObjectSize(selector) == 0) selector = Path(&obj, {"spec", "template", "metadata", "labels"});
  auto [names, images] = ContainerCells(Path(&obj, {"spec", "template", "spec", "containers"}));
  return {Name(obj),
          IsSet(replicas) ? Int32(replicas) : 1,
          Int32(Path(&obj, {"status", "replicas"})),
          Int32(Path(&obj, {"status", "readyReplicas"})),
          Age(obj, now),
          names,
          images,
          FormatLabels(selector)};
}

const std::vector<Column>& PodDisruptionBudgetColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Min Available", "string", "", "The minimum number of pods that must be available.", 0},
      {"Max Unavailable", "string", "", "The maximum number of pods that may be unavailable.", 0},
      {"Allowed Disruptions", "integer", "", "The number of pods that may be disrupted now.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells PodDisruptionBudgetCells(const Json& obj, TimePoint now) {
  const Json* min = Path(&obj, {"spec", "minAvailable"});
  const Json* max = Path(&obj, {"spec", "maxUnavailable"});
  return {Name(obj), IsSet(min) ? IntOrString(min) : "N/A", IsSet(max) ? IntOrString(max) : "N/A",
          Int32(Path(&obj, {"status", "disruptionsAllowed"})), Age(obj, now)};
}

const std::vector<Column>& ControllerRevisionColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Controller", "string", "", "The controller of the revision.", 0},
      {"Revision", "string", "", "The revision number.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells ControllerRevisionCells(const Json& obj, TimePoint now) {
  std::string controller = "<none>";
  for (const Json& ref : Array(Path(&obj, {"metadata", "ownerReferences"}))) {
    if (!Bool(Field(&ref, "controller"))) continue;
    // "kind.group/name", lower-cased kind and group (formatResourceName with the GroupKind).
    const std::string api_version = Str(Field(&ref, "apiVersion"));
    const size_t slash = api_version.find('/');
    const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
    std::string kind = Str(Field(&ref, "kind"));
    std::string qualified = group.empty() ? kind : kind + "." + group;
    std::transform(qualified.begin(), qualified.end(), qualified.begin(), [](unsigned char c) { return std::tolower(c); });
    controller = qualified.empty() ? Str(Field(&ref, "name")) : qualified + "/" + Str(Field(&ref, "name"));
    break;
  }
  const Json* revision = Field(&obj, "revision");
  return {Name(obj), controller, revision != nullptr && revision->is_number() ? revision->get<int64_t>() : 0,
          Age(obj, now)};
}

const std::vector<Column>& ComponentStatusColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Status", "string", "", "Status of the component conditions.", 0},
      {"Message", "string", "", "Message of the component conditions.", 0},
      {"Error", "string", "", "Error of the component conditions.", 0},
  };
  return kColumns;
}

Cells ComponentStatusCells(const Json& obj, TimePoint /*now*/) {
  std::string status = "Unknown", message, error;
  for (const Json& c : Array(Field(&obj, "conditions"))) {
    if (Str(Field(&c, "type")) != "Healthy") continue;
    status = Str(Field(&c, "status")) == "True" ? "Healthy" : "Unhealthy";
    message = Str(Field(&c, "message"));
    error = Str(Field(&c, "error"));
    break;
  }
  return {Name(obj), status, message, error};
}

const std::vector<Column>& ResourceQuotaColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Request", "string", "", "Used and hard quota of each non-limit resource.", 0},
      {"Limit", "string", "", "Used and hard quota of each limits.* resource.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells ResourceQuotaCells(const Json& obj, TimePoint now) {
  const Json* hard = Path(&obj, {"status", "hard"});
  const Json* used = Path(&obj, {"status", "used"});
  std::vector<std::string> names;
  if (IsObject(hard)) {
    for (auto it = hard->begin(); it != hard->end(); ++it) names.push_back(it.key());
  }
  std::sort(names.begin(), names.end());
  std::string request, limit;
  for (const std::string& name : names) {
    std::string& out = name.starts_with("limits.") ? limit : request;
    if (!out.empty()) out += ", ";
    out += name + ": " + Quantity(Field(used, name)) + "/" + Quantity(Field(hard, name));
  }
  return {Name(obj), request, limit, Age(obj, now)};
}

}  // namespace kube::printers::internal
