// Table-driven checks of the named groups' validators: each case merges a JSON patch into a valid
// object (as stored: storage version, defaults applied) and expects kube's causes, rendered as
// "<cause type> <field>: <body>", in kube's order.
//
// Thread-safety: test code.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "validation/kind_validation.h"

namespace kube::validation::testing {

using nlohmann::json;

struct Case {
  std::string name;
  json patch;                      // RFC 7386 merge patch applied to the base object
  std::vector<std::string> want;   // empty: accepted
};

inline std::vector<std::string> Render(const FieldErrors& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(std::string(e.CauseType()) + " " + e.field + ": " + e.Body());
  return out;
}

// The causes one per line, so a failed check prints them.
inline std::string Lines(const std::vector<std::string>& causes) {
  std::string out;
  for (const auto& c : causes) out += c + "\n";
  return out;
}

inline json Patched(const json& base, const json& patch) {
  json obj = base;
  obj.merge_patch(patch);
  return obj;
}

inline const KindValidator& ValidatorFor(std::string_view group, std::string_view resource) {
  const KindValidator* v = FindKindValidator(group, resource);
  REQUIRE(v != nullptr);
  return *v;
}

// Runs every case through create.
inline void CheckCreate(std::string_view group, std::string_view resource, const json& base,
                        const std::vector<Case>& cases) {
  const KindValidator& v = ValidatorFor(group, resource);
  REQUIRE(static_cast<bool>(v.create));
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(Lines(Render(v.create(Patched(base, c.patch)))) == Lines(c.want));
  }
}

// Runs every case through update, `old` being the base object.
inline void CheckUpdate(std::string_view group, std::string_view resource, const json& base,
                        const std::vector<Case>& cases) {
  const KindValidator& v = ValidatorFor(group, resource);
  REQUIRE(static_cast<bool>(v.update));
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(Lines(Render(v.update(Patched(base, c.patch), base))) == Lines(c.want));
  }
}

inline void CheckStatusUpdate(std::string_view group, std::string_view resource, const json& base,
                              const std::vector<Case>& cases) {
  const KindValidator& v = ValidatorFor(group, resource);
  REQUIRE(static_cast<bool>(v.update_status));
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(Lines(Render(v.update_status(Patched(base, c.patch), base))) == Lines(c.want));
  }
}

// A pod template as the registry stores it in a workload (pod-spec defaults applied).
inline json PodTemplate(const json& labels, const std::string& restart_policy = "Always") {
  return {{"metadata", {{"labels", labels}}},
          {"spec",
           {{"containers", json::array({{{"name", "c"},
                                         {"image", "nginx"},
                                         {"imagePullPolicy", "Always"},
                                         {"terminationMessagePath", "/dev/termination-log"},
                                         {"terminationMessagePolicy", "File"}}})},
            {"restartPolicy", restart_policy},
            {"dnsPolicy", "ClusterFirst"},
            {"terminationGracePeriodSeconds", 30},
            {"schedulerName", "default-scheduler"},
            {"securityContext", json::object()}}}};
}

}  // namespace kube::validation::testing
