#include "storage/object_codec.h"

#include <nlohmann/json.hpp>

namespace kube::storage {

namespace {

std::string MetadataString(const Object& obj, const char* field) {
  auto meta = obj.find("metadata");
  if (meta == obj.end() || !meta->is_object()) return "";
  auto it = meta->find(field);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string EncodeObject(const Object& obj) {
  auto meta = obj.find("metadata");
  const bool has_stamp = meta != obj.end() && meta->is_object() &&
                         (meta->contains("resourceVersion") || meta->contains("selfLink"));
  // Invalid UTF-8 cannot come from a JSON parser, but replacing beats throwing across layers.
  if (!has_stamp) return obj.dump(-1, ' ', false, Object::error_handler_t::replace);
  Object copy = obj;
  copy["metadata"].erase("resourceVersion");
  copy["metadata"].erase("selfLink");
  return copy.dump(-1, ' ', false, Object::error_handler_t::replace);
}

void SetResourceVersion(Object* obj, int64_t revision) {
  if (!obj->is_object()) *obj = Object::object();
  Object& meta = (*obj)["metadata"];
  if (!meta.is_object()) meta = Object::object();
  meta["resourceVersion"] = revision > 0 ? std::to_string(revision) : std::string();
}

Result<ObjectPtr> DecodeObject(std::string_view bytes, int64_t revision) {
  auto obj = std::make_shared<Object>(Object::parse(bytes, nullptr, /*allow_exceptions=*/false));
  if (obj->is_discarded() || !obj->is_object()) {
    return Status::Internal("unable to decode stored object at revision " + std::to_string(revision));
  }
  SetResourceVersion(obj.get(), revision);
  return ObjectPtr(std::move(obj));
}

ObjectPtr StampResourceVersion(const Object& obj, int64_t revision) {
  auto copy = std::make_shared<Object>(obj);
  SetResourceVersion(copy.get(), revision);
  return copy;
}

std::string ObjectResourceVersion(const Object& obj) { return MetadataString(obj, "resourceVersion"); }
std::string ObjectUid(const Object& obj) { return MetadataString(obj, "uid"); }

Status CheckPreconditions(const Preconditions* preconditions, const Object& obj) {
  if (preconditions == nullptr) return Status::OK();
  if (preconditions->uid && *preconditions->uid != ObjectUid(obj)) {
    return Status::Conflict("Precondition failed: UID in precondition: " + *preconditions->uid +
                            ", UID in object meta: " + ObjectUid(obj));
  }
  if (preconditions->resource_version &&
      *preconditions->resource_version != ObjectResourceVersion(obj)) {
    return Status::Conflict("Precondition failed: ResourceVersion in precondition: " +
                            *preconditions->resource_version +
                            ", ResourceVersion in object meta: " + ObjectResourceVersion(obj));
  }
  return Status::OK();
}

ObjectPtr MakeBookmark(const Object& empty, int64_t revision, bool initial_events_end) {
  auto obj = std::make_shared<Object>(empty.is_object() ? empty : Object::object());
  SetResourceVersion(obj.get(), revision);
  if (initial_events_end) {
    (*obj)["metadata"]["annotations"][std::string(kInitialEventsEndAnnotation)] = "true";
  }
  return obj;
}

std::string_view WatchEventTypeName(WatchEventType type) {
  switch (type) {
    case WatchEventType::kAdded: return "ADDED";
    case WatchEventType::kModified: return "MODIFIED";
    case WatchEventType::kDeleted: return "DELETED";
    case WatchEventType::kBookmark: return "BOOKMARK";
    case WatchEventType::kError: return "ERROR";
  }
  return "ERROR";
}

}  // namespace kube::storage
