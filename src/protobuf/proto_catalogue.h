// The protobuf field table of every built-in Kubernetes message (internal to kube_protobuf).
//
// Where the data comes from: tools/gen_proto_catalogue.py derives data/proto_catalogue.json from
// the Kubernetes 1.36 generated.proto files of k8s.io/api and k8s.io/apimachinery (Apache-2.0,
// The Kubernetes Authors; see NOTICE). The .proto files are NOT in this repository; only the
// derived table (field numbers, names, types, flags; no prose) is committed, and the build embeds
// it (proto_catalogue_data.cc). See the generator's docstring for the table format.
//
// Thread-safety: Get() parses the embedded table once (thread-safe static init); the result is
// immutable and lives for the whole process.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kube::protobuf {

enum class ScalarType : uint8_t {
  kMessage, kString, kBytes, kBool, kInt32, kInt64, kUint32, kUint64, kSint32, kSint64,
  kFixed32, kFixed64, kSfixed32, kSfixed64, kDouble, kFloat,
};

// How a message appears in JSON when it is not a plain object.
enum class Special : uint8_t {
  kNone,
  kTime,         // metav1.Time: RFC 3339, seconds
  kMicroTime,    // metav1.MicroTime: RFC 3339, 6 fractional digits
  kDuration,     // metav1.Duration: Go duration string
  kQuantity,     // resource.Quantity: its string
  kIntOrString,  // intstr.IntOrString: number or string
  kRawJson,      // runtime.RawExtension, metav1.FieldsV1: embedded JSON bytes
  kWrapper,      // Go named slice (Verbs, ExtraValue): JSON array of field 1
};

struct Message;

struct FieldType {
  ScalarType scalar = ScalarType::kMessage;
  const Message* message = nullptr;  // kMessage only
};

struct Field {
  uint32_t number = 0;
  std::string proto_name;
  std::string json_name;
  FieldType type;         // for maps: the value type
  bool is_map = false;
  FieldType key;          // maps only
  bool repeated = false;
  bool required = false;    // in the OpenAPI schema: kept even when zero/empty
  bool inline_ = false;     // Go embedded struct: fields merge into the parent JSON object
  bool keep_empty = false;  // keep "" (meaningful Go *string)
  bool omit_zero = false;   // drop 0/false (Go non-pointer omitempty)
};

struct Message {
  std::string name;  // fully qualified: "k8s.io.api.core.v1.ConfigMap"
  Special special = Special::kNone;
  std::vector<Field> fields;  // sorted by number
  const Field* ByNumber(uint32_t number) const;
};

class ProtoCatalogue {
 public:
  static const ProtoCatalogue& Get();
  // nullptr when unknown.
  const Message* Find(std::string_view name) const;
  size_t size() const { return messages_.size(); }

 private:
  ProtoCatalogue();
  std::map<std::string, Message, std::less<>> messages_;
};

// The embedded proto_catalogue.json text.
std::string_view EmbeddedProtoCatalogueJson();

}  // namespace kube::protobuf
