#include "registry/managed_sets.h"

#include <vector>

#include "registry/managed_fields.h"

namespace kube::registry {

using nlohmann::json;

Result<Managed> DecodeManaged(const json& managed_fields) {
  auto entries = DecodeManagedFieldsEntries(managed_fields, /*copy_fields=*/false);
  if (!entries.ok()) return entries.status();
  Managed managed;
  static const json kNoFields = json::object();
  for (size_t i = 0; i < entries->size(); ++i) {
    ManagedFieldsEntry& e = (*entries)[i];
    std::string id = ManagerIdentifier(e);
    auto fields = managed_fields[i].find("fieldsV1");
    auto set = FieldSet::FromFieldsV1(fields == managed_fields[i].end() || fields->is_null() ? kNoFields : *fields);
    if (!set.ok()) {
      return Status::BadRequest("error decoding versioned set from " + id + ": error decoding set: " +
                                set.status().message());
    }
    managed.times[id] = e.time;
    managed.sets.insert_or_assign(std::move(id), ManagedSet{std::move(*set), e.api_version, e.operation == kOperationApply});
  }
  return managed;
}

Managed DecodeManagedOrEmpty(const json& managed_fields) {
  auto managed = DecodeManaged(managed_fields);
  return managed.ok() ? std::move(*managed) : Managed{};
}

json EncodeManaged(const Managed& managed) {
  std::vector<ManagedFieldsEntry> entries;
  entries.reserve(managed.sets.size());
  for (const auto& [id, set] : managed.sets) {
    std::optional<ManagedFieldsEntry> e = EntryOfIdentifier(id);
    if (!e) e = ManagedFieldsEntry{.manager = id};
    e->api_version = set.api_version;
    e->operation = std::string(set.applied ? kOperationApply : kOperationUpdate);
    e->fields_type = "FieldsV1";
    e->fields_v1 = set.set.ToFieldsV1();
    if (auto t = managed.times.find(id); t != managed.times.end()) e->time = t->second;
    entries.push_back(std::move(*e));
  }
  return EncodeManagedFieldsEntries(std::move(entries));
}

std::string ManagerIdentifierOf(std::string_view manager, std::string_view operation, std::string_view api_version,
                                std::string_view subresource) {
  return ManagerIdentifier(ManagedFieldsEntry{.manager = manager.empty() ? "unknown" : std::string(manager),
                                              .operation = std::string(operation),
                                              .api_version = std::string(api_version),
                                              .subresource = std::string(subresource)});
}

}  // namespace kube::registry
