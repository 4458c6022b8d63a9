// RFC 7386 JSON merge patch as the patch handler applies it. Input: the document (any JSON) on
// the first line, the patch body after it. Property: no member the patch names is null in the
// result (a null member deletes; any other value is merged or inserted without its nulls).
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "patch/merge_patch.h"

using namespace kube;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view patch = fuzz::AsText(data, size);
  const nlohmann::json doc = nlohmann::json::parse(fuzz::TakeLine(&patch), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  auto merged = patch::ApplyMergePatch(doc, patch);
  if (!merged.ok()) return 0;
  const nlohmann::json body = nlohmann::json::parse(patch, nullptr, /*allow_exceptions=*/false);
  KUBE_FUZZ_CHECK(body.is_object() && merged->is_object());
  for (const auto& [key, value] : body.items()) {
    auto it = merged->find(key);
    KUBE_FUZZ_CHECK(it == merged->end() || !it->is_null());
  }
  return 0;
}
