// The rule evaluator as a table of rules × requests (kube's RuleAllows), rule coverage for
// escalation checks, and the compact rule text of kube's messages.
#include <doctest/doctest.h>

#include "auth/rbac_rules.h"

namespace kube::auth {
namespace {

Attributes Res(std::string verb, std::string group, std::string resource, std::string sub = "", std::string name = "",
               std::string ns = "default") {
  return Attributes{.user = {.name = "alice"},
                    .verb = std::move(verb),
                    .resource_request = true,
                    .namespace_ = std::move(ns),
                    .api_group = std::move(group),
                    .api_version = "v1",
                    .resource = std::move(resource),
                    .subresource = std::move(sub),
                    .name = std::move(name)};
}

Attributes Url(std::string verb, std::string path) {
  return Attributes{.user = {.name = "alice"}, .verb = std::move(verb), .path = std::move(path)};
}

PolicyRule R(std::vector<std::string> groups, std::vector<std::string> resources, std::vector<std::string> verbs,
             std::vector<std::string> names = {}) {
  return PolicyRule{.verbs = std::move(verbs), .api_groups = std::move(groups), .resources = std::move(resources),
                    .resource_names = std::move(names)};
}

PolicyRule U(std::vector<std::string> urls, std::vector<std::string> verbs) {
  return PolicyRule{.verbs = std::move(verbs), .non_resource_urls = std::move(urls)};
}

struct Case {
  const char* what;
  PolicyRule rule;
  Attributes request;
  bool allowed;
};

TEST_CASE("RuleAllows: verbs, groups, resources, subresources, names and URLs") {
  const std::vector<Case> cases = {
      {"exact match", R({""}, {"pods"}, {"get"}), Res("get", "", "pods"), true},
      {"other verb", R({""}, {"pods"}, {"get"}), Res("list", "", "pods"), false},
      {"verb *", R({""}, {"pods"}, {"*"}), Res("deletecollection", "", "pods"), true},
      {"other group", R({""}, {"pods"}, {"get"}), Res("get", "apps", "pods"), false},
      {"group *", R({"*"}, {"deployments"}, {"get"}), Res("get", "apps", "deployments"), true},
      {"one of several groups", R({"", "apps"}, {"deployments"}, {"get"}), Res("get", "apps", "deployments"), true},
      {"resource *", R({"apps"}, {"*"}, {"get"}), Res("get", "apps", "deployments", "scale"), true},
      {"resource does not cover its subresource", R({""}, {"pods"}, {"get"}), Res("get", "", "pods", "log"), false},
      {"pods/log", R({""}, {"pods/log"}, {"get"}), Res("get", "", "pods", "log"), true},
      {"pods/log is not pods", R({""}, {"pods/log"}, {"get"}), Res("get", "", "pods"), false},
      {"pods/log is not pods/exec", R({""}, {"pods/log"}, {"get"}), Res("get", "", "pods", "exec"), false},
      {"*/scale", R({"*"}, {"*/scale"}, {"get"}), Res("get", "apps", "deployments", "scale"), true},
      {"*/scale is not the resource", R({"*"}, {"*/scale"}, {"get"}), Res("get", "apps", "deployments"), false},
      {"*/scale is not */status", R({"*"}, {"*/scale"}, {"get"}), Res("get", "apps", "deployments", "status"), false},
      {"resourceNames match", R({""}, {"configmaps"}, {"get"}, {"a", "b"}), Res("get", "", "configmaps", "", "b"), true},
      {"resourceNames miss", R({""}, {"configmaps"}, {"get"}, {"a"}), Res("get", "", "configmaps", "", "c"), false},
      {"resourceNames never match a list (no name)", R({""}, {"configmaps"}, {"list"}, {"a"}),
       Res("list", "", "configmaps"), false},
      {"no resourceNames: any name", R({""}, {"configmaps"}, {"get"}), Res("get", "", "configmaps", "", "x"), true},
      {"a resource rule does not allow a URL", R({"*"}, {"*"}, {"*"}), Url("get", "/api"), false},
      {"URL exact", U({"/healthz"}, {"get"}), Url("get", "/healthz"), true},
      {"URL other", U({"/healthz"}, {"get"}), Url("get", "/livez"), false},
      {"URL prefix *", U({"/apis/*"}, {"get"}), Url("get", "/apis/apps/v1"), true},
      {"URL prefix * is not the bare path", U({"/apis/*"}, {"get"}), Url("get", "/apis"), false},
      {"URL *", U({"*"}, {"*"}), Url("post", "/anything"), true},
      {"URL verb", U({"/healthz"}, {"get"}), Url("post", "/healthz"), false},
      {"a URL rule does not allow a resource", U({"*"}, {"*"}), Res("get", "", "pods"), false},
      {"verb named like the HTTP method only", U({"/metrics"}, {"get"}), Url("head", "/metrics"), false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    CHECK(RuleAllows(c.request, c.rule) == c.allowed);
  }
}

TEST_CASE("Covers breaks rules down and reports what is missing") {
  std::vector<PolicyRule> missing;
  CHECK(Covers({R({"*"}, {"*"}, {"*"}), U({"*"}, {"*"})}, {R({"apps"}, {"deployments"}, {"get", "list"}), U({"/x"}, {"get"})},
               &missing));
  CHECK(missing.empty());

  CHECK_FALSE(Covers({R({""}, {"pods"}, {"get"})}, {R({""}, {"pods", "services"}, {"get", "list"})}, &missing));
  REQUIRE(missing.size() == 3);
  CHECK(CompactString(missing[0]) == R"({APIGroups:[""], Resources:["pods"], Verbs:["list"]})");

  missing.clear();
  // */subresource in the owner covers any resource's subresource.
  CHECK(Covers({R({"apps"}, {"*/scale"}, {"get"})}, {R({"apps"}, {"deployments/scale"}, {"get"})}, &missing));
  // A rule limited to names does not cover one that is not.
  CHECK_FALSE(Covers({R({""}, {"configmaps"}, {"get"}, {"a"})}, {R({""}, {"configmaps"}, {"get"})}, &missing));
  missing.clear();
  CHECK(Covers({R({""}, {"configmaps"}, {"get"})}, {R({""}, {"configmaps"}, {"get"}, {"a"})}, &missing));
  CHECK(Covers({U({"/apis/*"}, {"get"})}, {U({"/apis/apps"}, {"get"})}, &missing));
  CHECK_FALSE(Covers({U({"/apis/*"}, {"get"})}, {U({"/api"}, {"get"})}, &missing));
}

TEST_CASE("CompactRules merges single group/resource rules that differ only by verb") {
  auto out = CompactRules({R({""}, {"pods"}, {"get"}), R({""}, {"pods"}, {"list"}), R({""}, {"pods"}, {"get"}, {"a"}),
                           U({"/x"}, {"get"})});
  REQUIRE(out.size() == 3);
  CHECK(CompactString(out[0]) == R"({APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]})");
  CHECK(CompactString(out[1]) == R"({APIGroups:[""], Resources:["pods"], ResourceNames:["a"], Verbs:["get"]})");
  CHECK(CompactString(out[2]) == R"({NonResourceURLs:["/x"], Verbs:["get"]})");
}

TEST_CASE("subjects: users, groups and service accounts with the binding's namespace as default") {
  UserInfo sa{.name = "system:serviceaccount:ns1:builder", .groups = {"system:serviceaccounts"}};
  CHECK(SubjectAppliesTo(sa, Subject{.kind = "ServiceAccount", .name = "builder", .namespace_ = "ns1"}, ""));
  CHECK(SubjectAppliesTo(sa, Subject{.kind = "ServiceAccount", .name = "builder"}, "ns1"));
  CHECK_FALSE(SubjectAppliesTo(sa, Subject{.kind = "ServiceAccount", .name = "builder"}, "ns2"));
  CHECK_FALSE(SubjectAppliesTo(sa, Subject{.kind = "ServiceAccount", .name = "builder"}, ""));
  CHECK_FALSE(SubjectAppliesTo(sa, Subject{.kind = "ServiceAccount", .name = "build", .namespace_ = "ns1"}, ""));
  CHECK(SubjectAppliesTo(sa, Subject{.kind = "Group", .name = "system:serviceaccounts"}, ""));
  CHECK_FALSE(SubjectAppliesTo(sa, Subject{.kind = "User", .name = "builder"}, ""));
  CHECK_FALSE(SubjectAppliesTo(sa, Subject{.kind = "Robot", .name = "system:serviceaccount:ns1:builder"}, ""));
  CHECK(DescribeSubject(Subject{.kind = "ServiceAccount", .name = "builder"}, "ns1") == R"(ServiceAccount "builder/ns1")");
  CHECK(DescribeSubject(Subject{.kind = "User", .name = "alice"}, "ns1") == R"(User "alice")");
}

}  // namespace
}  // namespace kube::auth
