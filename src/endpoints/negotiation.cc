#include "endpoints/negotiation.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <span>
#include <vector>

namespace kube::endpoints {

namespace {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

struct MediaRange {
  std::string type;
  std::map<std::string, std::string> params;
};

MediaRange ParseMediaRange(std::string_view text) {
  MediaRange m;
  size_t semi = text.find(';');
  m.type = Lower(Trim(text.substr(0, semi)));
  while (semi != std::string_view::npos) {
    size_t next = text.find(';', semi + 1);
    std::string param = Trim(text.substr(semi + 1, next == std::string_view::npos ? std::string_view::npos
                                                                                 : next - semi - 1));
    size_t eq = param.find('=');
    if (eq != std::string::npos) {
      std::string value = Trim(param.substr(eq + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      m.params[Lower(Trim(param.substr(0, eq)))] = value;
    }
    semi = next;
  }
  return m;
}

}  // namespace

Result<Representation> Negotiate(std::string_view accept, bool allow_discovery, bool allow_protobuf) {
  if (Trim(accept).empty()) return Representation{};
  size_t start = 0;
  while (start <= accept.size()) {
    size_t comma = accept.find(',', start);
    MediaRange m = ParseMediaRange(accept.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                                       : comma - start));
    start = comma == std::string_view::npos ? accept.size() + 1 : comma + 1;
    const bool json = m.type == "application/json";
    const bool proto = m.type == "application/vnd.kubernetes.protobuf" && !allow_discovery && allow_protobuf;
    if (m.type == "*/*" || m.type == "application/*") return Representation{};
    if (m.type == "application/yaml" && !allow_discovery && !m.params.count("as")) {
      Representation yaml;
      yaml.yaml = true;
      return yaml;
    }
    if (!json && !proto) continue;
    auto as = m.params.find("as");
    if (as == m.params.end()) return Representation{Representation::As::kObject, "", proto};
    const std::string g = m.params.count("g") ? m.params["g"] : "";
    const std::string v = m.params.count("v") ? m.params["v"] : "";
    if (g == "meta.k8s.io" && (v == "v1" || v == "v1beta1")) {
      if (as->second == "Table" && !proto) return Representation{Representation::As::kTable, v};
      if (as->second == "PartialObjectMetadata") {
        return Representation{Representation::As::kPartialObjectMetadata, v, proto};
      }
      if (as->second == "PartialObjectMetadataList") {
        return Representation{Representation::As::kPartialObjectMetadataList, v, proto};
      }
    }
    if (allow_discovery && g == "apidiscovery.k8s.io" && as->second == "APIGroupDiscoveryList" &&
        (v == "v2" || v == "v2beta1")) {
      return Representation{Representation::As::kDiscovery, v};
    }
  }
  return Status(StatusCode::kNotAcceptable,
                "only the following media types are accepted: application/json, application/yaml, "
                "application/vnd.kubernetes.protobuf");
}

namespace {

constexpr std::string_view kRouteMediaTypes[] = {"application/json", "application/yaml",
                                                 "application/vnd.kubernetes.protobuf",
                                                 "application/json;stream=watch",
                                                 "application/vnd.kubernetes.protobuf;stream=watch"};

std::span<const std::string_view> RouteMediaTypes(bool collection_get) {
  return std::span<const std::string_view>(kRouteMediaTypes).first(collection_get ? 5 : 3);
}

}  // namespace

bool RouteAccepts(std::string_view accept, bool collection_get) {
  if (accept.empty()) return true;
  const auto produced = RouteMediaTypes(collection_get);
  for (std::string_view rest = accept; !rest.empty();) {
    const size_t comma = rest.find(',');
    std::string_view clause = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    // Case kept: go-restful compares the bare type as written.
    const std::string type = Trim(clause.substr(0, clause.find(';')));
    if (type == "*/*" || std::find(produced.begin(), produced.end(), type) != produced.end()) return true;
  }
  return false;
}

Status RouteNotAcceptable(bool collection_get) {
  std::string available;
  for (std::string_view type : RouteMediaTypes(collection_get)) {
    if (!available.empty()) available += ", ";
    available += type;
  }
  return Status(StatusCode::kNotAcceptable, "406: Not Acceptable\n\nAvailable representations: " + available);
}

BodyType ParseContentType(std::string_view content_type) {
  const std::string type = ParseMediaRange(content_type).type;
  if (type.empty() || type == "application/json") return BodyType::kJson;
  if (type == "application/yaml" || type == "application/x-yaml" || type == "text/yaml") return BodyType::kYaml;
  if (type == "application/vnd.kubernetes.protobuf") return BodyType::kProtobuf;
  if (type == "application/json-patch+json") return BodyType::kJsonPatch;
  if (type == "application/merge-patch+json") return BodyType::kMergePatch;
  if (type == "application/strategic-merge-patch+json") return BodyType::kStrategicMergePatch;
  if (type == "application/apply-patch+yaml" || type == "application/apply-patch+cbor") return BodyType::kApplyPatch;
  return BodyType::kUnknown;
}

}  // namespace kube::endpoints
