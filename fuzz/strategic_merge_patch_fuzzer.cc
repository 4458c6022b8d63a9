// Strategic merge patch as the patch handler applies it, with the list strategies and merge keys
// of the schema of the kind the document names (v1 Pod when it names none the catalogue knows).
// Input: the document (a JSON object) on the first line, the patch body after it.
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "fuzz_schema.h"
#include "patch/strategic_merge_patch.h"

using namespace kube;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view patch = fuzz::AsText(data, size);
  const nlohmann::json doc = nlohmann::json::parse(fuzz::TakeLine(&patch), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return 0;
  (void)patch::ApplyStrategicMergePatch(doc, patch, fuzz::SchemaFor(doc));
  return 0;
}
