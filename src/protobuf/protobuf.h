// Kubernetes' protobuf wire format (Content-Type: application/vnd.kubernetes.protobuf) for
// built-in kinds, converted to and from the JSON objects the rest of the server works with.
//
// Wire format: 4 magic bytes "k8s\0", then a runtime.Unknown message {1: typeMeta {1: apiVersion,
// 2: kind}, 2: raw (the object's own message), 3: contentEncoding, 4: contentType}. The object's
// message layout comes from the embedded table derived from Kubernetes 1.36 generated.proto files
// (proto_catalogue.h); apiVersion/kind are mapped to a message through the built-in catalogue's
// OpenAPI definitions (io.k8s.api.core.v1.ConfigMap <-> k8s.io.api.core.v1.ConfigMap).
//
// JSON mapping (what kube's Go types produce): JSON names from the OpenAPI schema; Go embedded
// structs are inlined; bytes are standard base64; metav1.Time -> RFC 3339 seconds ("...Z", an
// empty Time -> null), MicroTime -> 6 fractional digits, Duration -> Go duration string,
// Quantity -> string, IntOrString -> number or string, RawExtension / FieldsV1 -> embedded JSON,
// maps -> objects, Verbs/ExtraValue -> arrays, List kinds and Status like any other kind.
//
// Zero values when decoding: proto2 cannot tell a Go pointer set to zero from a non-pointer zero,
// and gogo-protobuf (client-go) writes every non-pointer field. The decoder follows the Go struct
// tags of k8s.io/api and apimachinery v0.36, which the generator turns into per-field flags: a
// non-pointer `omitempty` int/bool is dropped when zero; a string without omitempty, or any
// *string, keeps ""; other fields keep what the wire carries. Unknown field numbers are skipped,
// as kube does.
//
// Encoding: fields in field-number order, map entries sorted by key (as gogo-protobuf marshals),
// absent / null JSON fields omitted (except a null Time, written empty like Go's zero Time), JSON
// keys without a proto field ignored. contentEncoding / contentType are written empty.
//
// Errors are returned, never thrown: malformed input (truncation, bad magic, bad varints, lengths
// past the buffer, wrong wire types, nesting deeper than 100, invalid embedded JSON) and unknown
// kinds give Status::BadRequest; JSON that does not fit the message gives BadRequest too.
//
// Thread-safety: pure functions over immutable tables; safe to call concurrently.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/status.h"

namespace kube::protobuf {

inline constexpr std::string_view kContentType = "application/vnd.kubernetes.protobuf";
inline constexpr std::string_view kMagic{"k8s\0", 4};

// The apiVersion and kind a decoder assumes where the envelope leaves them empty (kube's default
// GroupVersionKind: a handler passes the kind it expects). Empty fields default nothing.
struct KindDefaults {
  std::string api_version;
  std::string kind;
};

// Decodes a protobuf request body into a JSON object with apiVersion and kind set. An envelope
// without kind takes `defaults.kind`, one without apiVersion `defaults.api_version`; a body that
// is the magic prefix alone is BadRequest "empty body", as kube's decoder answers.
Result<nlohmann::json> DecodeObject(std::string_view body, const KindDefaults& defaults = {});

// Encodes a JSON object carrying apiVersion and kind into a protobuf body.
Result<std::string> EncodeObject(const nlohmann::json& obj);

// EncodeObject for a metav1.Status; apiVersion "v1" and kind "Status" are filled in if absent.
Result<std::string> EncodeStatus(const nlohmann::json& status);

// One frame of a protobuf watch stream (Content-Type application/vnd.kubernetes.protobuf;
// stream=watch): a 4-byte big-endian length, then a metav1.WatchEvent whose object is
// `object_body` (an EncodeObject / EncodeStatus result) wrapped in a RawExtension.
std::string EncodeWatchFrame(std::string_view type, std::string_view object_body);

// The proto message name for an apiVersion/kind ("apps/v1", "Deployment" ->
// "k8s.io.api.apps.v1.Deployment"); empty when the kind has no protobuf form. The option kinds
// kube registers in every group version (DeleteOptions, ListOptions, GetOptions, CreateOptions,
// UpdateOptions, PatchOptions) map to their meta.k8s.io/v1 message under any apiVersion.
std::string MessageNameFor(std::string_view api_version, std::string_view kind);

}  // namespace kube::protobuf
