#include "conversion/conversion.h"

#include "conversion/conversion_internal.h"

namespace kube::conversion {

namespace {

constexpr std::string_view kDraBeta1 = "resource.k8s.io/v1beta1";

std::string_view GroupOf(std::string_view api_version) {
  const size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

bool IsDraKindWithMapping(std::string_view kind) {
  return kind == "ResourceClaim" || kind == "ResourceClaimTemplate" || kind == "ResourceSlice";
}

}  // namespace

std::string ApiVersionOf(std::string_view group, std::string_view version) {
  return group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
}

std::string StorageApiVersion(const catalogue::Catalogue& catalogue, std::string_view group,
                              std::string_view resource) {
  if (resource == "events" && (group.empty() || group == "events.k8s.io")) return "v1";
  // Resources() lists a group's versions in priority order: the first with the resource wins.
  for (const auto& info : catalogue.Resources()) {
    if (info.group == group && info.resource == resource) return ApiVersionOf(info.group, info.version);
  }
  return "";
}

bool NeedsFieldMapping(std::string_view kind, std::string_view from, std::string_view to) {
  if (from == to) return false;
  if (kind == "HorizontalPodAutoscaler") return true;  // autoscaling/v1 <-> v2
  if (kind == "Event") return GroupOf(from) != GroupOf(to);
  if (IsDraKindWithMapping(kind)) return from == kDraBeta1 || to == kDraBeta1;
  return false;
}

Result<Object> Convert(const Object& in, std::string_view to) {
  if (!in.is_object()) return Status::BadRequest("the object to convert is not a JSON object");
  auto api_version = in.find("apiVersion");
  const std::string from = api_version != in.end() && api_version->is_string() ? api_version->get<std::string>() : "";
  auto kind_it = in.find("kind");
  const std::string kind = kind_it != in.end() && kind_it->is_string() ? kind_it->get<std::string>() : "";
  if (from.empty() || !NeedsFieldMapping(kind, from, to)) {
    Object out = in;
    out["apiVersion"] = std::string(to);
    return out;
  }
  if (kind == "HorizontalPodAutoscaler") {
    if (from == "autoscaling/v1") {
      auto v2 = internal::HpaV1ToV2(in);
      if (!v2.ok() || to == "autoscaling/v2") return v2;
      return Convert(*v2, to);
    }
    // Any other version reaches v1 through v2, which every other version shares its layout with.
    Object v2 = in;
    v2["apiVersion"] = "autoscaling/v2";
    if (to == "autoscaling/v1") return internal::HpaV2ToV1(std::move(v2));
    v2["apiVersion"] = std::string(to);
    return v2;
  }
  if (kind == "Event") {
    return to == "v1" ? internal::EventsV1ToCoreEvent(in) : internal::CoreEventToEventsV1(in);
  }
  // resource.k8s.io: v1beta1 on one side, the v1 layout on the other.
  if (from == kDraBeta1) return internal::DraV1beta1ToV1(in, to);
  return internal::DraV1ToV1beta1(in);
}

}  // namespace kube::conversion
