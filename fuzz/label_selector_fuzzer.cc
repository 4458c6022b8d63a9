// The labelSelector grammar (storage::LabelSelector::Parse), plus the properties its header
// promises: ToString() is canonical (it parses back to a selector that prints the same and
// selects the same label sets).
#include <cstddef>
#include <cstdint>

#include "fuzz_input.h"
#include "storage/label_selector.h"

using kube::storage::LabelSelector;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto selector = LabelSelector::Parse(kube::fuzz::AsText(data, size));
  if (!selector.ok()) return 0;
  const std::string text = selector->ToString();
  auto reparsed = LabelSelector::Parse(text);
  KUBE_FUZZ_CHECK(reparsed.ok());
  KUBE_FUZZ_CHECK(reparsed->ToString() == text);
  KUBE_FUZZ_CHECK(reparsed->Empty() == selector->Empty());
  // Label sets that hit each operator: equal, different, numeric, absent.
  static const kube::storage::Labels kLabelSets[] = {
      {}, {{"a", "b"}}, {{"app", "web"}, {"tier", "5"}}, {{"a", ""}, {"x", "-3"}, {"k8s.io/name", "v"}}};
  for (const auto& labels : kLabelSets) {
    KUBE_FUZZ_CHECK(selector->Matches(labels) == reparsed->Matches(labels));
  }
  for (const char* key : {"a", "app", "tier"}) {
    KUBE_FUZZ_CHECK(selector->RequiresExactMatch(key) == reparsed->RequiresExactMatch(key));
  }
  return 0;
}
