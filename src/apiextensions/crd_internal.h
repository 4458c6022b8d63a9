// A read-only view of an apiextensions.k8s.io/v1 CustomResourceDefinition in the layout of kube's
// internal apiextensions type, which is what kube validates (and so what its error paths name).
//
// Converting v1 to internal moves the per-version schema, subresources, additionalPrinterColumns
// and selectableFields to the top of the spec when every version carries an identical value (so
// a single-version CRD always reports `spec.validation.openAPIV3Schema...`,
// `spec.subresources...`, `spec.additionalPrinterColumns[0]...`), and renames
// conversion.webhook.{clientConfig,conversionReviewVersions} to
// conversion.{webhookClientConfig,conversionReviewVersions}.
//
// JSON accessors read a member of the wrong JSON type as absent, as a typed Go decode of an
// already validated body never sees one; nothing here throws.
//
// Thread-safety: the view holds pointers into the CRD it was made from, which must outlive it
// and not change while it is used. Functions are pure.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kube::apiextensions {

using Json = nlohmann::json;

namespace json_access {
// The member `key` of `obj` when `obj` is an object and the member is not null; else nullptr.
const Json* Get(const Json* obj, std::string_view key);
// The string member, or "" (absent, null or not a string).
std::string Str(const Json* obj, std::string_view key);
// The string member when present as a string (Go's *string), else nullopt.
std::optional<std::string> OptStr(const Json* obj, std::string_view key);
bool Bool(const Json* obj, std::string_view key);
// The member when it is an array / object, else nullptr.
const Json* Arr(const Json* obj, std::string_view key);
const Json* Obj(const Json* obj, std::string_view key);
// Elements of a string array member (non-strings read as "").
std::vector<std::string> Strings(const Json* obj, std::string_view key);
}  // namespace json_access

struct InternalVersion {
  const Json* raw = nullptr;  // the v1 version object
  std::string name;
  bool served = false;
  bool storage = false;
  bool deprecated = false;
  std::optional<std::string> deprecation_warning;
  // Per-version fields left after folding (nullptr when folded to the top or absent).
  const Json* schema = nullptr;        // CustomResourceValidation {openAPIV3Schema}
  const Json* subresources = nullptr;  // {status, scale}
  const Json* columns = nullptr;       // non-empty array
  const Json* selectable_fields = nullptr;  // non-empty array
};

struct InternalSpec {
  std::string group;
  std::string version;  // internal spec.version: the first version's name
  const Json* names = nullptr;
  std::string scope;
  // Folded top-level fields (nullptr when per-version or absent everywhere).
  const Json* validation = nullptr;
  const Json* subresources = nullptr;
  const Json* columns = nullptr;
  const Json* selectable_fields = nullptr;
  std::vector<InternalVersion> versions;
  bool versions_null = true;  // spec.versions absent or null (renders as Go's nil slice)
  const Json* conversion = nullptr;  // the v1 conversion object
  bool preserve_unknown_fields = false;
};

InternalSpec ToInternal(const Json& crd);

// The openAPIV3Schema that applies to the version (top-level or per-version), or nullptr.
const Json* SchemaForVersion(const InternalSpec& spec, const InternalVersion& v);
// getSubresourcesForVersion: per-version subresources when any version has them, else the
// top-level ones.
const Json* SubresourcesForVersion(const InternalSpec& spec, const InternalVersion& v);

// json.Marshal of the internal spec.versions (Go field names, every field), as kube renders the
// value of errors on spec.versions.
std::string RenderInternalVersions(const InternalSpec& spec);
// json.Marshal of an internal JSONSchemaProps / JSONSchemaPropsOrArray built from v1 JSON.
std::string RenderInternalSchema(const Json& schema);
std::string RenderInternalItems(const Json& items);

}  // namespace kube::apiextensions
