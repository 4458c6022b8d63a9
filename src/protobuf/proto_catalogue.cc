// Loads the embedded protobuf field table (see proto_catalogue.h for its origin).
#include "protobuf/proto_catalogue.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace kube::protobuf {
namespace {

Special SpecialOf(std::string_view name) {
  if (name == "k8s.io.apimachinery.pkg.apis.meta.v1.Time") return Special::kTime;
  if (name == "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime") return Special::kMicroTime;
  if (name == "k8s.io.apimachinery.pkg.apis.meta.v1.Duration") return Special::kDuration;
  if (name == "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1") return Special::kRawJson;
  if (name == "k8s.io.apimachinery.pkg.runtime.RawExtension") return Special::kRawJson;
  if (name == "k8s.io.apimachinery.pkg.api.resource.Quantity") return Special::kQuantity;
  if (name == "k8s.io.apimachinery.pkg.util.intstr.IntOrString") return Special::kIntOrString;
  return Special::kNone;
}

bool ScalarOf(std::string_view t, ScalarType* out) {
  static const std::pair<std::string_view, ScalarType> kTable[] = {
      {"string", ScalarType::kString},     {"bytes", ScalarType::kBytes},
      {"bool", ScalarType::kBool},         {"int32", ScalarType::kInt32},
      {"int64", ScalarType::kInt64},       {"uint32", ScalarType::kUint32},
      {"uint64", ScalarType::kUint64},     {"sint32", ScalarType::kSint32},
      {"sint64", ScalarType::kSint64},     {"fixed32", ScalarType::kFixed32},
      {"fixed64", ScalarType::kFixed64},   {"sfixed32", ScalarType::kSfixed32},
      {"sfixed64", ScalarType::kSfixed64}, {"double", ScalarType::kDouble},
      {"float", ScalarType::kFloat},
  };
  for (const auto& [name, type] : kTable) {
    if (name == t) {
      *out = type;
      return true;
    }
  }
  return false;
}

}  // namespace

const Field* Message::ByNumber(uint32_t number) const {
  auto it = std::lower_bound(fields.begin(), fields.end(), number,
                             [](const Field& f, uint32_t n) { return f.number < n; });
  return it != fields.end() && it->number == number ? &*it : nullptr;
}

const ProtoCatalogue& ProtoCatalogue::Get() {
  static const ProtoCatalogue* catalogue = new ProtoCatalogue();  // never destroyed
  return *catalogue;
}

const Message* ProtoCatalogue::Find(std::string_view name) const {
  auto it = messages_.find(name);
  return it == messages_.end() ? nullptr : &it->second;
}

// Throws on a malformed table: the table is generated and embedded, so that is a build defect.
ProtoCatalogue::ProtoCatalogue() {
  const nlohmann::json doc = nlohmann::json::parse(EmbeddedProtoCatalogueJson());
  const auto& msgs = doc.at("messages");
  for (auto it = msgs.begin(); it != msgs.end(); ++it) {
    Message& m = messages_[it.key()];
    m.name = it.key();
    m.special = SpecialOf(m.name);
  }
  for (const auto& w : doc.at("wrappers")) messages_.at(w.get<std::string>()).special = Special::kWrapper;
  auto resolve = [this](std::string_view t) {
    FieldType ft;
    if (!ScalarOf(t, &ft.scalar)) {
      ft.scalar = ScalarType::kMessage;
      ft.message = &messages_.at(std::string(t));
    }
    return ft;
  };
  for (auto it = msgs.begin(); it != msgs.end(); ++it) {
    Message& m = messages_.at(it.key());
    for (const auto& row : it.value()) {
      Field f;
      f.number = row.at(0).get<uint32_t>();
      f.proto_name = row.at(1).get<std::string>();
      const std::string type = row.at(2).get<std::string>();
      const int flags = row.at(3).get<int>();
      f.json_name = row.size() > 4 ? row.at(4).get<std::string>() : f.proto_name;
      if (type.rfind("map:", 0) == 0) {
        const size_t colon = type.find(':', 4);
        f.is_map = true;
        f.key = resolve(std::string_view(type).substr(4, colon - 4));
        f.type = resolve(std::string_view(type).substr(colon + 1));
      } else {
        f.type = resolve(type);
      }
      f.repeated = flags & 1;
      f.required = flags & 2;
      f.inline_ = flags & 4;
      f.keep_empty = flags & 8;
      f.omit_zero = flags & 16;
      m.fields.push_back(std::move(f));
    }
    std::sort(m.fields.begin(), m.fields.end(),
              [](const Field& a, const Field& b) { return a.number < b.number; });
  }
}

}  // namespace kube::protobuf
