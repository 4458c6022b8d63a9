// registry::Store through ApiRegistry (in memory): the metadata semantics of rest.md §4 for create,
// update and delete (finalizers, graceful deletion, preconditions), with the Status messages of
// rest.md §2.1. Namespaces, list and watch: registry_namespace_test.cc.
#include "registry/api_registry.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>

#include "registry/registry_test_util.h"
#include "storage/object_codec.h"

namespace kube::registry {
namespace {

using namespace testing;

constexpr std::string_view kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr std::string_view kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
    "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const std::regex kRfc3339(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)");

// A Deployment kube accepts: a selector its template's labels match, one container.
Object Deploy(std::string_view name) {
  return Named(name, {{"spec",
                       {{"replicas", 1},
                        {"selector", {{"matchLabels", {{"app", "d"}}}}},
                        {"template",
                         {{"metadata", {{"labels", {{"app", "d"}}}}},
                          {"spec", {{"containers", {{{"name", "c"}, {"image", "nginx"}}}}}}}}}}});
}
Object WithFinalizers(Object o, std::vector<std::string> f) {
  o["metadata"]["finalizers"] = f;
  return o;
}

// A PUT of `body`, and a PATCH-like edit of the current object.
Store::Transform Put(Object body) {
  return [body](const Object&) -> Result<Object> { return body; };
}
Store::Transform Edit(std::function<void(Object&)> fn) {
  return [fn](const Object& cur) -> Result<Object> {
    Object next = cur;
    fn(next);
    return next;
  };
}
Result<ObjectPtr> Update(Store* s, std::string_view ns, std::string_view name, const Store::Transform& t,
                         std::string_view sub = "", bool dry_run = false) {
  return s->Update(ns, name, sub, t, WriteOptions{.dry_run = dry_run});
}
ObjectPtr MustUpdate(Store* s, std::string_view ns, std::string_view name, const Store::Transform& t,
                     std::string_view sub = "") {
  auto r = Update(s, ns, name, t, sub);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}
Result<Store::DeleteResult> Delete(Store* s, std::string_view ns, std::string_view name, DeleteOptions o = {}) {
  return s->Delete(ns, name, o);
}

template <class R>
void ExpectError(const R& r, StatusCode code, std::string_view message) {
  REQUIRE_FALSE(r.ok());
  CHECK_MESSAGE(r.status().code() == code, r.status().ToString());
  CHECK(r.status().message() == message);
}

storage::ListOptions Selecting(std::string_view labels, std::string_view fields = "") {
  storage::ListOptions o;
  auto l = storage::LabelSelector::Parse(labels);
  auto f = storage::FieldSelector::Parse(fields);
  REQUIRE((l.ok() && f.ok()));
  o.predicate.label = *l;
  o.predicate.field = *f;
  return o;
}

// ---------------------------------------------------------------------------------------------
// Create

TEST_CASE("create sets uid, creationTimestamp and resourceVersion; generation only where tracked") {
  Reg reg;
  auto cm = MustCreate(reg.cm, "default", Cm("c1"));
  CHECK(std::regex_match(At(cm, "/metadata/uid").get<std::string>(),
                         std::regex("[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")));
  CHECK(std::regex_match(At(cm, "/metadata/creationTimestamp").get<std::string>(), kRfc3339));
  CHECK_FALSE(Rv(cm).empty());
  CHECK(At(cm, "/metadata/generation").is_null());
  CHECK(At(cm, "/metadata/namespace") == "default");
  CHECK(At(cm, "/apiVersion") == "v1");
  CHECK(At(cm, "/kind") == "ConfigMap");
  CHECK(*MustGet(reg.cm, "default", "c1") == *cm);
  CHECK(At(MustCreate(reg.cm, "default", Cm("c2")), "/metadata/uid") != At(cm, "/metadata/uid"));

  auto d = MustCreate(reg.deploy, "default", Deploy("d1"));
  CHECK(At(d, "/metadata/generation") == 1);
  CHECK(At(d, "/apiVersion") == "apps/v1");
}

TEST_CASE("create replaces the system fields a client sends") {
  Reg reg;
  for (Store* s : {reg.cm, reg.deploy}) {
    Object body = s == reg.cm ? Cm("x") : Deploy("x");
    body["metadata"].update({{"uid", "client-uid"}, {"creationTimestamp", "2000-01-01T00:00:00Z"},
                             {"deletionTimestamp", "2000-01-01T00:00:00Z"}, {"deletionGracePeriodSeconds", 5},
                             {"generation", 7}, {"selfLink", "/api/v1/x"}});
    auto o = MustCreate(s, "default", body);
    CHECK(At(o, "/metadata/uid") != "client-uid");
    CHECK(At(o, "/metadata/creationTimestamp") != "2000-01-01T00:00:00Z");
    CHECK(At(o, "/metadata/deletionTimestamp").is_null());
    CHECK(At(o, "/metadata/deletionGracePeriodSeconds").is_null());
    CHECK(At(o, "/metadata/selfLink").is_null());
    CHECK(At(o, "/metadata/generation") == (s == reg.cm ? Object() : Object(1)));
  }
  // A resourceVersion on create is refused (kube: 500) or ignored, never stored.
  Object body = Cm("rv");
  body["metadata"]["resourceVersion"] = "999999";
  auto r = reg.cm->Create("default", body, WriteOptions{});
  if (r.ok()) CHECK(Rv(MustGet(reg.cm, "default", "rv")) != "999999");
  else CHECK(r.status().HttpCode() >= 400);
}

TEST_CASE("create: namespace from the path, mismatch 400, cluster-scoped cleared, missing 404") {
  Reg reg;
  Object body = Cm("n1");
  body["metadata"]["namespace"] = "default";
  CHECK(At(MustCreate(reg.cm, "default", body), "/metadata/namespace") == "default");
  body = Cm("n2");
  body["metadata"]["namespace"] = "kube-system";
  ExpectError(reg.cm->Create("default", body, WriteOptions{}), StatusCode::kBadRequest,
              "the namespace of the provided object does not match the namespace sent on the request");
  CHECK((Gone(reg.cm, "kube-system", "n2") && Gone(reg.cm, "default", "n2")));

  Object role = Named("reader", {{"rules", Object::array()}});
  role["metadata"]["namespace"] = "default";
  CHECK(At(MustCreate(reg.croles, "", role), "/metadata/namespace").is_null());

  auto missing = reg.cm->Create("nope", Cm("c"), WriteOptions{});
  ExpectError(missing, StatusCode::kNotFound, "namespaces \"nope\" not found");
  CHECK(missing.status().details().name == "nope");
  CHECK(missing.status().details().kind == "namespaces");
  // Admission comes before validation: an invalid name in a missing namespace is still 404.
  CHECK(reg.cm->Create("nope", Cm("Bad_Name"), WriteOptions{}).status().IsNotFound());
}

TEST_CASE("create of an existing name is AlreadyExists with kube's message and details") {
  Reg reg;
  MustCreate(reg.cm, "default", Cm("dup"));
  auto r = reg.cm->Create("default", Cm("dup"), WriteOptions{});
  ExpectError(r, StatusCode::kAlreadyExists, "configmaps \"dup\" already exists");
  CHECK(r.status().details().name == "dup");
  CHECK(r.status().details().group == "");
  CHECK(r.status().details().kind == "configmaps");
  CHECK(r.status().HttpCode() == 409);
  MustCreate(reg.deploy, "default", Deploy("dup"));
  auto d = reg.deploy->Create("default", Deploy("dup"), WriteOptions{});
  ExpectError(d, StatusCode::kAlreadyExists, "deployments.apps \"dup\" already exists");
  CHECK(d.status().details().group == "apps");
  CHECK(d.status().details().kind == "deployments");
  MustCreate(reg.cm, "kube-public", Cm("dup"));  // another namespace is fine
}

TEST_CASE("generateName: the prefix (at most 58 characters) plus 5 characters of kube's alphabet") {
  Reg reg;
  std::set<std::string> names;
  for (int i = 0; i < 20; ++i) {
    auto o = MustCreate(reg.cm, "default", Object{{"metadata", {{"generateName", "web-"}}}});
    const std::string name = At(o, "/metadata/name");
    CHECK(std::regex_match(name, std::regex("web-[bcdfghjklmnpqrstvwxz2456789]{5}")));
    CHECK(At(o, "/metadata/generateName") == "web-");
    names.insert(name);
  }
  CHECK(names.size() == 20);
  const std::string name =
      At(MustCreate(reg.cm, "default", Object{{"metadata", {{"generateName", std::string(70, 'a')}}}}), "/metadata/name");
  CHECK(name.size() == 63);
  CHECK(name.substr(0, 58) == std::string(58, 'a'));
  Object body = Cm("explicit");  // an explicit name wins
  body["metadata"]["generateName"] = "gen-";
  CHECK(At(MustCreate(reg.cm, "default", body), "/metadata/name") == "explicit");
}

TEST_CASE("create without name or generateName is 422") {
  Reg reg;
  auto r = reg.cm->Create("default", Object{{"data", Object::object()}}, WriteOptions{});
  ExpectError(r, StatusCode::kInvalid,
              "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required");
  REQUIRE(r.status().details().causes.size() == 1);
  CHECK(r.status().details().causes[0].type == "FieldValueRequired");
  CHECK(r.status().details().causes[0].field == "metadata.name");
  CHECK(r.status().details().causes[0].message == "Required value: name or generateName is required");
}

TEST_CASE("invalid names per kind give kube's exact 422") {
  Reg reg;
  auto r = reg.cm->Create("default", Cm("Bad_Name"), WriteOptions{});
  ExpectError(r, StatusCode::kInvalid,
              "ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": " + std::string(kSubdomainMsg));
  CHECK(r.status().HttpCode() == 422);
  CHECK(r.status().details().kind == "ConfigMap");
  CHECK(r.status().details().name == "Bad_Name");
  REQUIRE(r.status().details().causes.size() == 1);
  CHECK(r.status().details().causes[0].type == "FieldValueInvalid");
  CHECK(r.status().details().causes[0].field == "metadata.name");

  ExpectError(reg.ns->Create("", Named("Bad_Name"), WriteOptions{}), StatusCode::kInvalid,
              "Namespace \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC "
              "1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
              "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
              "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  // A Service kube would accept but for its name (it needs ports).
  Object bad_service = Named("Bad_Name");
  bad_service["spec"]["ports"] = Object::array({{{"port", 80}}});
  ExpectError(reg.svc->Create("default", bad_service, WriteOptions{}), StatusCode::kInvalid,
              "Service \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a DNS-1035 label "
              "must consist of lower case alphanumeric characters or '-', start with an alphabetic character, "
              "and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
              "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  auto d = reg.deploy->Create("default", Deploy("Bad_Name"), WriteOptions{});
  ExpectError(d, StatusCode::kInvalid,
              "Deployment.apps \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": " +
                  std::string(kSubdomainMsg));
  CHECK(d.status().details().group == "apps");
  ExpectError(reg.croles->Create("", Named("a/b"), WriteOptions{}), StatusCode::kInvalid,
              "ClusterRole.rbac.authorization.k8s.io \"a/b\" is invalid: metadata.name: Invalid value: \"a/b\": "
              "may not contain '/'");

  // What each rule lets through.
  MustCreate(reg.cm, "default", Cm("a.b"));
  MustCreate(reg.cm, "default", Cm("1abc"));
  CHECK(reg.ns->Create("", Named("a.b"), WriteOptions{}).status().code() == StatusCode::kInvalid);
  MustCreate(reg.ns, "", Named("1abc"));
  CHECK(reg.svc->Create("default", Named("1abc"), WriteOptions{}).status().code() == StatusCode::kInvalid);
  MustCreate(reg.svc, "default", Named("abc-1", {{"spec", {{"ports", Object::array({{{"port", 80}}})}}}}));
  MustCreate(reg.croles, "", Named("system:reader"));
  CHECK(reg.cm->Create("default", Cm(std::string(254, 'a')), WriteOptions{}).status().code() == StatusCode::kInvalid);
}

TEST_CASE("names that cannot be a path segment are kube's 400 on reads, updates and deletes") {
  Reg reg;
  MustCreate(reg.cm, "default", Cm("ok"));
  ExpectError(reg.cm->Get("default", "..", storage::GetOptions{}), StatusCode::kBadRequest,
              "Name parameter invalid: \"..\": may not be '..'");
  ExpectError(reg.cm->Get("default", ".", storage::GetOptions{}), StatusCode::kBadRequest,
              "Name parameter invalid: \".\": may not be '.'");
  ExpectError(reg.cm->Get("default", "a%b/c", storage::GetOptions{}), StatusCode::kBadRequest,
              "Name parameter invalid: \"a%b/c\": may not contain '/';may not contain '%'");
  ExpectError(Delete(reg.cm, "default", ".."), StatusCode::kBadRequest,
              "Name parameter invalid: \"..\": may not be '..'");
  ExpectError(Update(reg.cm, "default", "..", Put(Cm(".."))), StatusCode::kBadRequest,
              "Name parameter invalid: \"..\": may not be '..'");
  ExpectError(reg.croles->Get("", "..", storage::GetOptions{}), StatusCode::kBadRequest,
              "Name parameter invalid: \"..\": may not be '..'");
  // A field selector on such a name cannot be read as one key: the list is empty, not an error.
  auto list = reg.cm->List("default", Selecting("", "metadata.name=.."));
  REQUIRE(list.ok());
  CHECK(list->items.empty());
}

TEST_CASE("generateName is validated as a prefix beside the generated name, as kube does") {
  Reg reg;
  auto r = reg.cm->Create("default", Object{{"metadata", {{"generateName", "Bad_"}}}}, WriteOptions{});
  REQUIRE(r.status().code() == StatusCode::kInvalid);
  REQUIRE(r.status().details().causes.size() == 2);
  CHECK(r.status().details().causes[0].field == "metadata.generateName");
  CHECK(r.status().details().causes[0].message == "Invalid value: \"Bad_\": " + std::string(kSubdomainMsg));
  CHECK(r.status().details().causes[1].field == "metadata.name");
  // A trailing dash is fine in a prefix; path-segment rules apply to prefixes of RBAC names.
  MustCreate(reg.cm, "default", Object{{"metadata", {{"generateName", "web-"}}}});
  auto role = reg.croles->Create("", Object{{"metadata", {{"generateName", "a/"}}}}, WriteOptions{});
  REQUIRE(role.status().code() == StatusCode::kInvalid);
  CHECK(role.status().details().causes[0].field == "metadata.generateName");
  CHECK(role.status().details().causes[0].message == "Invalid value: \"a/\": may not contain '/'");
  // The generic path-segment check runs only once the kind's own rule passed (one cause here).
  auto dots = reg.cm->Create("default", Cm(".."), WriteOptions{});
  REQUIRE(dots.status().code() == StatusCode::kInvalid);
  CHECK(dots.status().details().causes.size() == 1);
}

TEST_CASE("a name of a megabyte is a 422, not a stack overflow") {
  Reg reg;
  auto r = reg.cm->Create("default", Cm(std::string(1 << 20, 'a')), WriteOptions{});
  REQUIRE(r.status().code() == StatusCode::kInvalid);
  CHECK(r.status().details().causes[0].message.find("must be no more than 253 characters") != std::string::npos);
  Object labels = Cm("l");
  labels["metadata"]["labels"] = {{std::string(1 << 20, 'k'), std::string(1 << 20, 'v')}};
  CHECK(reg.cm->Create("default", labels, WriteOptions{}).status().code() == StatusCode::kInvalid);
}

TEST_CASE("invalid labels are 422 with kube's messages") {
  Reg reg;
  Object body = Cm("l1");
  body["metadata"]["labels"] = {{"bad key", "v"}};
  ExpectError(reg.cm->Create("default", body, WriteOptions{}), StatusCode::kInvalid,
              "ConfigMap \"l1\" is invalid: metadata.labels: Invalid value: \"bad key\": name part must consist "
              "of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
              "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
              "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  body["metadata"]["labels"] = {{"app", "-bad"}};
  auto r = reg.cm->Create("default", body, WriteOptions{});
  ExpectError(r, StatusCode::kInvalid,
              "ConfigMap \"l1\" is invalid: metadata.labels: Invalid value: \"-bad\": " + std::string(kLabelValueMsg));
  REQUIRE(r.status().details().causes.size() == 1);
  CHECK(r.status().details().causes[0].field == "metadata.labels");
  body["metadata"]["labels"] = {{"app", std::string(64, 'a')}};
  ExpectError(reg.cm->Create("default", body, WriteOptions{}), StatusCode::kInvalid,
              "ConfigMap \"l1\" is invalid: metadata.labels: Invalid value: \"" + std::string(64, 'a') +
                  "\": must be no more than 63 characters");
  body["metadata"]["labels"] = {{"example.com/app", ""}, {"x", "My_Value.1"}};
  MustCreate(reg.cm, "default", body);
}

// BUG (validation.cc ValidateQualifiedName): an empty prefix gives "prefix part <subdomain msg>"
// instead of kube's IsQualifiedName "prefix part must be non-empty".
TEST_CASE("label key with an empty prefix says 'prefix part must be non-empty'") {
  Reg reg;
  Object body = Cm("l2");
  body["metadata"]["labels"] = {{"/app", "v"}};
  ExpectError(reg.cm->Create("default", body, WriteOptions{}), StatusCode::kInvalid,
              "ConfigMap \"l2\" is invalid: metadata.labels: Invalid value: \"/app\": prefix part must be non-empty");
}

// BUG (validation.cc ValidateObjectMeta): a label value both too long and malformed reports only
// the length; kube's IsValidLabelValue reports both errors.
TEST_CASE("label value too long and malformed reports both errors") {
  Reg reg;
  Object body = Cm("l3");
  const std::string v = "-" + std::string(63, 'a');
  body["metadata"]["labels"] = {{"app", v}};
  ExpectError(reg.cm->Create("default", body, WriteOptions{}), StatusCode::kInvalid,
              "ConfigMap \"l3\" is invalid: [metadata.labels: Invalid value: \"" + v +
                  "\": must be no more than 63 characters, metadata.labels: Invalid value: \"" + v + "\": " +
                  std::string(kLabelValueMsg) + "]");
}

TEST_CASE("events.k8s.io Events: validated by their own version's rules, named as core's Event") {
  Reg reg;
  Store* events = reg.Find("events.k8s.io", "v1", "events");
  Store* core_events = reg.Find("", "v1", "events");
  // The strict rules of events.k8s.io: eventTime is required there, not in the core API.
  Object incomplete = Named("incomplete", {{"reason", "Nothing"}, {"type", "Normal"}});
  ExpectError(events->Create("default", incomplete, WriteOptions{}), StatusCode::kInvalid,
              "Event \"incomplete\" is invalid: eventTime: Required value");
  CHECK(core_events->Create("default", incomplete, WriteOptions{}).ok());
  Object full = Named("full", {{"eventTime", "2026-12-04T20:00:00.000000Z"},
                               {"reportingController", "example.com/c"},
                               {"reportingInstance", "i"},
                               {"action", "Do"},
                               {"reason", "R"},
                               {"type", "Normal"},
                               {"regarding", {{"kind", "Pod"}, {"name", "p"}, {"namespace", "default"}}}});
  auto created = events->Create("default", full, WriteOptions{});
  REQUIRE_MESSAGE(created.ok(), created.status().ToString());
  CHECK(At(*created, "/regarding/name") == "p");
}

TEST_CASE("create: apiVersion or kind of another type is 400; dry run stores nothing") {
  Reg reg;
  Object body = Cm("t1");
  body["apiVersion"] = "apps/v1";
  ExpectError(reg.cm->Create("default", body, WriteOptions{}), StatusCode::kBadRequest,
              "the API version in the data (apps/v1) does not match the expected API version (v1)");
  body["apiVersion"] = "v1";
  body["kind"] = "Secret";
  // kube decodes the kind the body names and cannot convert it, or does not know it at all.
  ExpectError(reg.cm->Create("default", body, WriteOptions{}), StatusCode::kBadRequest,
              "Secret in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Secret) to "
              "(core.ConfigMap): unknown conversion");
  body["kind"] = "Gizmo";
  ExpectError(reg.cm->Create("default", body, WriteOptions{}), StatusCode::kBadRequest,
              "Gizmo in version \"v1\" cannot be handled as a ConfigMap: no kind \"Gizmo\" is registered for "
              "version \"v1\" in scheme \"pkg/runtime/scheme.go:111\"");
  CHECK(Gone(reg.cm, "default", "t1"));

  auto dry = reg.cm->Create("default", Cm("dry"), WriteOptions{.dry_run = true});
  REQUIRE(dry.ok());
  CHECK(At(*dry, "/metadata/uid").is_string());
  CHECK(At(*dry, "/metadata/creationTimestamp").is_string());
  CHECK(Rv(*dry).empty());
  CHECK(Gone(reg.cm, "default", "dry"));
  MustCreate(reg.cm, "default", Cm("dry"));
  CHECK(reg.cm->Create("default", Cm("dry"), WriteOptions{.dry_run = true}).status().IsAlreadyExists());
}

// ---------------------------------------------------------------------------------------------
// Update

TEST_CASE("update: stale resourceVersion is 409, empty applies, name mismatch 400, missing 404") {
  Reg reg;
  auto v1 = MustCreate(reg.cm, "default", Cm("u"));
  Object body = *v1;
  body["data"]["a"] = "2";
  auto v2 = MustUpdate(reg.cm, "default", "u", Put(body));
  CHECK(Rv(v2) != Rv(v1));
  CHECK(At(v2, "/data/a") == "2");

  body["data"]["a"] = "3";  // still carries v1's resourceVersion
  auto stale = Update(reg.cm, "default", "u", Put(body));
  ExpectError(stale, StatusCode::kConflict,
              "Operation cannot be fulfilled on configmaps \"u\": the object has been modified; please apply your "
              "changes to the latest version and try again");
  CHECK(stale.status().details().kind == "configmaps");
  CHECK(stale.status().details().name == "u");
  CHECK(At(MustGet(reg.cm, "default", "u"), "/data/a") == "2");

  body["metadata"].erase("resourceVersion");
  CHECK(At(MustUpdate(reg.cm, "default", "u", Put(body)), "/data/a") == "3");

  body["metadata"]["name"] = "other";
  ExpectError(Update(reg.cm, "default", "u", Put(body)), StatusCode::kBadRequest,
              "the name of the object (other) does not match the name on the URL (u)");
  body["metadata"]["name"] = "u";
  body["metadata"]["namespace"] = "kube-system";
  ExpectError(Update(reg.cm, "default", "u", Put(body)), StatusCode::kBadRequest,
              "the namespace of the provided object does not match the namespace sent on the request");
  ExpectError(Update(reg.cm, "default", "absent", Put(Cm("absent"))), StatusCode::kNotFound,
              "configmaps \"absent\" not found");
  CHECK(Update(reg.cm, "default", "u", Put(Cm("u")), "scale").status().code() == StatusCode::kMethodNotAllowed);
}

TEST_CASE("update: generation follows spec changes (and annotations for deployments)") {
  Reg reg;
  MustCreate(reg.deploy, "default", Deploy("g"));
  auto gen = [&](Store* s, const char* name, std::function<void(Object&)> fn) {
    return At(MustUpdate(s, "default", name, Edit(fn)), "/metadata/generation");
  };
  CHECK(gen(reg.deploy, "g", [](Object& o) { o["metadata"]["labels"]["a"] = "b"; }) == 1);
  CHECK(gen(reg.deploy, "g", [](Object& o) { o["spec"]["replicas"] = 3; }) == 2);
  CHECK(gen(reg.deploy, "g", [](Object& o) { o["metadata"]["annotations"]["x"] = "1"; }) == 3);
  CHECK(gen(reg.deploy, "g", [](Object& o) { o["metadata"]["generation"] = 1; }) == 3);  // not the client's
  // Other kinds that track it: annotations do not count.
  MustCreate(reg.pods, "default", Pod("p"));
  CHECK(gen(reg.pods, "p", [](Object& o) { o["metadata"]["annotations"]["x"] = "1"; }) == 1);
  // ConfigMaps never get one.
  MustCreate(reg.cm, "default", Cm("c"));
  CHECK(gen(reg.cm, "c", [](Object& o) { o["data"]["a"] = "9"; }).is_null());
}

TEST_CASE("status subresource writes only .status; the main resource keeps the current status") {
  Reg reg;
  REQUIRE(reg.deploy->HasSubresource("status"));
  Object body = Deploy("s");
  body["status"] = {{"replicas", 42}};
  auto created = MustCreate(reg.deploy, "default", body);
  CHECK(At(created, "/status").is_null());  // a create starts without the client's status

  auto st = MustUpdate(reg.deploy, "default", "s", Edit([](Object& o) {
                         o["status"] = {{"replicas", 1}, {"observedGeneration", 1}};
                         o["spec"]["replicas"] = 5;
                         o["metadata"]["labels"]["x"] = "y";
                       }),
                       "status");
  CHECK(At(st, "/status/replicas") == 1);
  CHECK(At(st, "/spec/replicas") == 1);
  CHECK(At(st, "/metadata/labels").is_null());
  CHECK(At(st, "/metadata/generation") == 1);

  auto main = MustUpdate(reg.deploy, "default", "s", Edit([](Object& o) {
                           o["status"] = {{"replicas", 99}};
                           o["spec"]["replicas"] = 2;
                         }));
  CHECK(At(main, "/status/replicas") == 1);
  CHECK(At(main, "/spec/replicas") == 2);
  CHECK(At(main, "/metadata/generation") == 2);
  Object no_status = *main;
  no_status.erase("status");
  CHECK(At(MustUpdate(reg.deploy, "default", "s", Put(no_status)), "/status/replicas") == 1);

  Object stale = *created;
  stale["status"] = {{"replicas", 7}};
  CHECK(Update(reg.deploy, "default", "s", Put(stale), "status").status().IsConflict());
}

TEST_CASE("update copies uid and creationTimestamp; a no-op update keeps the resourceVersion") {
  Reg reg;
  auto v1 = MustCreate(reg.cm, "default", Cm("m"));
  Object body = Cm("m");
  body["metadata"]["creationTimestamp"] = "2000-01-01T00:00:00Z";
  body["data"]["a"] = "2";
  auto v2 = MustUpdate(reg.cm, "default", "m", Put(body));
  CHECK(At(v2, "/metadata/uid") == At(v1, "/metadata/uid"));
  CHECK(At(v2, "/metadata/creationTimestamp") == At(v1, "/metadata/creationTimestamp"));

  CHECK(Rv(MustUpdate(reg.cm, "default", "m", Edit([](Object&) {}))) == Rv(v2));
  CHECK(Rv(MustUpdate(reg.cm, "default", "m", Put(body))) == Rv(v2));
  CHECK(Rv(MustGet(reg.cm, "default", "m")) == Rv(v2));
}

// BUG (store_update.cc PrepareForUpdate): a PUT whose metadata.uid differs from the stored one is
// silently given the stored uid. kube turns a non-empty body uid into a UID precondition
// (rest.defaultUpdatedObjectInfo.Preconditions), so the write fails with 409 Conflict.
TEST_CASE("update with another object's uid is 409") {
  Reg reg;
  MustCreate(reg.cm, "default", Cm("uid"));
  Object body = Cm("uid");
  body["metadata"]["uid"] = "6a1f7d2e-0000-4000-8000-000000000000";
  body["data"]["a"] = "2";
  CHECK(Update(reg.cm, "default", "uid", Put(body)).status().IsConflict());
  CHECK(At(MustGet(reg.cm, "default", "uid"), "/data/a") == "1");
}

TEST_CASE("dry-run update answers with the new object and the old resourceVersion, storing nothing") {
  Reg reg;
  auto v1 = MustCreate(reg.deploy, "default", Deploy("dd"));
  auto r = Update(reg.deploy, "default", "dd", Edit([](Object& o) { o["spec"]["replicas"] = 4; }), "", true);
  REQUIRE(r.ok());
  CHECK(At(*r, "/spec/replicas") == 4);
  CHECK(At(*r, "/metadata/generation") == 2);
  CHECK(Rv(*r) == Rv(v1));
  CHECK(*MustGet(reg.deploy, "default", "dd") == *v1);
  CHECK(Update(reg.deploy, "default", "nope", Edit([](Object&) {}), "", true).status().IsNotFound());
}

// ---------------------------------------------------------------------------------------------
// Delete

TEST_CASE("delete without finalizers removes the object at once and returns it") {
  Reg reg;
  auto c = MustCreate(reg.cm, "default", Cm("d"));
  auto r = Delete(reg.cm, "default", "d");
  REQUIRE(r.ok());
  CHECK(r->deleted);
  CHECK(At(r->object, "/metadata/uid") == At(c, "/metadata/uid"));
  CHECK(Gone(reg.cm, "default", "d"));
  ExpectError(Delete(reg.cm, "default", "d"), StatusCode::kNotFound, "configmaps \"d\" not found");

  MustCreate(reg.cm, "default", Cm("dry"));
  REQUIRE(Delete(reg.cm, "default", "dry", DeleteOptions{.dry_run = true}).ok());
  CHECK_FALSE(Gone(reg.cm, "default", "dry"));
}

TEST_CASE("delete with finalizers marks the object; removing the last finalizer deletes it") {
  Reg reg;
  MustCreate(reg.deploy, "default", WithFinalizers(Deploy("f"), {"example.com/a", "example.com/b"}));
  auto r = Delete(reg.deploy, "default", "f");
  REQUIRE(r.ok());
  CHECK_FALSE(r->deleted);
  const Object ts = At(r->object, "/metadata/deletionTimestamp");
  CHECK(std::regex_match(ts.get<std::string>(), kRfc3339));
  CHECK(At(r->object, "/metadata/deletionGracePeriodSeconds") == 0);
  CHECK(At(r->object, "/metadata/generation") == 2);
  auto kept = MustGet(reg.deploy, "default", "f");
  CHECK(At(kept, "/metadata/deletionTimestamp") == ts);

  auto again = Delete(reg.deploy, "default", "f");  // returns the object unchanged
  REQUIRE(again.ok());
  CHECK_FALSE(again->deleted);
  CHECK(Rv(again->object) == Rv(kept));

  auto add = Update(reg.deploy, "default", "f",
                    Edit([](Object& o) { o["metadata"]["finalizers"].push_back("example.com/c"); }));
  REQUIRE_FALSE(add.ok());
  CHECK(add.status().code() == StatusCode::kInvalid);
  CHECK(add.status().message().starts_with("Deployment.apps \"f\" is invalid: metadata.finalizers: Forbidden: no "
                                           "new finalizers can be added if the object is being deleted"));
  REQUIRE(add.status().details().causes.size() == 1);
  CHECK(add.status().details().causes[0].type == "FieldValueForbidden");
  CHECK(add.status().details().causes[0].field == "metadata.finalizers");

  auto one = MustUpdate(reg.deploy, "default", "f", Edit([](Object& o) {
                          o["metadata"]["finalizers"] = {"example.com/b"};
                          o["metadata"].erase("deletionTimestamp");  // cannot be removed
                        }));
  CHECK(At(one, "/metadata/deletionTimestamp") == ts);
  CHECK_FALSE(Gone(reg.deploy, "default", "f"));
  auto last = MustUpdate(reg.deploy, "default", "f", Edit([](Object& o) { o["metadata"].erase("finalizers"); }));
  CHECK(At(last, "/metadata/name") == "f");
  CHECK(Gone(reg.deploy, "default", "f"));
}

// BUG (store_update.cc PrepareForUpdate): kube's ValidateNoNewFinalizers appends the new
// finalizers: "..., found new finalizers []string{\"example.com/c\"}".
TEST_CASE("adding a finalizer while deleting names the new finalizers") {
  Reg reg;
  MustCreate(reg.cm, "default", WithFinalizers(Cm("f"), {"example.com/a"}));
  REQUIRE(Delete(reg.cm, "default", "f").ok());
  ExpectError(Update(reg.cm, "default", "f",
                     Edit([](Object& o) { o["metadata"]["finalizers"].push_back("example.com/c"); })),
              StatusCode::kInvalid,
              "ConfigMap \"f\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the "
              "object is being deleted, found new finalizers []string{\"example.com/c\"}");
}

TEST_CASE("delete preconditions on uid and resourceVersion") {
  Reg reg;
  auto c = MustCreate(reg.cm, "default", Cm("pre"));
  DeleteOptions bad_uid, bad_rv, good;
  bad_uid.preconditions.uid = "not-the-uid";
  bad_rv.preconditions.resource_version = "1";
  CHECK(Delete(reg.cm, "default", "pre", bad_uid).status().IsConflict());
  CHECK(Delete(reg.cm, "default", "pre", bad_rv).status().IsConflict());
  CHECK_FALSE(Gone(reg.cm, "default", "pre"));
  good.preconditions.uid = At(c, "/metadata/uid").get<std::string>();
  good.preconditions.resource_version = Rv(c);
  CHECK(Delete(reg.cm, "default", "pre", good).ok());
  CHECK(Gone(reg.cm, "default", "pre"));
}

// BUG (store_delete.cc Store::Delete): precondition failures carry the storage layer's text
// ("Precondition failed: UID in precondition: ...") instead of rest.BeforeDelete's, which names
// the Kind (GroupResource{Group, Resource: Kind}) — rest.md §2.1.
TEST_CASE("delete precondition conflicts use kube's BeforeDelete messages") {
  Reg reg;
  auto c = MustCreate(reg.cm, "default", Cm("pre"));
  const std::string uid = At(c, "/metadata/uid");
  DeleteOptions bad_uid, bad_rv;
  bad_uid.preconditions.uid = "x";
  bad_rv.preconditions.resource_version = "1";
  auto r = Delete(reg.cm, "default", "pre", bad_uid);
  ExpectError(r, StatusCode::kConflict,
              "Operation cannot be fulfilled on ConfigMap \"pre\": the UID in the precondition (x) does not match "
              "the UID in record (" + uid + "). The object might have been deleted and then recreated");
  CHECK(r.status().details().kind == "ConfigMap");
  ExpectError(Delete(reg.cm, "default", "pre", bad_rv), StatusCode::kConflict,
              "Operation cannot be fulfilled on ConfigMap \"pre\": the ResourceVersion in the precondition (1) "
              "does not match the ResourceVersion in record (" + Rv(c) + "). The object might have been modified");
}

TEST_CASE("pods: bound pods wait for the grace period, unbound pods go at once") {
  Reg reg;
  MustCreate(reg.pods, "default", Pod("unbound"));
  auto r = Delete(reg.pods, "default", "unbound");
  REQUIRE(r.ok());
  CHECK(r->deleted);
  CHECK(Gone(reg.pods, "default", "unbound"));

  MustCreate(reg.pods, "default", Pod("bound", "node-1"));
  r = Delete(reg.pods, "default", "bound");
  REQUIRE(r.ok());
  CHECK_FALSE(r->deleted);
  CHECK(At(r->object, "/metadata/deletionGracePeriodSeconds") == 30);
  CHECK(At(r->object, "/metadata/deletionTimestamp").is_string());
  CHECK_FALSE(Gone(reg.pods, "default", "bound"));
  r = Delete(reg.pods, "default", "bound", DeleteOptions{.grace_period_seconds = 10});  // shortens
  REQUIRE(r.ok());
  CHECK(At(r->object, "/metadata/deletionGracePeriodSeconds") == 10);
  r = Delete(reg.pods, "default", "bound", DeleteOptions{.grace_period_seconds = 0});  // deletes
  REQUIRE(r.ok());
  CHECK(r->deleted);
  CHECK(Gone(reg.pods, "default", "bound"));

  Object pod = Pod("short", "node-1");
  pod["spec"]["terminationGracePeriodSeconds"] = 5;
  MustCreate(reg.pods, "default", pod);
  r = Delete(reg.pods, "default", "short");
  REQUIRE(r.ok());
  CHECK(At(r->object, "/metadata/deletionGracePeriodSeconds") == 5);
}

TEST_CASE("deletecollection deletes what the label selector matches") {
  Reg reg;
  for (const char* n : {"a1", "a2", "b1"}) {
    Object body = Cm(n);
    body["metadata"]["labels"]["app"] = std::string(1, n[0]);
    MustCreate(reg.cm, "default", body);
  }
  auto r = reg.cm->DeleteCollection("default", Selecting("app=a"), DeleteOptions{});
  REQUIRE(r.ok());
  CHECK(r->size() == 2);
  CHECK(Gone(reg.cm, "default", "a1"));
  CHECK(Gone(reg.cm, "default", "a2"));
  CHECK_FALSE(Gone(reg.cm, "default", "b1"));
}

}  // namespace
}  // namespace kube::registry
