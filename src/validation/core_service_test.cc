#include "validation/validation_test_util.h"

namespace kube::validation::testing {
namespace {

using T = FieldError::Type;
using nlohmann::json;

const json kEndpoints = json::parse(R"({"metadata":{"name":"db","namespace":"default"},
  "subsets":[{"addresses":[{"ip":"10.0.0.5"}],"ports":[{"port":5432,"protocol":"TCP"}]}]})");

json WithAddress(const std::string& ip) {
  json ep = kEndpoints;
  ep["subsets"][0]["addresses"][0]["ip"] = ip;
  return ep;
}

TEST_CASE("Endpoints: addresses, ports and names") {
  const std::string loopback = "may not be in the loopback range (127.0.0.0/8, ::1/128)";
  RunCases("endpoints", {
      {"valid", kEndpoints, {}},
      {"valid IPv6 and leading zeros (legacy parsing)", WithAddress("2001:db8::5"), {}},
      {"leading zeros are tolerated", WithAddress("010.000.000.005"), {}},
      {"loopback", WithAddress("127.0.0.1"), {{T::kInvalid, "subsets[0].addresses[0].ip", "Invalid value: \"127.0.0.1\": " + loopback}}},
      {"IPv6 loopback", WithAddress("::1"), {{T::kInvalid, "subsets[0].addresses[0].ip", "Invalid value: \"::1\": " + loopback}}},
      {"link-local", WithAddress("169.254.169.254"),
       {{T::kInvalid, "subsets[0].addresses[0].ip",
         "Invalid value: \"169.254.169.254\": may not be in the link-local range (169.254.0.0/16, fe80::/10)"}}},
      {"link-local multicast", WithAddress("224.0.0.1"),
       {{T::kInvalid, "subsets[0].addresses[0].ip",
         "Invalid value: \"224.0.0.1\": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"}}},
      {"unspecified", WithAddress("0.0.0.0"),
       {{T::kInvalid, "subsets[0].addresses[0].ip", "Invalid value: \"0.0.0.0\": may not be unspecified (0.0.0.0)"}}},
      {"not an IP", WithAddress("not-an-ip"),
       {{T::kInvalid, "subsets[0].addresses[0].ip",
         "Invalid value: \"not-an-ip\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"},
        {T::kInvalid, "subsets[0].addresses[0].ip", "Invalid value: \"not-an-ip\": must be a valid IP address"}}},
      {"port 0, no protocol", Patched(kEndpoints, {{"subsets", json::array({{{"addresses", json::array({{{"ip", "10.0.0.5"}}})},
                                                                            {"ports", json::array({{{"port", 0}}})}}})}}),
       {{T::kInvalid, "subsets[0].ports[0].port", "Invalid value: 0: must be between 1 and 65535, inclusive"},
        {T::kRequired, "subsets[0].ports[0].protocol", "Required value"}}},
      {"bad protocol, names required for several ports",
       Patched(kEndpoints, json::parse(R"({"subsets":[{"addresses":[{"ip":"10.0.0.5","hostname":"Bad_Host"}],
          "ports":[{"port":1,"protocol":"ICMP"},{"name":"b","port":2,"protocol":"UDP"}]}]})")),
       {{T::kInvalid, "subsets[0].addresses[0].hostname",
         "Invalid value: \"Bad_Host\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
         "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
         "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
        {T::kRequired, "subsets[0].ports[0].name", "Required value"},
        {T::kNotSupported, "subsets[0].ports[0].protocol", "Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""}}},
      {"a subset without addresses", Patched(kEndpoints, {{"subsets", json::array({{{"ports", json::array({{{"port", 1}, {"protocol", "TCP"}}})}}})}}),
       {{T::kRequired, "subsets[0]", "Required value: must specify `addresses` or `notReadyAddresses`"}}},
      {"update validates the new object", WithAddress("127.0.0.2"),
       {{T::kInvalid, "subsets[0].addresses[0].ip", "Invalid value: \"127.0.0.2\": " + loopback}}, kEndpoints},
  });
}

const json kService = json::parse(R"({"metadata":{"name":"web","namespace":"default"},"spec":{
  "ports":[{"port":80,"protocol":"TCP","targetPort":8080}],"selector":{"app":"web"},"type":"ClusterIP",
  "sessionAffinity":"None","clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"ipFamilies":["IPv4"],
  "ipFamilyPolicy":"SingleStack","internalTrafficPolicy":"Cluster"}})");

TEST_CASE("Service: ports, types, cluster IPs, affinity and immutability") {
  json headless = Patched(kService, json::parse(R"({"spec":{"ports":null,"clusterIP":"None","clusterIPs":["None"]}})"));
  json external = json::parse(R"({"metadata":{"name":"ext","namespace":"default"},"spec":{"type":"ExternalName",
      "externalName":"db.example.com.","sessionAffinity":"None"}})");
  RunCases("services", {
      {"valid", kService, {}},
      {"headless without ports", headless, {}},
      {"ExternalName", external, {}},
      {"ports required", Patched(kService, {{"spec", {{"ports", nullptr}}}}), {{T::kRequired, "spec.ports", "Required value"}}},
      {"port range and target port name",
       Patched(kService, json::parse(R"({"spec":{"ports":[{"port":70000,"protocol":"TCP","targetPort":"Not_A_Name"}]}})")),
       {{T::kInvalid, "spec.ports[0].port", "Invalid value: 70000: must be between 1 and 65535, inclusive"},
        {T::kInvalid, "spec.ports[0].targetPort",
         "Invalid value: \"Not_A_Name\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"}}},
      {"names required and unique with several ports",
       Patched(kService, json::parse(R"({"spec":{"ports":[{"port":80,"protocol":"TCP","targetPort":80},
          {"name":"a","port":81,"protocol":"TCP","targetPort":81},{"name":"a","port":81,"protocol":"TCP","targetPort":81}]}})")),
       {{T::kRequired, "spec.ports[0].name", "Required value"},
        {T::kDuplicate, "spec.ports[2].name", "Duplicate value: \"a\""},
        {T::kDuplicate, "spec.ports[2]",
         "Duplicate value: {\"Name\":\"\",\"Protocol\":\"TCP\",\"AppProtocol\":null,\"Port\":81,\"TargetPort\":0,\"NodePort\":0}"}}},
      {"unknown type and affinity", Patched(kService, json::parse(R"({"spec":{"type":"Magic","sessionAffinity":"Sticky","internalTrafficPolicy":null}})")),
       {{T::kNotSupported, "spec.sessionAffinity", "Unsupported value: \"Sticky\": supported values: \"ClientIP\", \"None\""},
        {T::kNotSupported, "spec.type",
         "Unsupported value: \"Magic\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\""}}},
      {"ExternalName needs a DNS name", Patched(external, {{"spec", {{"externalName", "Not A Host"}}}}),
       {{T::kInvalid, "spec.externalName",
         "Invalid value: \"Not A Host\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
         "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
         "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}}},
      {"ExternalName without a name", Patched(external, {{"spec", {{"externalName", nullptr}}}}),
       {{T::kRequired, "spec.externalName", "Required value"}}},
      {"nodePort on ClusterIP", Patched(kService, json::parse(R"({"spec":{"ports":[{"port":80,"protocol":"TCP","targetPort":80,"nodePort":30080}]}})")),
       {{T::kForbidden, "spec.ports[0].nodePort", "Forbidden: may not be used when `type` is 'ClusterIP'"}}},
      {"cluster IPs must agree", Patched(kService, json::parse(R"({"spec":{"clusterIPs":["10.96.0.11"]}})")),
       {{T::kInvalid, "spec.clusterIPs", "Invalid value: [\"10.96.0.11\"]: first value must match `clusterIP`"}}},
      {"external IP loopback", Patched(kService, json::parse(R"({"spec":{"externalIPs":["127.0.0.1"],"externalTrafficPolicy":"Cluster"}})")),
       {{T::kInvalid, "spec.externalIPs[0]", "Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)"}}},
      {"clusterIP is immutable", Patched(kService, json::parse(R"({"spec":{"clusterIP":"10.96.0.12","clusterIPs":["10.96.0.12"]}})")),
       {{T::kInvalid, "spec.clusterIPs[0]", "Invalid value: [\"10.96.0.12\"]: may not change once set"}}, kService},
      {"other fields may change", Patched(kService, {{"spec", {{"selector", {{"app", "web2"}}}}}}), {}, kService},
  });
}

}  // namespace
}  // namespace kube::validation::testing
