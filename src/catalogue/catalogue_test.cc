#include "catalogue/catalogue.h"

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

namespace kube::catalogue {
namespace {

using Type = Schema::Type;
using Strings = std::vector<std::string>;

bool Has(const Strings& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

const Catalogue& C() { return Catalogue::BuiltIn(); }

// Walks a dotted path of object fields ("spec.containers").
const Schema* At(const Schema* s, std::string_view path) {
  while (s != nullptr && !path.empty()) {
    auto dot = path.find('.');
    s = s->Field(path.substr(0, dot));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return s;
}

TEST_CASE("core/v1 pods: scope, verbs, names, subresources, storage") {
  const ResourceInfo* pods = C().Find("", "v1", "pods");
  REQUIRE(pods != nullptr);
  CHECK(pods->kind == "Pod");
  CHECK(pods->singular == "pod");
  CHECK(pods->list_kind == "PodList");
  CHECK(pods->namespaced);
  CHECK(pods->verbs == Strings{"create", "delete", "deletecollection", "get", "list", "patch",
                               "update", "watch"});
  CHECK(pods->short_names == Strings{"po"});
  CHECK(pods->categories == Strings{"all"});
  CHECK(pods->storage_prefix == "/pods");

  const auto* status = pods->FindSubresource("status");
  REQUIRE(status != nullptr);
  CHECK(status->kind == "Pod");
  CHECK(status->group == "");
  CHECK(status->version == "v1");
  CHECK(status->verbs == Strings{"get", "patch", "update"});
  const auto* eviction = pods->FindSubresource("eviction");
  REQUIRE(eviction != nullptr);
  CHECK(eviction->group == "policy");
  CHECK(eviction->kind == "Eviction");
  CHECK(eviction->verbs == Strings{"create"});
  // connect subresources list the HTTP methods they accept, as kube discovery does.
  const auto* exec = pods->FindSubresource("exec");
  REQUIRE(exec != nullptr);
  CHECK(exec->verbs == Strings{"create", "get"});
  CHECK(pods->FindSubresource("nope") == nullptr);

  CHECK(C().FindByKind("", "v1", "Pod") == pods);
  CHECK(C().Find("", "v1", "pod") == nullptr);
  CHECK(C().Find("apps", "v1", "pods") == nullptr);
}

TEST_CASE("apps/v1 deployments: scale subresource is autoscaling/v1 Scale") {
  const ResourceInfo* d = C().Find("apps", "v1", "deployments");
  REQUIRE(d != nullptr);
  CHECK(d->kind == "Deployment");
  CHECK(d->namespaced);
  CHECK(d->short_names == Strings{"deploy"});
  CHECK(d->categories == Strings{"all"});
  CHECK(d->storage_prefix == "/deployments");
  const auto* scale = d->FindSubresource("scale");
  REQUIRE(scale != nullptr);
  CHECK(scale->group == "autoscaling");
  CHECK(scale->version == "v1");
  CHECK(scale->kind == "Scale");
  CHECK(scale->verbs == Strings{"get", "patch", "update"});
  REQUIRE(d->FindSubresource("status") != nullptr);
  CHECK(d->FindSubresource("status")->kind == "Deployment");
  CHECK(C().KindSchema("autoscaling", "v1", "Scale") != nullptr);
}

TEST_CASE("storage prefixes follow kube-apiserver's etcd layout") {
  auto prefix = [](std::string_view g, std::string_view v, std::string_view r) {
    const ResourceInfo* info = C().Find(g, v, r);
    REQUIRE(info != nullptr);
    return info->storage_prefix;
  };
  CHECK(prefix("", "v1", "services") == "/services/specs");
  CHECK(prefix("", "v1", "endpoints") == "/services/endpoints");
  CHECK(prefix("", "v1", "replicationcontrollers") == "/controllers");
  CHECK(prefix("", "v1", "nodes") == "/minions");
  CHECK(prefix("", "v1", "configmaps") == "/configmaps");
  CHECK(prefix("networking.k8s.io", "v1", "ingresses") == "/ingress");
  CHECK(prefix("apiextensions.k8s.io", "v1", "customresourcedefinitions") ==
        "/apiextensions.k8s.io/customresourcedefinitions");
  CHECK(prefix("apiregistration.k8s.io", "v1", "apiservices") ==
        "/apiregistration.k8s.io/apiservices");
  CHECK(prefix("events.k8s.io", "v1", "events") == "/events");
  CHECK(prefix("authorization.k8s.io", "v1", "subjectaccessreviews") == "");
}

TEST_CASE("cluster-scoped resources and short names") {
  const ResourceInfo* ns = C().Find("", "v1", "namespaces");
  REQUIRE(ns != nullptr);
  CHECK_FALSE(ns->namespaced);
  CHECK(ns->short_names == Strings{"ns"});
  CHECK_FALSE(Has(ns->verbs, "deletecollection"));  // kube does not serve it for namespaces
  REQUIRE(ns->FindSubresource("finalize") != nullptr);
  CHECK(ns->FindSubresource("finalize")->verbs == Strings{"update"});

  const ResourceInfo* nodes = C().Find("", "v1", "nodes");
  REQUIRE(nodes != nullptr);
  CHECK_FALSE(nodes->namespaced);
  CHECK(nodes->short_names == Strings{"no"});

  CHECK(C().Find("", "v1", "services")->short_names == Strings{"svc"});
  CHECK(C().Find("", "v1", "events")->short_names == Strings{"ev"});
  CHECK(C().Find("events.k8s.io", "v1", "events")->short_names == Strings{"ev"});
  CHECK(C().Find("batch", "v1", "cronjobs")->short_names == Strings{"cj"});
  CHECK(C().Find("batch", "v1", "jobs")->categories == Strings{"all"});
  CHECK(C().Find("", "v1", "podtemplates")->short_names.empty());

  const ResourceInfo* binding = C().Find("", "v1", "bindings");
  REQUIRE(binding != nullptr);
  CHECK(binding->verbs == Strings{"create"});
  CHECK(binding->list_kind == "");
}

TEST_CASE("CRDs: apiextensions.k8s.io/v1 customresourcedefinitions") {
  const ResourceInfo* crd = C().Find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  REQUIRE(crd != nullptr);
  CHECK(crd->kind == "CustomResourceDefinition");
  CHECK(crd->singular == "customresourcedefinition");
  CHECK_FALSE(crd->namespaced);
  CHECK(crd->short_names == Strings{"crd", "crds"});
  CHECK(crd->categories == Strings{"api-extensions"});
  CHECK(crd->FindSubresource("status") != nullptr);
  // The CRD schema type is recursive; the graph must resolve the cycle.
  const Schema* props = At(C().KindSchema("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
                           "spec.versions");
  REQUIRE(props != nullptr);
  const Schema* s = At(props->Items(), "schema.openAPIV3Schema.properties");
  REQUIRE(s != nullptr);
  CHECK(s->type() == Type::kMap);
  CHECK(s->Items()->definition() ==
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps");
  CHECK(s->Items()->Field("properties") == s);
  CHECK(s->Items()->Field("default")->type() == Type::kAny);
}

TEST_CASE("groups and preferred versions") {
  const auto& groups = C().Groups();
  REQUIRE_FALSE(groups.empty());
  CHECK(groups.front().name == "");
  const GroupInfo* autoscaling = C().FindGroup("autoscaling");
  REQUIRE(autoscaling != nullptr);
  CHECK(autoscaling->preferred_version == "v2");
  CHECK(autoscaling->versions == Strings{"v2", "v1"});
  CHECK(C().FindGroup("batch")->preferred_version == "v1");
  CHECK(C().FindGroup("")->preferred_version == "v1");
  const GroupInfo* resource = C().FindGroup("resource.k8s.io");
  REQUIRE(resource != nullptr);
  CHECK(resource->versions.front() == "v1");  // GA first, then newest beta before alpha
  CHECK(resource->versions.back() == "v1alpha3");
  CHECK(C().FindGroup("extensions") == nullptr);
  for (const GroupInfo& g : groups) {
    REQUIRE_FALSE(g.versions.empty());
    CHECK(g.versions.front() == g.preferred_version);
  }
  // Every resource's kind has a schema, and every listed group/version has resources.
  for (const ResourceInfo& r : C().Resources()) {
    CAPTURE(r.resource);
    CHECK(C().KindSchema(r.group, r.version, r.kind) != nullptr);
    CHECK(C().FindGroup(r.group) != nullptr);
  }
}

TEST_CASE("Pod schema graph") {
  const Schema* pod = C().KindSchema("", "v1", "Pod");
  REQUIRE(pod != nullptr);
  CHECK(pod->type() == Type::kObject);
  CHECK(pod->definition() == "io.k8s.api.core.v1.Pod");
  CHECK(pod == C().Definition("io.k8s.api.core.v1.Pod"));
  CHECK(pod->FieldNames() == Strings{"apiVersion", "kind", "metadata", "spec", "status"});
  CHECK(pod->Field("nope") == nullptr);

  const Schema* containers = At(pod, "spec.containers");
  REQUIRE(containers != nullptr);
  CHECK(containers->type() == Type::kArray);
  CHECK(containers->PatchMergeKey() == "name");
  CHECK(containers->PatchStrategy() == "merge");
  CHECK(containers->ListType() == "map");
  CHECK(containers->ListMapKeys() == Strings{"name"});
  const Schema* container = containers->Items();
  REQUIRE(container != nullptr);
  CHECK(container->type() == Type::kObject);
  CHECK(container->definition() == "io.k8s.api.core.v1.Container");
  CHECK(container->Required() == Strings{"name"});
  CHECK(At(container, "image")->type() == Type::kString);
  CHECK(At(container, "ports")->Items()->Field("containerPort")->type() == Type::kInteger);
  CHECK(At(container, "stdin")->type() == Type::kBoolean);

  const Schema* metadata = pod->Field("metadata");
  REQUIRE(metadata != nullptr);
  CHECK(metadata->definition() == "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  const Schema* labels = metadata->Field("labels");
  REQUIRE(labels != nullptr);
  CHECK(labels->type() == Type::kMap);
  CHECK(labels->Items()->type() == Type::kString);
  CHECK(At(metadata, "ownerReferences")->PatchMergeKey() == "uid");
  CHECK(At(metadata, "finalizers")->ListType() == "set");
}

TEST_CASE("field-level patch metadata on a $ref field does not leak into the type") {
  const Schema* strategy = At(C().KindSchema("apps", "v1", "Deployment"), "spec.strategy");
  REQUIRE(strategy != nullptr);
  CHECK(strategy->PatchStrategy() == "retainKeys");
  CHECK(strategy->type() == Type::kObject);
  CHECK(strategy->definition() == "io.k8s.api.apps.v1.DeploymentStrategy");
  CHECK(strategy->Field("rollingUpdate") != nullptr);
  CHECK(C().Definition("io.k8s.api.apps.v1.DeploymentStrategy")->PatchStrategy() == "");
}

TEST_CASE("special types: int-or-string, quantity, time, any") {
  const Schema* port = At(C().KindSchema("", "v1", "Service"), "spec.ports");
  REQUIRE(port != nullptr);
  CHECK(port->ListMapKeys() == Strings{"port", "protocol"});
  CHECK(port->Items()->Field("targetPort")->type() == Type::kIntOrString);

  const Schema* limits = At(C().KindSchema("", "v1", "Pod"), "spec.containers");
  REQUIRE(limits != nullptr);
  limits = At(limits->Items(), "resources.limits");
  REQUIRE(limits != nullptr);
  CHECK(limits->type() == Type::kMap);
  CHECK(limits->Items()->type() == Type::kQuantity);

  const Schema* meta = C().Definition("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  REQUIRE(meta != nullptr);
  CHECK(meta->Field("creationTimestamp")->type() == Type::kTime);
  CHECK(At(meta, "managedFields")->Items()->Field("fieldsV1")->type() == Type::kAny);
  CHECK(At(meta, "managedFields")->Items()->Field("time")->type() == Type::kTime);
  CHECK(At(C().KindSchema("events.k8s.io", "v1", "Event"), "eventTime")->type() == Type::kTime);
  CHECK(At(C().KindSchema("apps", "v1", "ControllerRevision"), "data")->type() == Type::kAny);
  CHECK(At(C().KindSchema("apps", "v1", "Deployment"), "spec.strategy.rollingUpdate.maxSurge")
            ->type() == Type::kIntOrString);
  // Multi-kind definitions are found under each of their kinds.
  CHECK(C().KindSchema("apps", "v1", "DeleteOptions") ==
        C().Definition("io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"));
}

// True when some object in `j` has a "description" whose value is prose (a string). A field
// *named* description (PriorityClass.description) maps to a schema object and is fine.
bool HasProse(const nlohmann::json& j) {
  if (j.is_object()) {
    if (auto it = j.find("description"); it != j.end() && it->is_string()) return true;
    for (const auto& v : j) {
      if (HasProse(v)) return true;
    }
  } else if (j.is_array()) {
    for (const auto& v : j) {
      if (HasProse(v)) return true;
    }
  }
  return false;
}

TEST_CASE("the embedded data carries no description prose") {
  std::string_view text = EmbeddedCatalogueJson();
  REQUIRE(text.size() > 1000);
  CHECK(text.find("\"description\":\"") == std::string_view::npos);
  CHECK_FALSE(HasProse(nlohmann::json::parse(text)));
  CHECK_FALSE(HasProse(C().RawDefinitions()));
  CHECK(C().RawDefinitions().contains("io.k8s.api.core.v1.Pod"));
  // The field named "description" survives as a field.
  CHECK(At(C().KindSchema("scheduling.k8s.io", "v1", "PriorityClass"), "description")->type() ==
        Type::kString);
}

TEST_CASE("BuiltIn is one instance across threads") {
  std::vector<const Catalogue*> seen(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&seen, i] { seen[i] = &Catalogue::BuiltIn(); });
  }
  for (auto& t : threads) t.join();
  for (const Catalogue* c : seen) CHECK(c == &Catalogue::BuiltIn());
}

TEST_CASE("Parse rejects malformed catalogues") {
  CHECK_THROWS(Catalogue::Parse("{"));
  CHECK_THROWS(Catalogue::Parse(R"({"format":2,"groups":[],"resources":[],"definitions":{}})"));
  CHECK_THROWS(Catalogue::Parse(  // dangling $ref
      R"({"format":1,"groups":[],"resources":[],"definitions":)"
      R"({"a":{"type":"object","properties":{"b":{"$ref":"#/definitions/c"}}}}})"));
  auto tiny = Catalogue::Parse(
      R"({"format":1,"groups":[],"resources":[],"definitions":)"
      R"({"a":{"type":"object","properties":{"self":{"$ref":"#/definitions/a"}}}}})");
  REQUIRE(tiny->Definition("a") != nullptr);
  CHECK(tiny->Definition("a")->Field("self") == tiny->Definition("a"));
}

}  // namespace
}  // namespace kube::catalogue
