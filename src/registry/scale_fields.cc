#include "registry/scale_fields.h"

#include <string>
#include <vector>

#include "catalogue/catalogue.h"
#include "registry/managed_sets.h"

namespace kube::registry {

using nlohmann::json;

namespace {

constexpr std::string_view kScaleVersion = "autoscaling/v1";

// ".spec.replicas" as a path of field names.
FieldPath PathOf(std::string_view dotted) {
  std::vector<std::string> names;
  if (dotted.starts_with('.')) dotted.remove_prefix(1);
  while (!dotted.empty()) {
    const size_t dot = dotted.find('.');
    names.emplace_back(dotted.substr(0, dot));
    dotted = dot == std::string_view::npos ? std::string_view() : dotted.substr(dot + 1);
  }
  FieldPath path;
  for (auto& n : names) path.push_back(PathElement::Field(std::move(n)));
  return path;
}

FieldSet SetOf(const FieldPath& path) {
  FieldSet set;
  set.Insert(path);
  return set;
}

const FieldPath& ScaleReplicas() {
  static const FieldPath kPath{PathElement::Field("spec"), PathElement::Field("replicas")};
  return kPath;
}

// kube maps the replicas field of the versions it knows; here every version of the object's group.
bool SameGroup(std::string_view a, std::string_view b) {
  const size_t sa = a.find('/'), sb = b.find('/');
  return (sa == std::string_view::npos ? "" : a.substr(0, sa)) == (sb == std::string_view::npos ? "" : b.substr(0, sb));
}

}  // namespace

json ScaleView(const json& parent_entries, std::string_view replicas_path) {
  auto parent = DecodeManaged(parent_entries);
  if (!parent.ok()) return nullptr;
  const FieldPath replicas = PathOf(replicas_path);
  Managed scale;
  for (const auto& [id, set] : parent->sets) {
    if (!set.set.Has(replicas)) continue;
    scale.sets[id] = ManagedSet{SetOf(ScaleReplicas()), std::string(kScaleVersion), set.applied};
    scale.times[id] = parent->times[id];
  }
  return EncodeManaged(scale);
}

json ParentAfter(const json& parent_entries, const json& scale_entries, std::string_view parent_api_version,
                 std::string_view replicas_path) {
  auto parent = DecodeManaged(parent_entries);
  auto scale = DecodeManaged(scale_entries);
  if (!parent.ok() || !scale.ok()) return parent_entries;
  const FieldPath replicas = PathOf(replicas_path);
  Managed out;
  for (auto& [id, set] : parent->sets) {
    if (!SameGroup(set.api_version, parent_api_version)) continue;
    const std::optional<int64_t> time = parent->times[id];
    if (!set.set.Has(replicas)) {
      out.sets[id] = std::move(set);
      out.times[id] = time;
    } else if (auto kept = scale->sets.find(id); kept != scale->sets.end()) {
      // Still the replicas' manager through the Scale: the entry stays as it is.
      out.sets[id] = std::move(set);
      out.times[id] = time;
      scale->sets.erase(kept);
    } else {
      // The Scale write took the replicas from this manager.
      FieldSet rest = set.set.Difference(SetOf(replicas));
      if (rest.Empty()) continue;
      out.sets[id] = ManagedSet{std::move(rest), set.api_version, set.applied};
      out.times[id] = time;
    }
  }
  for (const auto& [id, set] : scale->sets) {
    if (!set.set.Has(ScaleReplicas())) continue;
    out.sets[id] = ManagedSet{SetOf(replicas), std::string(parent_api_version), set.applied};
    // As kube does, the entry takes the object's time for this manager (none for a new one).
    out.times[id] = parent->times.contains(id) ? parent->times[id] : std::nullopt;
  }
  return EncodeManaged(out);
}

const FieldManager& ScaleFieldManager() {
  static const FieldManager* const manager = new FieldManager(FieldManagerConfig{
      .schema = catalogue::Catalogue::BuiltIn().KindSchema("autoscaling", "v1", "Scale"),
      .api_version = std::string(kScaleVersion),
      .kind = "Scale",
      .subresource = "scale"});
  return *manager;
}

}  // namespace kube::registry
