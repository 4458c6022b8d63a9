// A protobuf request body (the "k8s\0" envelope around runtime.Unknown and the kind's message),
// decoded as the handlers do. Property: whatever decodes re-encodes, and the encoding decodes to
// the same JSON up to null members. (Go decodes an empty pointer message such as FieldsV1{} to
// null and encodes null as absent, so a null may not survive; see protobuf.h.)
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "protobuf/protobuf.h"

using namespace kube;

namespace {

nlohmann::json WithoutNullMembers(const nlohmann::json& j) {
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : j) out.push_back(WithoutNullMembers(item));
    return out;
  }
  if (!j.is_object()) return j;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : j.items()) {
    if (!value.is_null()) out[key] = WithoutNullMembers(value);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto decoded = protobuf::DecodeObject(fuzz::AsText(data, size));
  if (!decoded.ok()) return 0;
  auto encoded = protobuf::EncodeObject(*decoded);
  KUBE_FUZZ_CHECK(encoded.ok());
  auto again = protobuf::DecodeObject(*encoded);
  KUBE_FUZZ_CHECK(again.ok());
  fuzz::CheckSameJson(WithoutNullMembers(*again), WithoutNullMembers(*decoded),
                      "decode(encode(decoded)) == decoded, nulls aside");
  return 0;
}
