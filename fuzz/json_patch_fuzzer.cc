// RFC 6902 JSON patch as the patch handler applies it. Input: the document (any JSON) on the
// first line, the patch body after it.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "patch/json_patch.h"

using namespace kube;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view patch = fuzz::AsText(data, size);
  const nlohmann::json doc = nlohmann::json::parse(fuzz::TakeLine(&patch), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  (void)patch::ApplyJsonPatch(doc, patch);
  return 0;
}
