// The fieldSelector grammar and escaping (storage::FieldSelector::Parse), plus the round trip
// its header promises: ToString() re-escapes values so that it parses back to the same terms
// (same fields, same matches; stable text from the second round).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fuzz_input.h"
#include "storage/field_selector.h"

using kube::storage::FieldSelector;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto selector = FieldSelector::Parse(kube::fuzz::AsText(data, size));
  if (!selector.ok()) return 0;
  const std::string text = selector->ToString();
  auto reparsed = FieldSelector::Parse(text);
  KUBE_FUZZ_CHECK(reparsed.ok());
  // Terms are kept in the order of their raw text, as upstream; `==` printing as `=` can move
  // a term, so ToString() is a fixed point from the second round on.
  const std::string canonical = reparsed->ToString();
  auto again = FieldSelector::Parse(canonical);
  KUBE_FUZZ_CHECK(again.ok() && again->ToString() == canonical);
  // Terms are ordered by their raw text, which `==` -> `=` can change, so compare as sets.
  auto sorted_names = [](const FieldSelector& s) {
    auto names = s.FieldNames();
    std::sort(names.begin(), names.end());
    return names;
  };
  KUBE_FUZZ_CHECK(sorted_names(*reparsed) == sorted_names(*selector));
  static const kube::storage::Fields kFieldSets[] = {
      {},
      {{"metadata.name", "a"}, {"metadata.namespace", "default"}},
      {{"status.phase", "Running"}, {"spec.nodeName", "a,b=c\\d"}}};
  for (const auto& fields : kFieldSets) {
    KUBE_FUZZ_CHECK(selector->Matches(fields) == reparsed->Matches(fields));
  }
  return 0;
}
