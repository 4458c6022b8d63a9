#include "registry/kind_rules.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace kube::registry {

namespace {

struct Entry {
  std::string_view group;
  std::string_view resource;
};

bool In(std::initializer_list<Entry> entries, std::string_view group, std::string_view resource) {
  return std::any_of(entries.begin(), entries.end(),
                     [&](const Entry& e) { return e.group == group && e.resource == resource; });
}

// A field's value as a field selector sees it: strings as is, booleans and numbers printed.
std::string FieldValue(const nlohmann::json& object, std::string_view path) {
  const nlohmann::json* cur = &object;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    std::string key(path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (!cur->is_object()) return "";
    auto it = cur->find(key);
    if (it == cur->end()) return "";
    cur = &*it;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (cur->is_string()) return cur->get<std::string>();
  if (cur->is_boolean()) return cur->get<bool>() ? "true" : "false";
  if (cur->is_number()) return cur->dump();
  return "";
}

}  // namespace

KindRules RulesFor(std::string_view group, std::string_view resource) {
  KindRules r;
  if (group.empty() && resource == "namespaces") r.name_rule = NameRule::kDnsLabel;
  if (group.empty() && resource == "services") r.name_rule = NameRule::kDns1035Label;
  if (group == "rbac.authorization.k8s.io") r.name_rule = NameRule::kPathSegment;
  // A StatefulSet's name is its pods' hostname prefix; a CSR's any path segment.
  if (group == "apps" && resource == "statefulsets") r.name_rule = NameRule::kDnsLabel;
  if (group == "certificates.k8s.io" && resource == "certificatesigningrequests") {
    r.name_rule = NameRule::kPathSegment;
  }

  r.tracks_generation = In({{"apps", "deployments"}, {"apps", "replicasets"}, {"apps", "statefulsets"},
                            {"apps", "daemonsets"}, {"batch", "jobs"}, {"batch", "cronjobs"},
                            {"", "pods"}, {"", "replicationcontrollers"},
                            {"apiextensions.k8s.io", "customresourcedefinitions"},
                            {"policy", "poddisruptionbudgets"}, {"networking.k8s.io", "networkpolicies"},
                            {"networking.k8s.io", "ingresses"}, {"autoscaling", "horizontalpodautoscalers"},
                            {"admissionregistration.k8s.io", "validatingwebhookconfigurations"},
                            {"admissionregistration.k8s.io", "mutatingwebhookconfigurations"},
                            // Kinds whose kube strategy also sets generation 1 and bumps it on a
                            // change outside metadata.
                            {"", "podtemplates"}, {"discovery.k8s.io", "endpointslices"},
                            {"networking.k8s.io", "ingressclasses"},
                            {"flowcontrol.apiserver.k8s.io", "flowschemas"},
                            {"flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations"},
                            {"admissionregistration.k8s.io", "validatingadmissionpolicies"},
                            {"admissionregistration.k8s.io", "validatingadmissionpolicybindings"},
                            {"admissionregistration.k8s.io", "mutatingadmissionpolicies"},
                            {"admissionregistration.k8s.io", "mutatingadmissionpolicybindings"},
                            {"resource.k8s.io", "deviceclasses"}, {"scheduling.k8s.io", "priorityclasses"}},
                           group, resource);
  r.generation_counts_annotations = group == "apps" && resource == "deployments";
  r.return_deleted_object = In({{"", "pods"}, {"", "namespaces"}, {"", "serviceaccounts"},
                                {"storage.k8s.io", "storageclasses"}, {"", "nodes"},
                                {"", "persistentvolumes"}, {"", "persistentvolumeclaims"}},
                               group, resource);
  r.graceful_delete = group.empty() && resource == "pods";

  if (group.empty() && resource == "pods") {
    r.selectable_fields = {"spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
                           "spec.serviceAccountName", "spec.hostNetwork", "status.phase",
                           "status.podIP", "status.nominatedNodeName"};
  } else if (group.empty() && resource == "events") {
    r.selectable_fields = {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
                           "involvedObject.uid", "involvedObject.apiVersion",
                           "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
                           "reportingComponent", "source", "type"};
  } else if (group.empty() && resource == "namespaces") {
    r.selectable_fields = {"status.phase"};
  } else if (group.empty() && resource == "nodes") {
    r.selectable_fields = {"spec.unschedulable"};
  } else if (group.empty() && resource == "secrets") {
    r.selectable_fields = {"type"};
  } else if (group.empty() && resource == "services") {
    r.selectable_fields = {"spec.clusterIP", "spec.type"};
  } else if (group.empty() && resource == "replicationcontrollers") {
    r.selectable_fields = {"status.replicas"};
  } else if (group == "batch" && resource == "jobs") {
    r.selectable_fields = {"status.successful"};
  }
  r.custom_field_labels = !r.selectable_fields.empty();
  return r;
}

storage::AttrsFunc AttrsFor(const KindRules& rules, bool namespaced) {
  std::vector<std::string> fields = rules.selectable_fields;
  return [fields, namespaced](const nlohmann::json& object) {
    storage::Attrs attrs = storage::DefaultAttrs(object);
    if (!namespaced) attrs.fields.erase("metadata.namespace");
    for (const auto& f : fields) {
      if (f == "source") {
        attrs.fields[f] = FieldValue(object, "source.component");
      } else {
        attrs.fields[f] = FieldValue(object, f);
      }
    }
    // spec.host is kube's alias of spec.nodeName for pods.
    if (attrs.fields.count("spec.nodeName")) attrs.fields["spec.host"] = attrs.fields["spec.nodeName"];
    return attrs;
  };
}

Status CheckFieldSelector(const KindRules& rules, bool namespaced, const storage::FieldSelector& selector) {
  std::set<std::string> allowed(rules.selectable_fields.begin(), rules.selectable_fields.end());
  allowed.insert("metadata.name");
  // The default conversion accepts metadata.namespace even for cluster-scoped kinds (it is
  // empty there); kinds with their own conversion accept it only when namespaced.
  if (namespaced || !rules.custom_field_labels) allowed.insert("metadata.namespace");
  if (allowed.count("spec.nodeName")) allowed.insert("spec.host");
  for (const auto& field : selector.FieldNames()) {
    if (allowed.count(field)) continue;
    if (rules.custom_field_labels) return Status::BadRequest("field label not supported: " + field);
    return Status::BadRequest("\"" + field +
                              "\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
  }
  return Status::OK();
}

}  // namespace kube::registry
