// A JSON request body as the create/update handlers decode it: parse, duplicate-field detection
// on the raw text, then typed decoding (unknown-field pruning, nulls, the type check) against the
// schema of the kind the body names (v1 Pod when it names none the catalogue knows).
//
// Properties: typed decoding is idempotent (a decoded object has no unknown fields left), and it
// never turns a fitting object into a misfit.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "endpoints/field_validation.h"
#include "fuzz_input.h"
#include "fuzz_schema.h"

using namespace kube;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body = fuzz::AsText(data, size);
  nlohmann::json obj = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  (void)endpoints::DuplicateFields(body);
  if (!obj.is_object()) return 0;
  const catalogue::Schema* schema = fuzz::SchemaFor(obj);
  const bool fitted = endpoints::DecodeTyped(schema, &obj).type_error.empty();
  const endpoints::TypedDecodeResult again = endpoints::DecodeTyped(schema, &obj);
  KUBE_FUZZ_CHECK(again.unknown_fields.empty());
  if (fitted) KUBE_FUZZ_CHECK(again.type_error.empty());
  return 0;
}
