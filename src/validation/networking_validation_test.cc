// networking.k8s.io/v1 validators: Ingress, IngressClass and NetworkPolicy tables.
#include "validation/groups_test_util.h"

namespace kube::validation::testing {
namespace {

json Ingress() {
  return {{"metadata", {{"name", "web"}, {"namespace", "ns"}}},
          {"spec",
           {{"ingressClassName", "nginx"},
            {"rules",
             {{{"host", "example.com"},
               {"http",
                {{"paths",
                  {{{"path", "/"},
                    {"pathType", "Prefix"},
                    {"backend", {{"service", {{"name", "web"}, {"port", {{"number", 80}}}}}}}}}}}}}}}}}};
}

json Path(const json& path) {
  json p = {{"path", "/"}, {"pathType", "Prefix"}, {"backend", {{"service", {{"name", "web"}, {"port", {{"number", 80}}}}}}}};
  p.merge_patch(path);
  return {{"spec", {{"rules", {{{"host", "example.com"}, {"http", {{"paths", {p}}}}}}}}}};
}

TEST_CASE("Ingress") {
  CheckCreate("networking.k8s.io", "ingresses", Ingress(),
              {
                  {"valid", json::object(), {}},
                  {"default backend only",
                   {{"spec", {{"rules", nullptr}, {"defaultBackend", {{"service", {{"name", "web"}, {"port", {{"name", "http"}}}}}}}}}},
                   {}},
                  {"wildcard host", {{"spec", {{"rules", {{{"host", "*.example.com"}}}}}}}, {}},
                  {"nothing",
                   {{"spec", {{"rules", nullptr}}}},
                   {"FieldValueInvalid spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"}},
                  {"no pathType",
                   Path({{"pathType", nullptr}}),
                   {"FieldValueRequired spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"}},
                  {"relative prefix",
                   Path({{"path", "api"}}),
                   {"FieldValueInvalid spec.rules[0].http.paths[0].path: Invalid value: \"api\": must be an absolute path"}},
                  {"double slash",
                   Path({{"path", "/a//b"}}),
                   {"FieldValueInvalid spec.rules[0].http.paths[0].path: Invalid value: \"/a//b\": must not contain '//'"}},
                  {"unknown pathType",
                   Path({{"pathType", "Regex"}}),
                   {"FieldValueNotSupported spec.rules[0].http.paths[0].pathType: Unsupported value: \"Regex\": supported "
                    "values: \"Exact\", \"ImplementationSpecific\", \"Prefix\""}},
                  {"no port",
                   Path({{"backend", {{"service", {{"port", nullptr}}}}}}),
                   {"FieldValueRequired spec.rules[0].http.paths[0].backend: Required value: port name or number is "
                    "required"}},
                  {"both backends",
                   Path({{"backend", {{"resource", {{"kind", "Bucket"}, {"name", "b"}}}}}}),
                   {"FieldValueInvalid spec.rules[0].http.paths[0].backend: Invalid value: \"\": cannot set both "
                    "resource and service backends"}},
                  {"no backend",
                   Path({{"backend", {{"service", nullptr}}}}),
                   {"FieldValueInvalid spec.rules[0].http.paths[0].backend: Invalid value: \"\": resource or service "
                    "backend is required"}},
                  {"bad service name",
                   Path({{"backend", {{"service", {{"name", "Web"}}}}}}),
                   {"FieldValueInvalid spec.rules[0].http.paths[0].backend.service.name: Invalid value: \"Web\": a "
                    "DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex "
                    "used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"}},
                  {"port out of range",
                   Path({{"backend", {{"service", {{"port", {{"number", 70000}}}}}}}}),
                   {"FieldValueInvalid spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: 70000: "
                    "must be between 1 and 65535, inclusive"}},
                  {"IP host",
                   {{"spec", {{"rules", {{{"host", "10.0.0.1"}}}}}}},
                   {"FieldValueInvalid spec.rules[0].host: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP "
                    "address"}},
                  {"annotation disagrees",
                   {{"metadata", {{"annotations", {{"kubernetes.io/ingress.class", "traefik"}}}}}},
                   {"FieldValueInvalid annotations.kubernetes.io/ingress.class: Invalid value: \"traefik\": must match "
                    "`ingressClassName` when both are specified"}},
              });
}

TEST_CASE("IngressClass") {
  const json base = {{"metadata", {{"name", "nginx"}}},
                     {"spec", {{"controller", "k8s.io/ingress-nginx"}}}};
  CheckCreate("networking.k8s.io", "ingressclasses", base,
              {
                  {"valid", json::object(), {}},
                  {"no controller", {{"spec", {{"controller", nullptr}}}}, {"FieldValueRequired spec.controller: Required value"}},
                  {"not domain prefixed",
                   {{"spec", {{"controller", "nginx"}}}},
                   {"FieldValueInvalid spec.controller: Invalid value: \"nginx\": must be a domain-prefixed path (such as "
                    "\"acme.io/foo\")"}},
                  {"namespace scope without namespace",
                   {{"spec", {{"parameters", {{"kind", "Params"}, {"name", "p"}, {"scope", "Namespace"}}}}}},
                   {"FieldValueRequired spec.parameters.namespace: Required value: `parameters.scope` is set to "
                    "'Namespace'"}},
                  {"cluster scope with namespace",
                   {{"spec", {{"parameters", {{"kind", "Params"}, {"name", "p"}, {"scope", "Cluster"}, {"namespace", "x"}}}}}},
                   {"FieldValueForbidden spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"}},
              });
  CheckUpdate("networking.k8s.io", "ingressclasses", base,
              {{"controller changed",
                {{"spec", {{"controller", "example.com/other"}}}},
                {"FieldValueInvalid spec.controller: Invalid value: \"example.com/other\": field is immutable"}}});
}

json Policy() {
  return {{"metadata", {{"name", "deny"}, {"namespace", "ns"}}},
          {"spec", {{"podSelector", json::object()}, {"policyTypes", {"Ingress"}}}}};
}

json Rule(const json& rule) { return {{"spec", {{"ingress", {rule}}}}}; }

TEST_CASE("NetworkPolicy") {
  CheckCreate("networking.k8s.io", "networkpolicies", Policy(),
              {
                  {"valid", json::object(), {}},
                  {"port range",
                   Rule({{"ports", {{{"protocol", "TCP"}, {"port", 8000}, {"endPort", 8080}}}},
                         {"from", {{{"ipBlock", {{"cidr", "10.0.0.0/8"}, {"except", {"10.1.0.0/16"}}}}}}}}),
                   {}},
                  {"named port", Rule({{"ports", {{{"protocol", "UDP"}, {"port", "dns"}}}}}), {}},
                  {"bad protocol",
                   Rule({{"ports", {{{"protocol", "ICMP"}}}}}),
                   {"FieldValueNotSupported spec.ingress[0].ports[0].protocol: Unsupported value: \"ICMP\": supported "
                    "values: \"TCP\", \"UDP\", \"SCTP\""}},
                  {"endPort below port",
                   Rule({{"ports", {{{"protocol", "TCP"}, {"port", 80}, {"endPort", 70}}}}}),
                   {"FieldValueInvalid spec.ingress[0].ports[0].endPort: Invalid value: 80: must be greater than or "
                    "equal to `port`"}},
                  {"endPort with named port",
                   Rule({{"ports", {{{"protocol", "TCP"}, {"port", "http"}, {"endPort", 90}}}}}),
                   {"FieldValueInvalid spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when "
                    "`port` is non-numeric"}},
                  {"empty peer",
                   Rule({{"from", {json::object()}}}),
                   {"FieldValueRequired spec.ingress[0].from[0]: Required value: must specify a peer"}},
                  {"ipBlock and selector",
                   Rule({{"from", {{{"ipBlock", {{"cidr", "10.0.0.0/8"}}}, {"podSelector", json::object()}}}}}),
                   {"FieldValueForbidden spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another "
                    "peer"}},
                  {"except outside",
                   Rule({{"from", {{{"ipBlock", {{"cidr", "10.0.0.0/16"}, {"except", {"192.168.0.0/24", "10.0.0.0/8"}}}}}}}}),
                   {"FieldValueInvalid spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"192.168.0.0/24\": must "
                    "be a strict subset of `cidr`",
                    "FieldValueInvalid spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: \"10.0.0.0/8\": must be "
                    "a strict subset of `cidr`"}},
                  {"no cidr",
                   Rule({{"from", {{{"ipBlock", {{"except", {"10.0.0.0/8"}}}}}}}}),
                   {"FieldValueRequired spec.ingress[0].from[0].ipBlock.cidr: Required value"}},
                  {"bad policy type",
                   {{"spec", {{"policyTypes", {"Sideways"}}}}},
                   {"FieldValueNotSupported spec.policyTypes[0]: Unsupported value: \"Sideways\": supported values: "
                    "\"Ingress\", \"Egress\""}},
              });
}

}  // namespace
}  // namespace kube::validation::testing
