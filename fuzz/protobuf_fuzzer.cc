// A protobuf request body (the "k8s\0" envelope around runtime.Unknown and the kind's message),
// decoded as the handlers do. Property: whatever decodes re-encodes, and the encoding decodes to
// the same JSON (decode is a fixed point after one pass).
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "protobuf/protobuf.h"

using namespace kube;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto decoded = protobuf::DecodeObject(fuzz::AsText(data, size));
  if (!decoded.ok()) return 0;
  auto encoded = protobuf::EncodeObject(*decoded);
  KUBE_FUZZ_CHECK(encoded.ok());
  auto again = protobuf::DecodeObject(*encoded);
  KUBE_FUZZ_CHECK(again.ok());
  KUBE_FUZZ_CHECK(*again == *decoded);
  return 0;
}
