#include "endpoints/scale.h"

#include <string>

#include "registry/errors.h"
#include "registry/scale_fields.h"
#include "validation/primitives.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

// A LabelSelector object (or a ReplicationController's plain map) as selector text.
std::string SelectorString(const json& selector) {
  if (!selector.is_object()) return "";
  std::string out;
  auto add = [&](const std::string& term) { out += (out.empty() ? "" : ",") + term; };
  const bool structured = selector.contains("matchLabels") || selector.contains("matchExpressions");
  const json& labels = structured ? (selector.contains("matchLabels") ? selector["matchLabels"] : json::object())
                                  : selector;
  if (labels.is_object()) {
    for (const auto& [k, v] : labels.items()) add(k + "=" + (v.is_string() ? v.get<std::string>() : ""));
  }
  if (structured && selector.contains("matchExpressions") && selector["matchExpressions"].is_array()) {
    for (const auto& e : selector["matchExpressions"]) {
      if (!e.is_object()) continue;
      const std::string key = e.value("key", "");
      const std::string op = e.value("operator", "");
      std::string values;
      if (e.contains("values") && e["values"].is_array()) {
        for (const auto& v : e["values"]) values += (values.empty() ? "" : ",") + (v.is_string() ? v.get<std::string>() : "");
      }
      if (op == "In") add(key + " in (" + values + ")");
      if (op == "NotIn") add(key + " notin (" + values + ")");
      if (op == "Exists") add(key);
      if (op == "DoesNotExist") add("!" + key);
    }
  }
  return out;
}

// The value at a CRD scale path (".spec.replicas"), or null.
const json& AtPath(const json& obj, std::string_view path) {
  static const json kNull;
  const json* node = &obj;
  if (path.starts_with('.')) path.remove_prefix(1);
  while (!path.empty()) {
    const size_t dot = path.find('.');
    const std::string key(path.substr(0, dot));
    if (!node->is_object()) return kNull;
    auto it = node->find(key);
    if (it == node->end()) return kNull;
    node = &*it;
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return *node;
}

json* MutableAtPath(json* obj, std::string_view path) {
  if (path.starts_with('.')) path.remove_prefix(1);
  while (!path.empty()) {
    const size_t dot = path.find('.');
    if (!obj->is_object()) *obj = json::object();
    obj = &(*obj)[std::string(path.substr(0, dot))];
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return obj;
}

json ScaleMetadata(const json& obj) {
  const json& meta = obj.contains("metadata") ? obj["metadata"] : json::object();
  json scale_meta = json::object();
  for (const char* f : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
    if (meta.contains(f)) scale_meta[f] = meta[f];
  }
  return scale_meta;
}

// A custom resource's Scale: a missing replicas count reads as 0, a missing selector as none.
json CustomScaleOf(const json& obj, const registry::ScalePaths& paths) {
  const json& spec = AtPath(obj, paths.spec_replicas);
  const json& status = AtPath(obj, paths.status_replicas);
  json out = {{"kind", "Scale"},
              {"apiVersion", "autoscaling/v1"},
              {"metadata", ScaleMetadata(obj)},
              {"spec", {{"replicas", spec.is_number_integer() ? spec.get<int64_t>() : 0}}},
              {"status", {{"replicas", status.is_number_integer() ? status.get<int64_t>() : 0}}}};
  if (!paths.label_selector.empty()) {
    const json& selector = AtPath(obj, paths.label_selector);
    if (selector.is_string() && !selector.get_ref<const std::string&>().empty()) out["status"]["selector"] = selector;
  }
  return out;
}

}  // namespace

json ScaleOf(const json& obj, const registry::ScalePaths* paths) {
  if (paths != nullptr) return CustomScaleOf(obj, *paths);
  const json scale_meta = ScaleMetadata(obj);
  const json& spec = obj.contains("spec") && obj["spec"].is_object() ? obj["spec"] : json::object();
  const json& status = obj.contains("status") && obj["status"].is_object() ? obj["status"] : json::object();
  json out = {{"kind", "Scale"},
              {"apiVersion", "autoscaling/v1"},
              {"metadata", scale_meta},
              {"spec", {{"replicas", spec.value("replicas", int64_t{1})}}},
              {"status", {{"replicas", status.value("replicas", int64_t{0})}}}};
  const std::string selector = SelectorString(spec.contains("selector") ? spec["selector"] : json());
  if (!selector.empty()) out["status"]["selector"] = selector;
  return out;
}

json WithReplicas(json obj, const json& scale, const registry::ScalePaths* paths) {
  if (scale.contains("spec") && scale["spec"].is_object() && scale["spec"].contains("replicas")) {
    if (paths != nullptr) {
      *MutableAtPath(&obj, paths->spec_replicas) = scale["spec"]["replicas"];
    } else {
      obj["spec"]["replicas"] = scale["spec"]["replicas"];
    }
  }
  // The Scale's resourceVersion is the object's: carry it so a stale Scale conflicts.
  if (scale.contains("metadata") && scale["metadata"].is_object() && scale["metadata"].contains("resourceVersion")) {
    obj["metadata"]["resourceVersion"] = scale["metadata"]["resourceVersion"];
  }
  return obj;
}

Result<json> WriteThroughScale(const registry::Store& store, const json& current,
                               const std::function<Result<json>(const json&)>& write) {
  const registry::ScalePaths* paths = ScalePathsOf(store);
  const std::string replicas_path = paths != nullptr ? paths->spec_replicas : ".spec.replicas";
  const json& meta = current.contains("metadata") ? current["metadata"] : json::object();
  const json parent_entries = meta.is_object() && meta.contains("managedFields") ? meta["managedFields"] : json();
  json scale = ScaleOf(current, paths);
  if (json view = registry::ScaleView(parent_entries, replicas_path); !view.is_null()) {
    scale["metadata"]["managedFields"] = std::move(view);
  }
  auto written = write(scale);
  if (!written.ok()) return written.status();
  // kube validates the Scale itself before it touches the parent, and names the Scale.
  if (const json::json_pointer at("/spec/replicas"); written->contains(at) && written->at(at).is_number_integer()) {
    if (auto errors = validation::ValidateNonnegativeField(written->at(at).get<int64_t>(), "spec.replicas"); !errors.empty()) {
      return registry::InvalidError("autoscaling", "Scale", scale["metadata"].value("name", ""), errors);
    }
  }
  json next = WithReplicas(current, *written, paths);
  const json& written_meta = written->contains("metadata") ? (*written)["metadata"] : json::object();
  json entries = registry::ParentAfter(
      parent_entries, written_meta.is_object() && written_meta.contains("managedFields") ? written_meta["managedFields"] : json(),
      store.ApiVersion(), replicas_path);
  if (entries.is_null()) {
    next["metadata"].erase("managedFields");
  } else {
    next["metadata"]["managedFields"] = std::move(entries);
  }
  return next;
}

}  // namespace kube::endpoints
