#include "endpoints/render.h"

#include <chrono>

#include "printers/printers.h"

namespace kube::endpoints {

using nlohmann::json;

json PartialObjectMetadata(const json& obj) {
  json meta = obj.contains("metadata") ? obj["metadata"] : json::object();
  return {{"kind", "PartialObjectMetadata"}, {"apiVersion", "meta.k8s.io/v1"}, {"metadata", std::move(meta)}};
}

namespace {

Status CheckIncludeObject(std::string_view include_object) {
  if (printers::IsValidIncludeObject(include_object)) return Status::OK();
  return Status::BadRequest("Unable to convert to Table as requested: includeObject: Invalid value: \"" +
                            std::string(include_object) + "\": must be 'Metadata', 'Object', 'None', or empty");
}

// The Go type kube's object serializer names when it refuses a PartialObjectMetadata conversion:
// the internal type (*core.ConfigMap, *apps.DeploymentList), or unstructured for custom resources.
std::string InternalTypeName(const registry::Store& store, bool list) {
  const auto& info = store.info();
  if (store.rules().custom_resource) return list ? "*unstructured.UnstructuredList" : "*unstructured.Unstructured";
  return "*" + catalogue::InternalGoPackage(info.group) + "." + (list ? info.list_kind : info.kind);
}

json Table(const registry::Store& store, const std::vector<const json*>& objects, const std::string& rv,
           std::string_view include_object, const std::string& table_version, std::string_view subresource = "") {
  const auto& info = store.info();
  const std::string_view include = include_object.empty() ? "Metadata" : include_object;
  const auto now = std::chrono::system_clock::now();
  const printers::TablePrinter* printer = store.strategy() ? store.strategy()->Printer(subresource) : nullptr;
  json table = printer != nullptr ? printers::BuildTable(*printer, objects, rv, include, now)
                                  : printers::BuildTable(info.group, info.resource, objects, rv, include, now);
  table["apiVersion"] = "meta.k8s.io/" + table_version;
  return table;
}

}  // namespace

Result<json> RenderList(const registry::Store& store, const storage::ListResult& list,
                        const Representation& rep, std::string_view include_object) {
  const auto& info = store.info();
  json meta = {{"resourceVersion", list.resource_version}};
  if (!list.continue_token.empty()) meta["continue"] = list.continue_token;
  if (list.remaining_item_count) meta["remainingItemCount"] = *list.remaining_item_count;
  switch (rep.as) {
    case Representation::As::kTable: {
      KUBE_RETURN_IF_ERROR(CheckIncludeObject(include_object));
      std::vector<const json*> objects;
      for (const auto& item : list.items) objects.push_back(item.get());
      json table = Table(store, objects, list.resource_version, include_object, rep.version);
      table["metadata"] = meta;
      return table;
    }
    case Representation::As::kPartialObjectMetadata:
      return Status(StatusCode::kNotAcceptable,
                    "you requested PartialObjectMetadata, but the requested object is a list (" +
                        InternalTypeName(store, /*list=*/true) + ")");
    case Representation::As::kPartialObjectMetadataList: {
      json items = json::array();
      for (const auto& item : list.items) items.push_back(PartialObjectMetadata(*item));
      return json{{"kind", "PartialObjectMetadataList"}, {"apiVersion", "meta.k8s.io/v1"},
                  {"metadata", meta}, {"items", std::move(items)}};
    }
    default: {
      json items = json::array();
      for (const auto& item : list.items) items.push_back(*item);
      return json{{"kind", info.list_kind}, {"apiVersion", store.ApiVersion()}, {"metadata", meta},
                  {"items", std::move(items)}};
    }
  }
}

Result<json> RenderObject(const registry::Store& store, const storage::ObjectPtr& obj, const Representation& rep,
                          std::string_view include_object, bool with_column_definitions) {
  switch (rep.as) {
    case Representation::As::kTable: {
      KUBE_RETURN_IF_ERROR(CheckIncludeObject(include_object));
      const std::string rv = (*obj)["metadata"].value("resourceVersion", "");
      json table = Table(store, {obj.get()}, rv, include_object, rep.version);
      if (!with_column_definitions) table["columnDefinitions"] = nullptr;
      return table;
    }
    case Representation::As::kPartialObjectMetadata:
      return PartialObjectMetadata(*obj);
    case Representation::As::kPartialObjectMetadataList:
      return Status(StatusCode::kNotAcceptable, "you requested PartialObjectMetadataList, but the requested object is not a list (" +
                                                    InternalTypeName(store, /*list=*/false) + ")");
    default:
      return *obj;
  }
}

Result<json> RenderScale(const registry::Store& store, const json& scale, const Representation& rep,
                         std::string_view include_object) {
  if (rep.as != Representation::As::kTable) return scale;
  KUBE_RETURN_IF_ERROR(CheckIncludeObject(include_object));
  const std::string rv = scale["metadata"].value("resourceVersion", "");
  return Table(store, {&scale}, rv, include_object, rep.version, "scale");
}

}  // namespace kube::endpoints
