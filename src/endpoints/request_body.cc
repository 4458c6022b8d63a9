#include "endpoints/request_body.h"

#include <cctype>

#include "endpoints/field_validation.h"
#include "endpoints/negotiation.h"
#include "util/json_depth.h"
#include "yaml/yaml.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

constexpr std::string_view kUnsupportedBody =
    "the body of the request was in an unknown format - accepted media types include: "
    "application/json, application/yaml, application/vnd.kubernetes.protobuf";

// Where kube's options scheme is created: its "not registered" errors name it.
constexpr std::string_view kOptionsScheme = "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27";

// kube's answer when the serializer cannot even find apiVersion and kind in a body: the decode
// error and the first bytes of the body (as text when it looks like JSON, else in hex).
Status Unrecognized(std::string_view kind, std::string_view error, std::string_view body) {
  constexpr size_t kSummaryBytes = 30;
  std::string summary;
  if (body.empty()) {
    summary = "<empty>";
  } else if (body.front() == '{') {
    summary = std::string(body.substr(0, kSummaryBytes)) + (body.size() > kSummaryBytes ? " ..." : "");
  } else {
    static constexpr char kHex[] = "0123456789abcdef";
    for (unsigned char c : body.substr(0, kSummaryBytes)) {
      summary += kHex[c >> 4];
      summary += kHex[c & 0xf];
    }
    if (body.size() > kSummaryBytes) summary += " ...";
  }
  return Status::BadRequest("the object provided is unrecognized (must be of type " + std::string(kind) +
                            "): " + std::string(error) + " (" + summary + ")");
}

Result<json> DecodeAnyBody(const HttpRequest& request, const protobuf::KindDefaults& expected,
                           std::vector<std::string>* duplicates) {
  switch (ParseContentType(request.Header("Content-Type"))) {
    case BodyType::kJson: {
      const std::string& text = request.body;
      // Before anything else: nothing may walk a value nested deeper than kube's decoder allows.
      if (size_t at = FindJsonDepthExcess(text); at != std::string::npos) {
        return Unrecognized(expected.kind, "couldn't get version/kind; json parse error: " + JsonDepthError(text[at]),
                            text);
      }
      if (!HasBody(request)) {
        return Unrecognized(expected.kind, "couldn't get version/kind; json parse error: unexpected end of JSON input",
                            text);
      }
      json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (body.is_discarded()) return Status::BadRequest("the request body is not valid JSON");
      for (auto& path : DuplicateFields(text)) duplicates->push_back("duplicate field \"" + path + "\"");
      return body;
    }
    case BodyType::kYaml: {
      auto body = yaml::YamlToJson(request.body);
      if (!body.ok()) return body;
      // The strict decoder rejects what the lenient one let through: repeated keys.
      if (auto strict = yaml::YamlToJsonStrict(request.body); !strict.ok()) {
        duplicates->push_back(strict.status().message());
      }
      return body;
    }
    case BodyType::kProtobuf:
      // Built-in kinds and option kinds, as in kube: the envelope names the kind, the catalogue
      // its message.
      return protobuf::DecodeObject(request.body, expected);
    default:
      return Status(StatusCode::kUnsupportedMediaType, std::string(kUnsupportedBody));
  }
}

}  // namespace

bool HasBody(const HttpRequest& request) {
  for (char c : request.body) {
    if (!std::isspace(static_cast<unsigned char>(c))) return true;
  }
  return false;
}

Result<json> DecodeObjectBody(const HttpRequest& request, const protobuf::KindDefaults& expected,
                              std::vector<std::string>* duplicates) {
  auto body = DecodeAnyBody(request, expected, duplicates);
  if (body.ok() && !body->is_object()) return Status::BadRequest("the body of the request must be a JSON object");
  return body;
}

Result<json> DecodeOptionsBody(const HttpRequest& request, std::string_view kind) {
  std::vector<std::string> duplicates;  // typed options decoding keeps the last of repeated keys
  auto body = DecodeObjectBody(request, {.api_version = "meta.k8s.io/v1", .kind = std::string(kind)}, &duplicates);
  if (!body.ok()) return body;
  const json& k = body->contains("kind") ? (*body)["kind"] : json();
  if (!k.is_null() && k != "" && k != kind) {
    const json& v = body->contains("apiVersion") ? (*body)["apiVersion"] : json();
    const std::string version = v.is_string() && !v.get_ref<const std::string&>().empty() ? v.get<std::string>()
                                                                                           : "meta.k8s.io/v1";
    return Status::BadRequest("no kind \"" + (k.is_string() ? k.get<std::string>() : k.dump()) +
                              "\" is registered for version \"" + version + "\" in scheme \"" +
                              std::string(kOptionsScheme) + "\"");
  }
  return body;
}

}  // namespace kube::endpoints
