// ConfigMaps, Secrets, ServiceAccounts and Namespaces: kube's ValidateConfigMap(Update),
// ValidateSecret(Update), ValidateServiceAccount and ValidateNamespace(StatusUpdate).
#include <algorithm>

#include "util/base64.h"
#include "validation/core_internal.h"
#include "validation/primitives.h"

namespace kube::validation::core {

namespace {

constexpr int64_t kMaxSecretSize = 1024 * 1024;
constexpr std::string_view kImmutableSet = "field is immutable when `immutable` is set";

// The bytes a base64 value of a Secret's data or a ConfigMap's binaryData stands for.
std::optional<std::string> DecodeStdBase64(std::string text) {
  while (!text.empty() && text.back() == '=') text.pop_back();
  for (char& c : text) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return Base64UrlDecode(text);
}

size_t DecodedSize(const Json& value) {
  if (!value.is_string()) return 0;
  const std::string& s = value.get_ref<const std::string&>();
  size_t pad = 0;
  for (size_t i = s.size(); i > 0 && s[i - 1] == '='; --i) ++pad;
  return s.size() / 4 * 3 + (s.size() % 4 == 0 ? 0 : s.size() % 4 - 1) - (s.size() % 4 == 0 ? pad : 0);
}

// encoding/json's complaint about a docker config that is not a JSON object.
std::optional<std::string> DockerConfigProblem(const std::string& bytes) {
  size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "unexpected end of JSON input";
  const Json parsed = Json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    const char c = bytes[first];
    if (std::string_view("{[\"-0123456789tfn").find(c) == std::string_view::npos) {
      return std::string("invalid character '") + c + "' looking for beginning of value";
    }
    return "unexpected end of JSON input";
  }
  if (parsed.is_object()) return std::nullopt;
  const char* kind = parsed.is_array() ? "array" : parsed.is_string() ? "string" : parsed.is_number() ? "number"
                     : parsed.is_boolean() ? "bool" : nullptr;
  if (kind == nullptr) return std::nullopt;  // null unmarshals into a map fine
  return std::string("json: cannot unmarshal ") + kind + " into Go value of type map[string]interface {}";
}

FieldErrors ValidateConfigMap(const Json& cm) {
  FieldErrors errors;
  size_t total = 0;
  const Json* data = Field(cm, "data");
  const Json* binary = Field(cm, "binaryData");
  if (data != nullptr && data->is_object()) {
    for (const auto& [key, value] : data->items()) {
      AppendProblems(&errors, Key("data", key), key, IsConfigMapKey(key));
      if (binary != nullptr && binary->is_object() && binary->contains(key)) {
        errors.push_back(Invalid(Key("data", key), key, "duplicate of key present in binaryData"));
      }
      total += value.is_string() ? value.get_ref<const std::string&>().size() : 0;
    }
  }
  if (binary != nullptr && binary->is_object()) {
    for (const auto& [key, value] : binary->items()) {
      AppendProblems(&errors, Key("binaryData", key), key, IsConfigMapKey(key));
      total += DecodedSize(value);
    }
  }
  if (static_cast<int64_t>(total) > kMaxSecretSize) errors.push_back(TooLong("[]", kMaxSecretSize));  // kube's path for the whole object: field.NewPath("")
  return errors;
}

FieldErrors ValidateConfigMapUpdate(const Json& cm, const Json& old) {
  FieldErrors errors;
  if (BoolField(old, "immutable")) {
    if (!BoolField(cm, "immutable")) errors.push_back(Forbidden("immutable", std::string(kImmutableSet)));
    for (const char* f : {"data", "binaryData"}) {
      const Json* a = Field(cm, f);
      const Json* b = Field(old, f);
      const bool a_empty = a == nullptr || (a->is_object() && a->empty());
      const bool b_empty = b == nullptr || (b->is_object() && b->empty());
      if (!(a_empty && b_empty) && (a_empty != b_empty || *a != *b)) errors.push_back(Forbidden(f, std::string(kImmutableSet)));
    }
  }
  Append(&errors, ValidateConfigMap(cm));
  return errors;
}

FieldErrors ValidateSecret(const Json& secret) {
  FieldErrors errors;
  const Json* data = Field(secret, "data");
  const Json empty = Json::object();
  const Json& d = data != nullptr && data->is_object() ? *data : empty;
  size_t total = 0;
  for (const auto& [key, value] : d.items()) {
    AppendProblems(&errors, Key("data", key), key, IsConfigMapKey(key));
    total += DecodedSize(value);
  }
  if (static_cast<int64_t>(total) > kMaxSecretSize) errors.push_back(TooLong("data", kMaxSecretSize));
  const std::string type = Str(secret, "type");
  auto docker_config = [&](const char* key) {
    if (!d.contains(key)) {
      errors.push_back(Required(Key("data", key)));
      return;
    }
    auto bytes = DecodeStdBase64(d[key].is_string() ? d[key].get<std::string>() : "");
    if (auto problem = DockerConfigProblem(bytes.value_or(""))) {
      errors.push_back(Invalid(Key("data", key), "<secret contents redacted>", *problem));
    }
  };
  if (type == "kubernetes.io/service-account-token") {
    const Json* meta = Field(secret, "metadata");
    const Json* annotations = meta ? Field(*meta, "annotations") : nullptr;
    if (annotations == nullptr || Str(*annotations, "kubernetes.io/service-account.name").empty()) {
      errors.push_back(Required("metadata.annotations[kubernetes.io/service-account.name]"));
    }
  } else if (type == "kubernetes.io/dockercfg") {
    docker_config(".dockercfg");
  } else if (type == "kubernetes.io/dockerconfigjson") {
    docker_config(".dockerconfigjson");
  } else if (type == "kubernetes.io/basic-auth") {
    if (!d.contains("username") && !d.contains("password")) {
      errors.push_back(Required("data[username]"));
      errors.push_back(Required("data[password]"));
    }
  } else if (type == "kubernetes.io/ssh-auth") {
    if (DecodedSize(d.value("ssh-privatekey", Json(""))) == 0) errors.push_back(Required("data[ssh-privatekey]"));
  } else if (type == "kubernetes.io/tls") {
    if (!d.contains("tls.crt")) errors.push_back(Required("data[tls.crt]"));
    if (!d.contains("tls.key")) errors.push_back(Required("data[tls.key]"));
  }
  return errors;
}

FieldErrors ValidateSecretUpdate(const Json& secret, const Json& old) {
  FieldErrors errors = ValidateImmutableField(secret.value("type", Json("")), old.value("type", Json("")), "type");
  if (BoolField(old, "immutable")) {
    if (!BoolField(secret, "immutable")) errors.push_back(Forbidden("immutable", std::string(kImmutableSet)));
    const Json* a = Field(secret, "data");
    const Json* b = Field(old, "data");
    const bool a_empty = a == nullptr || (a->is_object() && a->empty());
    const bool b_empty = b == nullptr || (b->is_object() && b->empty());
    if (!(a_empty && b_empty) && (a_empty != b_empty || *a != *b)) errors.push_back(Forbidden("data", std::string(kImmutableSet)));
  }
  Append(&errors, ValidateSecret(secret));
  return errors;
}

FieldErrors ValidateNamespace(const Json& ns) {
  FieldErrors errors;
  const Json* spec = Field(ns, "spec");
  if (spec == nullptr) return errors;
  for (const Json& f : ArrayField(*spec, "finalizers")) {
    Append(&errors, ValidateFinalizerName(f.is_string() ? f.get<std::string>() : "", "spec.finalizers"));
  }
  return errors;
}

FieldErrors ValidateNamespaceUpdate(const Json&, const Json&) { return {}; }

FieldErrors ValidateNamespaceStatus(const Json& ns, const Json&) {
  const Json* meta = Field(ns, "metadata");
  const bool deleting = meta != nullptr && !Str(*meta, "deletionTimestamp").empty();
  const Json* status = Field(ns, "status");
  std::string phase = status ? Str(*status, "phase") : "";
  if (phase.empty()) phase = "Active";  // kube defaults the phase before validating
  if (!deleting && phase != "Active") {
    return {Invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty")};
  }
  if (deleting && phase != "Terminating") {
    return {Invalid("status.Phase", phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")};
  }
  return {};
}

}  // namespace

void AddConfigKinds(KindTable* table) {
  (*table)["/configmaps"] = KindValidator{ValidateConfigMap, ValidateConfigMapUpdate, nullptr};
  (*table)["/secrets"] = KindValidator{ValidateSecret, ValidateSecretUpdate, nullptr};
  (*table)["/namespaces"] = KindValidator{ValidateNamespace, ValidateNamespaceUpdate, ValidateNamespaceStatus};
  // ServiceAccounts: kube validates their ObjectMeta only (the registry does that for every kind).
}

}  // namespace kube::validation::core
