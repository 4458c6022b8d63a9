// kube's version priority order for API versions (apimachinery's CompareKubeAwareVersionStrings):
// versions shaped like v<major>[(alpha|beta)<minor>] come first — GA before beta before alpha,
// higher numbers first — and every other string after them, in alphabetical order.
//   v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > foo1 > foo10
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

namespace kube {

// True when `a` has a higher priority than `b` (sorts first).
bool VersionHasPriority(std::string_view a, std::string_view b);

}  // namespace kube
