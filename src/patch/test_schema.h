// Test-only: a catalogue::Schema built from a compact JSON description, and the descriptions of
// the built-in kinds the patch tests use (trimmed to the fields they touch, with the patch
// strategies and merge keys of the real types in k8s.io/api).
//
// Description format: "string" | "integer" | "any" | ... (a scalar), or an object with "type"
// ("object" | "map" | "array" | scalar), "fields" (object), "items" (map/array), and the
// optional "definition", "patchStrategy", "patchMergeKey", "listType", "listMapKeys".
//
// Thread-safety: immutable after construction.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalogue/schema.h"

namespace kube::patch::testing {

class FakeSchema : public catalogue::Schema {
 public:
  explicit FakeSchema(const nlohmann::json& d) {
    const nlohmann::json desc = d.is_string() ? nlohmann::json{{"type", d}} : d;
    std::string t = desc.value("type", "any");
    type_ = t == "object"    ? Type::kObject
            : t == "map"     ? Type::kMap
            : t == "array"   ? Type::kArray
            : t == "string"  ? Type::kString
            : t == "integer" ? Type::kInteger
            : t == "boolean" ? Type::kBoolean
            : t == "intOrString" ? Type::kIntOrString
            : t == "quantity" ? Type::kQuantity
                              : Type::kAny;
    if (auto f = desc.find("fields"); f != desc.end()) {
      for (auto it = f->begin(); it != f->end(); ++it) {
        fields_.emplace(it.key(), std::make_unique<FakeSchema>(*it));
      }
    }
    if (auto i = desc.find("items"); i != desc.end()) items_ = std::make_unique<FakeSchema>(*i);
    strategy_ = desc.value("patchStrategy", "");
    merge_key_ = desc.value("patchMergeKey", "");
    list_type_ = desc.value("listType", "");
    definition_ = desc.value("definition", "");
    if (auto k = desc.find("listMapKeys"); k != desc.end()) {
      map_keys_ = k->get<std::vector<std::string>>();
    }
  }

  Type type() const override { return type_; }
  std::string_view definition() const override { return definition_; }
  const Schema* Field(std::string_view name) const override {
    auto it = fields_.find(name);
    return it == fields_.end() ? nullptr : it->second.get();
  }
  std::vector<std::string> FieldNames() const override {
    std::vector<std::string> names;
    for (const auto& [name, unused] : fields_) names.push_back(name);
    return names;
  }
  const std::vector<std::string>& Required() const override { return required_; }
  const Schema* Items() const override { return items_.get(); }
  std::string_view ListType() const override { return list_type_; }
  const std::vector<std::string>& ListMapKeys() const override { return map_keys_; }
  std::string_view PatchStrategy() const override { return strategy_; }
  std::string_view PatchMergeKey() const override { return merge_key_; }

 private:
  Type type_;
  std::map<std::string, std::unique_ptr<FakeSchema>, std::less<>> fields_;
  std::unique_ptr<FakeSchema> items_;
  std::string strategy_, merge_key_, list_type_, definition_;
  std::vector<std::string> map_keys_, required_;
};

inline nlohmann::json MergeList(nlohmann::json item, const char* key, const char* strategy = "merge") {
  return {{"type", "array"}, {"items", std::move(item)}, {"patchStrategy", strategy},
          {"patchMergeKey", key}, {"listType", "map"}, {"listMapKeys", nlohmann::json::array({key})}};
}

inline nlohmann::json ObjectMetaDesc() {
  using nlohmann::json;
  json owner = {{"type", "object"},
                {"definition", "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"},
                {"fields", {{"apiVersion", "string"}, {"kind", "string"}, {"name", "string"},
                            {"uid", "string"}, {"controller", "boolean"}}}};
  return {{"type", "object"},
          {"definition", "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
          {"fields",
           {{"name", "string"},
            {"namespace", "string"},
            {"uid", "string"},
            {"resourceVersion", "string"},
            {"labels", {{"type", "map"}, {"items", "string"}}},
            {"annotations", {{"type", "map"}, {"items", "string"}}},
            // ObjectMeta.finalizers: patchStrategy merge, listType set.
            {"finalizers",
             {{"type", "array"}, {"items", "string"}, {"patchStrategy", "merge"},
              {"listType", "set"}}},
            {"ownerReferences", MergeList(owner, "uid")}}}};
}

inline nlohmann::json PodSpecDesc() {
  using nlohmann::json;
  json env = {{"type", "object"},
              {"definition", "io.k8s.api.core.v1.EnvVar"},
              {"fields", {{"name", "string"}, {"value", "string"}, {"valueFrom", "any"}}}};
  json port = {{"type", "object"},
               {"definition", "io.k8s.api.core.v1.ContainerPort"},
               {"fields", {{"containerPort", "integer"}, {"name", "string"},
                           {"protocol", "string"}}}};
  json mount = {{"type", "object"}, {"fields", {{"name", "string"}, {"mountPath", "string"}}}};
  json container = {
      {"type", "object"},
      {"definition", "io.k8s.api.core.v1.Container"},
      {"fields",
       {{"name", "string"},
        {"image", "string"},
        {"args", {{"type", "array"}, {"items", "string"}, {"listType", "atomic"}}},
        {"command", {{"type", "array"}, {"items", "string"}, {"listType", "atomic"}}},
        {"env", MergeList(env, "name")},
        {"ports", MergeList(port, "containerPort")},
        {"volumeMounts", MergeList(mount, "mountPath")},
        {"resources",
         {{"type", "object"},
          {"fields", {{"limits", {{"type", "map"}, {"items", "quantity"}}},
                      {"requests", {{"type", "map"}, {"items", "quantity"}}}}}}}}}};
  json volume = {
      {"type", "object"},
      {"definition", "io.k8s.api.core.v1.Volume"},
      {"fields",
       {{"name", "string"},
        {"emptyDir", {{"type", "object"}, {"fields", {{"medium", "string"},
                                                      {"sizeLimit", "quantity"}}}}},
        {"configMap", {{"type", "object"}, {"fields", {{"name", "string"},
                                                       {"defaultMode", "integer"}}}}},
        {"hostPath", {{"type", "object"}, {"fields", {{"path", "string"}, {"type", "string"}}}}}}}};
  json toleration = {{"type", "object"},
                     {"fields", {{"key", "string"}, {"operator", "string"}, {"value", "string"},
                                 {"effect", "string"}}}};
  json ref = {{"type", "object"}, {"fields", {{"name", "string"}}}};
  return {{"type", "object"},
          {"definition", "io.k8s.api.core.v1.PodSpec"},
          {"fields",
           {{"containers", MergeList(container, "name")},
            {"initContainers", MergeList(container, "name")},
            // PodSpec.volumes: patchStrategy "merge,retainKeys".
            {"volumes", MergeList(volume, "name", "merge,retainKeys")},
            // PodSpec.tolerations: no patch strategy (atomic).
            {"tolerations", {{"type", "array"}, {"items", toleration}, {"listType", "atomic"}}},
            {"imagePullSecrets", MergeList(ref, "name")},
            {"nodeSelector", {{"type", "map"}, {"items", "string"}}},
            {"serviceAccountName", "string"},
            {"restartPolicy", "string"}}}};
}

inline nlohmann::json PodDesc() {
  return {{"type", "object"},
          {"definition", "io.k8s.api.core.v1.Pod"},
          {"fields", {{"apiVersion", "string"}, {"kind", "string"}, {"metadata", ObjectMetaDesc()},
                      {"spec", PodSpecDesc()}}}};
}

inline nlohmann::json DeploymentDesc() {
  using nlohmann::json;
  json rolling = {{"type", "object"},
                  {"definition", "io.k8s.api.apps.v1.RollingUpdateDeployment"},
                  {"fields", {{"maxSurge", "intOrString"}, {"maxUnavailable", "intOrString"}}}};
  json spec = {
      {"type", "object"},
      {"definition", "io.k8s.api.apps.v1.DeploymentSpec"},
      {"fields",
       {{"replicas", "integer"},
        {"selector", {{"type", "object"},
                      {"fields", {{"matchLabels", {{"type", "map"}, {"items", "string"}}}}}}},
        // DeploymentSpec.strategy: patchStrategy "retainKeys".
        {"strategy", {{"type", "object"}, {"patchStrategy", "retainKeys"},
                      {"definition", "io.k8s.api.apps.v1.DeploymentStrategy"},
                      {"fields", {{"type", "string"}, {"rollingUpdate", rolling}}}}},
        {"template", {{"type", "object"},
                      {"definition", "io.k8s.api.core.v1.PodTemplateSpec"},
                      {"fields", {{"metadata", ObjectMetaDesc()}, {"spec", PodSpecDesc()}}}}}}}};
  return {{"type", "object"},
          {"definition", "io.k8s.api.apps.v1.Deployment"},
          {"fields", {{"apiVersion", "string"}, {"kind", "string"}, {"metadata", ObjectMetaDesc()},
                      {"spec", spec}}}};
}

inline nlohmann::json NamespaceDesc() {
  using nlohmann::json;
  // NamespaceSpec.finalizers has no patch strategy: a patch replaces the list.
  json spec = {{"type", "object"},
               {"definition", "io.k8s.api.core.v1.NamespaceSpec"},
               {"fields", {{"finalizers", {{"type", "array"}, {"items", "string"}}}}}};
  return {{"type", "object"},
          {"definition", "io.k8s.api.core.v1.Namespace"},
          {"fields", {{"apiVersion", "string"}, {"kind", "string"}, {"metadata", ObjectMetaDesc()},
                      {"spec", spec}}}};
}

}  // namespace kube::patch::testing
