#include "util/version_priority.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace kube {

TEST_CASE("versions sort in kube's priority order") {
  std::vector<std::string> v = {"foo10", "v1alpha1", "v1", "v11alpha2", "v1beta1", "v2", "foo1", "v12alpha1",
                                "v10beta3", "v3beta1", "v10", "v11beta2"};
  std::sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) { return VersionHasPriority(a, b); });
  // kube's own documented example order.
  CHECK(v == std::vector<std::string>{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v1beta1", "v12alpha1",
                                      "v11alpha2", "v1alpha1", "foo1", "foo10"});
}

TEST_CASE("malformed kube-like versions sort with the others") {
  CHECK(VersionHasPriority("v1", "v01"));
  CHECK(VersionHasPriority("v1alpha1", "v1gamma1"));
  CHECK(VersionHasPriority("v1beta1", "v1beta"));
  CHECK_FALSE(VersionHasPriority("v1", "v1"));
}

}  // namespace kube
