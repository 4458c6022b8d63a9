// Table-driven cases for the kind validators: an object (and, for updates, the stored one) and
// the exact errors kube answers with (cause type, field path, rendered body), none when accepted.
//
// Thread-safety: test-only helpers.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "validation/kind_validation.h"

namespace kube::validation::testing {

struct Want {
  FieldError::Type type;
  std::string field;
  std::string body;  // FieldError::Body(): "Invalid value: \"x\": detail"
};

struct Case {
  std::string name;
  nlohmann::json obj;
  std::vector<Want> want;
  nlohmann::json old = nullptr;   // set: an update of `old`
  bool status = false;            // with `old`: through the status subresource
};

// `base` with the RFC 7386 merge patch `patch` applied.
inline nlohmann::json Patched(nlohmann::json base, const nlohmann::json& patch) {
  base.merge_patch(patch);
  return base;
}

inline void RunCases(const std::string& resource, const std::vector<Case>& cases) {
  const KindValidator* v = FindKindValidator("", resource);
  REQUIRE(v != nullptr);
  for (const Case& c : cases) {
    CAPTURE(c.name);
    FieldErrors got;
    if (c.old.is_null()) {
      REQUIRE(static_cast<bool>(v->create));
      got = v->create(c.obj);
    } else {
      auto fn = c.status ? v->update_status : v->update;
      REQUIRE(static_cast<bool>(fn));
      got = fn(c.obj, c.old);
    }
    std::string rendered;
    for (const auto& e : got) rendered += e.field + ": " + e.Body() + "\n";
    CAPTURE(rendered);
    REQUIRE(got.size() == c.want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].type == c.want[i].type);
      CHECK(got[i].field == c.want[i].field);
      CHECK(got[i].Body() == c.want[i].body);
    }
  }
}

}  // namespace kube::validation::testing
