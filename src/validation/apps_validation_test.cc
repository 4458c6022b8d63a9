// apps/v1 validators: one table per kind, refused cases with kube's causes and accepted ones.
#include "validation/groups_test_util.h"

namespace kube::validation::testing {
namespace {

json Deployment() {
  return {{"apiVersion", "apps/v1"},
          {"kind", "Deployment"},
          {"metadata", {{"name", "web"}, {"namespace", "ns"}}},
          {"spec",
           {{"replicas", 1},
            {"selector", {{"matchLabels", {{"app", "web"}}}}},
            {"template", PodTemplate({{"app", "web"}})},
            {"strategy", {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", "25%"}, {"maxSurge", "25%"}}}}},
            {"revisionHistoryLimit", 10},
            {"progressDeadlineSeconds", 600}}}};
}

TEST_CASE("Deployment create") {
  const std::string kMismatch =
      "FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match "
      "template `labels`";
  CheckCreate("apps", "deployments", Deployment(),
              {
                  {"valid", json::object(), {}},
                  {"valid Recreate", {{"spec", {{"strategy", {{"type", "Recreate"}, {"rollingUpdate", nullptr}}}}}}, {}},
                  {"selector with expressions",
                   {{"spec", {{"selector", {{"matchExpressions", {{{"key", "app"}, {"operator", "In"}, {"values", {"web"}}}}}}}}}},
                   {}},
                  {"negative replicas",
                   {{"spec", {{"replicas", -1}}}},
                   {"FieldValueInvalid spec.replicas: Invalid value: -1: must be greater than or equal to 0"}},
                  {"no selector",
                   {{"spec", {{"selector", nullptr}}}},
                   {"FieldValueRequired spec.selector: Required value",
                    "FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does "
                    "not match template `labels`"}},
                  {"empty selector",
                   {{"spec", {{"selector", {{"matchLabels", nullptr}}}}}},
                   {"FieldValueInvalid spec.selector: Invalid value: {}: empty selector is invalid for deployment"}},
                  {"selector not matching", {{"spec", {{"template", {{"metadata", {{"labels", {{"app", "other"}}}}}}}}}}, {kMismatch}},
                  {"In without values",
                   {{"spec", {{"selector", {{"matchLabels", nullptr}, {"matchExpressions", {{{"key", "app"}, {"operator", "In"}}}}}}}}},
                   {"FieldValueRequired spec.selector.matchExpressions[0].values: Required value: must be specified when "
                    "`operator` is 'In' or 'NotIn'",
                    "FieldValueInvalid spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":"
                    "\"In\"}]}: invalid label selector"}},
                  {"Exists with values",
                   {{"spec", {{"selector", {{"matchLabels", nullptr}, {"matchExpressions", {{{"key", "app"}, {"operator", "Exists"}, {"values", {"x"}}}}}}}}}},
                   {"FieldValueForbidden spec.selector.matchExpressions[0].values: Forbidden: may not be specified when "
                    "`operator` is 'Exists' or 'DoesNotExist'",
                    "FieldValueInvalid spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":"
                    "\"Exists\",\"values\":[\"x\"]}]}: invalid label selector"}},
                  {"restartPolicy Never",
                   {{"spec", {{"template", {{"spec", {{"restartPolicy", "Never"}}}}}}}},
                   {"FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported "
                    "values: \"Always\""}},
                  {"activeDeadlineSeconds",
                   {{"spec", {{"template", {{"spec", {{"activeDeadlineSeconds", 5}}}}}}}},
                   {"FieldValueForbidden spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in "
                    "ReplicaSet is not Supported"}},
                  {"Recreate with rollingUpdate",
                   {{"spec", {{"strategy", {{"type", "Recreate"}}}}}},
                   {"FieldValueForbidden spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy "
                    "`type` is 'Recreate'"}},
                  {"unknown strategy",
                   {{"spec", {{"strategy", {{"type", "Blue"}, {"rollingUpdate", nullptr}}}}}},
                   {"FieldValueNotSupported spec.strategy: Unsupported value: {\"Type\":\"Blue\",\"RollingUpdate\":null}: "
                    "supported values: \"Recreate\", \"RollingUpdate\""}},
                  {"both zero",
                   {{"spec", {{"strategy", {{"rollingUpdate", {{"maxUnavailable", 0}, {"maxSurge", "0%"}}}}}}}},
                   {"FieldValueInvalid spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when "
                    "`maxSurge` is 0"}},
                  {"bad percent",
                   {{"spec", {{"strategy", {{"rollingUpdate", {{"maxUnavailable", "110%"}, {"maxSurge", "x"}}}}}}}},
                   {"FieldValueInvalid spec.strategy.rollingUpdate.maxSurge: Invalid value: \"x\": a valid percent "
                    "string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
                    "validation is '[0-9]+%')",
                    "FieldValueInvalid spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"110%\": must not be "
                    "greater than 100%"}},
                  {"deadline not above minReadySeconds",
                   {{"spec", {{"minReadySeconds", 700}}}},
                   {"FieldValueInvalid spec.progressDeadlineSeconds: Invalid value: 600: must be greater than "
                    "minReadySeconds"}},
                  {"negative revisionHistoryLimit",
                   {{"spec", {{"revisionHistoryLimit", -2}}}},
                   {"FieldValueInvalid spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0"}},
              });
}

TEST_CASE("Deployment update") {
  CheckUpdate("apps", "deployments", Deployment(),
              {
                  {"scale", {{"spec", {{"replicas", 5}}}}, {}},
                  {"selector changed",
                   {{"spec",
                     {{"selector", {{"matchLabels", {{"app", "web2"}}}}},
                      {"template", {{"metadata", {{"labels", {{"app", "web2"}}}}}}}}}},
                   {"FieldValueInvalid spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web2\"}}: field is "
                    "immutable"}},
              });
  CheckStatusUpdate("apps", "deployments", Deployment(),
                    {
                        {"counts", {{"status", {{"replicas", 2}, {"readyReplicas", 2}, {"availableReplicas", 1}}}}, {}},
                        {"ready above replicas",
                         {{"status", {{"replicas", 1}, {"readyReplicas", 2}}}},
                         {"FieldValueInvalid status.readyReplicas: Invalid value: 2: cannot be greater than "
                          "status.replicas"}},
                        {"negative",
                         {{"status", {{"replicas", -1}}}},
                         {"FieldValueInvalid status.replicas: Invalid value: -1: must be greater than or equal to 0",
                          "FieldValueInvalid status.updatedReplicas: Invalid value: 0: cannot be greater than "
                          "status.replicas",
                          "FieldValueInvalid status.readyReplicas: Invalid value: 0: cannot be greater than "
                          "status.replicas",
                          "FieldValueInvalid status.availableReplicas: Invalid value: 0: cannot be greater than "
                          "status.replicas"}},
                    });
}

json ReplicaSet() {
  return {{"metadata", {{"name", "rs"}, {"namespace", "ns"}}},
          {"spec", {{"replicas", 1}, {"selector", {{"matchLabels", {{"app", "web"}}}}}, {"template", PodTemplate({{"app", "web"}})}}}};
}

TEST_CASE("ReplicaSet") {
  CheckCreate("apps", "replicasets", ReplicaSet(),
              {
                  {"valid", json::object(), {}},
                  {"empty selector",
                   {{"spec", {{"selector", {{"matchLabels", nullptr}}}}}},
                   {"FieldValueInvalid spec.selector: Invalid value: {}: empty selector is invalid for deployment"}},
                  {"negative minReadySeconds",
                   {{"spec", {{"minReadySeconds", -1}}}},
                   {"FieldValueInvalid spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"}},
              });
  CheckUpdate("apps", "replicasets", ReplicaSet(),
              {{"selector changed",
                {{"spec", {{"selector", {{"matchLabels", {{"app", "web"}, {"tier", "x"}}}}}, {"template", {{"metadata", {{"labels", {{"tier", "x"}}}}}}}}}},
                {"FieldValueInvalid spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web\",\"tier\":\"x\"}}: "
                 "field is immutable"}}});
}

json StatefulSet() {
  return {{"metadata", {{"name", "db"}, {"namespace", "ns"}}},
          {"spec",
           {{"replicas", 1},
            {"serviceName", "db"},
            {"podManagementPolicy", "OrderedReady"},
            {"updateStrategy", {{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 0}}}}},
            {"persistentVolumeClaimRetentionPolicy", {{"whenDeleted", "Retain"}, {"whenScaled", "Retain"}}},
            {"revisionHistoryLimit", 10},
            {"selector", {{"matchLabels", {{"app", "db"}}}}},
            {"template", PodTemplate({{"app", "db"}})}}}};
}

TEST_CASE("StatefulSet") {
  CheckCreate("apps", "statefulsets", StatefulSet(),
              {
                  {"valid", json::object(), {}},
                  {"bad pod management",
                   {{"spec", {{"podManagementPolicy", "Random"}}}},
                   {"FieldValueInvalid spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or "
                    "'Parallel'"}},
                  {"OnDelete with rollingUpdate",
                   {{"spec", {{"updateStrategy", {{"type", "OnDelete"}}}}}},
                   {"FieldValueInvalid spec.updateStrategy.rollingUpdate: Invalid value: "
                    "{\"Partition\":0,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'"}},
                  {"unknown strategy",
                   {{"spec", {{"updateStrategy", {{"type", "Fast"}, {"rollingUpdate", nullptr}}}}}},
                   {"FieldValueInvalid spec.updateStrategy: Invalid value: {\"Type\":\"Fast\",\"RollingUpdate\":null}: "
                    "must be 'RollingUpdate' or 'OnDelete'"}},
                  {"maxUnavailable 0",
                   {{"spec", {{"updateStrategy", {{"rollingUpdate", {{"maxUnavailable", 0}}}}}}}},
                   {"FieldValueInvalid spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0"}},
                  {"retention policy",
                   {{"spec", {{"persistentVolumeClaimRetentionPolicy", {{"whenDeleted", "Keep"}}}}}},
                   {"FieldValueNotSupported spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "
                    "\"Keep\": supported values: \"Retain\", \"Delete\""}},
                  {"empty selector",
                   {{"spec", {{"selector", {{"matchLabels", nullptr}}}}}},
                   {"FieldValueInvalid spec.selector: Invalid value: {}: empty selector is invalid for statefulset"}},
                  {"no selector",
                   {{"spec", {{"selector", nullptr}}}},
                   {"FieldValueRequired spec.selector: Required value",
                    "FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"app\":\"db\"}: `selector` does "
                    "not match template `labels`"}},
                  {"restart policy",
                   {{"spec", {{"template", {{"spec", {{"restartPolicy", "OnFailure"}}}}}}}},
                   {"FieldValueNotSupported spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": "
                    "supported values: \"Always\""}},
                  {"negative ordinals",
                   {{"spec", {{"ordinals", {{"start", -1}}}}}},
                   {"FieldValueInvalid spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0"}},
              });
  const std::string kForbidden =
      "FieldValueForbidden spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', "
      "'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
  CheckUpdate("apps", "statefulsets", StatefulSet(),
              {
                  {"scale and new image",
                   {{"spec", {{"replicas", 3}, {"template", {{"spec", {{"containers", {{{"name", "c"}, {"image", "nginx:2"}}}}}}}}}}},
                   {}},
                  {"serviceName", {{"spec", {{"serviceName", "other"}}}}, {kForbidden}},
                  {"volumeClaimTemplates", {{"spec", {{"volumeClaimTemplates", json::array({{{"metadata", {{"name", "d"}}}}})}}}}, {kForbidden}},
              });
  CheckStatusUpdate("apps", "statefulsets", StatefulSet(),
                    {{"available above ready",
                      {{"status", {{"replicas", 2}, {"readyReplicas", 1}, {"availableReplicas", 2}}}},
                      {"FieldValueInvalid status.availableReplicas: Invalid value: 2: cannot be greater than "
                       "status.readyReplicas"}}});
}

json DaemonSet() {
  return {{"metadata", {{"name", "agent"}, {"namespace", "ns"}}},
          {"spec",
           {{"selector", {{"matchLabels", {{"app", "agent"}}}}},
            {"template", PodTemplate({{"app", "agent"}})},
            {"updateStrategy", {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", 1}, {"maxSurge", 0}}}}},
            {"revisionHistoryLimit", 10}}}};
}

TEST_CASE("DaemonSet") {
  CheckCreate("apps", "daemonsets", DaemonSet(),
              {
                  {"valid", json::object(), {}},
                  {"surge only", {{"spec", {{"updateStrategy", {{"rollingUpdate", {{"maxUnavailable", 0}, {"maxSurge", "10%"}}}}}}}}, {}},
                  {"both non-zero",
                   {{"spec", {{"updateStrategy", {{"rollingUpdate", {{"maxSurge", 1}}}}}}}},
                   {"FieldValueInvalid spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set "
                    "when maxUnavailable is non-zero"}},
                  {"both zero",
                   {{"spec", {{"updateStrategy", {{"rollingUpdate", {{"maxUnavailable", 0}}}}}}}},
                   {"FieldValueRequired spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 "
                    "when maxSurge is 0"}},
                  {"no selector",
                   {{"spec", {{"selector", nullptr}}}},
                   {"FieldValueInvalid spec.template.metadata.labels: Invalid value: {\"app\":\"agent\"}: `selector` "
                    "does not match template `labels`"}},
                  {"empty selector",
                   {{"spec", {{"selector", {{"matchLabels", nullptr}}}}}},
                   {"FieldValueInvalid spec.selector: Invalid value: {}: empty selector is invalid for daemonset"}},
                  {"unknown strategy",
                   {{"spec", {{"updateStrategy", {{"type", "Surge"}, {"rollingUpdate", nullptr}}}}}},
                   {"FieldValueNotSupported spec.updateStrategy: Unsupported value: "
                    "{\"Type\":\"Surge\",\"RollingUpdate\":null}: supported values: \"RollingUpdate\", \"OnDelete\""}},
                  {"activeDeadlineSeconds",
                   {{"spec", {{"template", {{"spec", {{"activeDeadlineSeconds", 10}}}}}}}},
                   {"FieldValueForbidden spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in "
                    "DaemonSet is not Supported"}},
              });
  CheckUpdate("apps", "daemonsets", DaemonSet(),
              {{"selector changed",
                {{"spec", {{"selector", {{"matchLabels", nullptr}, {"matchExpressions", {{{"key", "app"}, {"operator", "Exists"}}}}}}}}},
                {"FieldValueInvalid spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":"
                 "\"Exists\"}]}: field is immutable"}}});
}

TEST_CASE("ControllerRevision") {
  CheckCreate("apps", "controllerrevisions", {{"metadata", {{"name", "r"}}}, {"data", json::object()}, {"revision", 1}},
              {
                  {"valid", json::object(), {}},
                  {"no data", {{"data", nullptr}}, {"FieldValueRequired data: Required value: data is mandatory"}},
                  {"negative revision",
                   {{"revision", -1}},
                   {"FieldValueInvalid revision: Invalid value: -1: must be greater than or equal to 0"}},
              });
}

}  // namespace
}  // namespace kube::validation::testing
