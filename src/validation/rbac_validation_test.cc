// rbac.authorization.k8s.io/v1 validators: roles, cluster roles and their bindings, and the
// bootstrap policy's objects, which must all pass.
#include "validation/groups_test_util.h"

namespace kube::validation::testing {
namespace {

json Role() {
  return {{"metadata", {{"name", "reader"}, {"namespace", "ns"}}},
          {"rules", {{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get", "list"}}}}}};
}

TEST_CASE("Role and ClusterRole") {
  CheckCreate("rbac.authorization.k8s.io", "roles", Role(),
              {
                  {"valid", json::object(), {}},
                  {"no rules", {{"rules", nullptr}}, {}},
                  {"no verbs",
                   {{"rules", {{{"apiGroups", {""}}, {"resources", {"pods"}}}}}},
                   {"FieldValueRequired rules[0].verbs: Required value: verbs must contain at least one value"}},
                  {"no groups or resources",
                   {{"rules", {{{"verbs", {"get"}}}}}},
                   {"FieldValueRequired rules[0].apiGroups: Required value: resource rules must supply at least one api "
                    "group",
                    "FieldValueRequired rules[0].resources: Required value: resource rules must supply at least one "
                    "resource"}},
                  {"non-resource URL in a Role",
                   {{"rules", {{{"verbs", {"get"}}, {"nonResourceURLs", {"/healthz"}}}}}},
                   {"FieldValueInvalid rules[0].nonResourceURLs: Invalid value: [\"/healthz\"]: namespaced rules cannot "
                    "apply to non-resource URLs"}},
              });
  const json cluster_role = {{"metadata", {{"name", "system:probe"}}},
                             {"rules", {{{"verbs", {"get"}}, {"nonResourceURLs", {"/healthz", "/readyz"}}}}}};
  CheckCreate("rbac.authorization.k8s.io", "clusterroles", cluster_role,
              {
                  {"valid", json::object(), {}},
                  {"mixed rule",
                   {{"rules", {{{"verbs", {"get"}}, {"resources", {"pods"}}, {"nonResourceURLs", {"/healthz"}}}}}},
                   {"FieldValueInvalid rules[0].nonResourceURLs: Invalid value: [\"/healthz\"]: rules cannot apply to "
                    "both regular resources and non-resource URLs"}},
                  {"aggregation without selectors",
                   {{"aggregationRule", {{"clusterRoleSelectors", json::array()}}}},
                   {"FieldValueRequired aggregationRule.clusterRoleSelectors: Required value: at least one "
                    "clusterRoleSelector required if aggregationRule is non-nil"}},
                  {"aggregation", {{"aggregationRule", {{"clusterRoleSelectors", {{{"matchLabels", {{"agg", "true"}}}}}}}}}, {}},
              });
}

json Binding() {
  return {{"metadata", {{"name", "read-pods"}, {"namespace", "ns"}}},
          {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", "reader"}}},
          {"subjects",
           {{{"kind", "User"}, {"apiGroup", "rbac.authorization.k8s.io"}, {"name", "jane"}},
            {{"kind", "ServiceAccount"}, {"name", "default"}, {"namespace", "ns"}}}}};
}

TEST_CASE("RoleBinding and ClusterRoleBinding") {
  CheckCreate("rbac.authorization.k8s.io", "rolebindings", Binding(),
              {
                  {"valid", json::object(), {}},
                  {"cluster role", {{"roleRef", {{"kind", "ClusterRole"}, {"name", "view"}}}}, {}},
                  {"bad kind",
                   {{"roleRef", {{"kind", "Policy"}}}},
                   {"FieldValueNotSupported roleRef.kind: Unsupported value: \"Policy\": supported values: \"Role\", "
                    "\"ClusterRole\""}},
                  {"bad group",
                   {{"roleRef", {{"apiGroup", "example.com"}}}},
                   {"FieldValueNotSupported roleRef.apiGroup: Unsupported value: \"example.com\": supported values: "
                    "\"rbac.authorization.k8s.io\""}},
                  {"no role name", {{"roleRef", {{"name", ""}}}}, {"FieldValueRequired roleRef.name: Required value"}},
                  {"bad subject kind",
                   {{"subjects", {{{"kind", "Robot"}, {"name", "r2"}}}}},
                   {"FieldValueNotSupported subjects[0].kind: Unsupported value: \"Robot\": supported values: "
                    "\"ServiceAccount\", \"User\", \"Group\""}},
                  {"service account with group",
                   {{"subjects", {{{"kind", "ServiceAccount"}, {"name", "sa"}, {"apiGroup", "rbac.authorization.k8s.io"}}}}},
                   {"FieldValueNotSupported subjects[0].apiGroup: Unsupported value: \"rbac.authorization.k8s.io\": "
                    "supported values: \"\""}},
                  {"nameless group",
                   {{"subjects", {{{"kind", "Group"}, {"apiGroup", "rbac.authorization.k8s.io"}}}}},
                   {"FieldValueRequired subjects[0].name: Required value"}},
              });
  CheckUpdate("rbac.authorization.k8s.io", "rolebindings", Binding(),
              {
                  {"subjects", {{"subjects", json::array()}}, {}},
                  {"role changed",
                   {{"roleRef", {{"name", "writer"}}}},
                   {"FieldValueInvalid roleRef: Invalid value: "
                    "{\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"Role\",\"Name\":\"writer\"}: cannot change "
                    "roleRef"}},
              });
  json cluster_binding = Binding();
  cluster_binding["metadata"].erase("namespace");
  cluster_binding["roleRef"]["kind"] = "ClusterRole";
  CheckCreate("rbac.authorization.k8s.io", "clusterrolebindings", cluster_binding,
              {
                  {"valid", json::object(), {}},
                  {"Role", {{"roleRef", {{"kind", "Role"}}}}, {"FieldValueNotSupported roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\""}},
                  {"service account without namespace",
                   {{"subjects", {{{"kind", "ServiceAccount"}, {"name", "sa"}}}}},
                   {"FieldValueRequired subjects[0].namespace: Required value"}},
              });
}

}  // namespace
}  // namespace kube::validation::testing
