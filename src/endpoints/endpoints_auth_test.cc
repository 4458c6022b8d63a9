// The endpoints layer's authorization step over an in-memory registry: requests of a user the
// authorizer denies get kube's 403 (resource, named, subresource, non-resource paths; the
// attributes the authorizer sees), impersonation headers replace the user for the request and
// the reviews, TokenRequest issues tokens that TokenReview then authenticates, --runtime-config
// switches group versions off.
#include <doctest/doctest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "auth/authorization_modes.h"
#include "auth/certificates.h"
#include "auth/jwt.h"
#include "endpoints/api_server.h"
#include "endpoints/authorization.h"
#include "registry/api_registry.h"

namespace kube::endpoints {
namespace {

using nlohmann::json;

// Allows what is listed as "verb resource[/subresource]" or "verb path", records every question.
class ListAuthorizer final : public auth::Authorizer {
 public:
  explicit ListAuthorizer(std::vector<std::string> allowed) : allowed_(std::move(allowed)) {}
  auth::AuthorizationResult Authorize(const auth::Attributes& a) const override {
    const std::string key = a.verb + " " + (a.resource_request ? a.resource + (a.subresource.empty() ? "" : "/" + a.subresource) : a.path);
    asked.push_back(key + " ns=" + a.namespace_ + " name=" + a.name + " group=" + a.api_group + " user=" + a.user.name);
    for (const auto& x : allowed_) {
      if (x == key) return {auth::Decision::kAllow, ""};
    }
    return {auth::Decision::kNoOpinion, ""};
  }
  mutable std::vector<std::string> asked;

 private:
  std::vector<std::string> allowed_;
};

struct Server {
  explicit Server(ApiServerOptions options) {
    auto opened = registry::ApiRegistry::Open({}, catalogue::Catalogue::BuiltIn());
    REQUIRE(opened.ok());
    registry = std::move(*opened);
    api = std::make_unique<ApiServer>(registry.get(), std::move(options));
  }
  HttpResponse Call(const auth::UserInfo& user, std::string method, std::string path, std::string body = "",
                    std::vector<std::pair<std::string, std::string>> headers = {}) {
    HttpRequest r;
    r.method = std::move(method);
    r.path = std::move(path);
    r.user = user;
    if (!body.empty()) r.headers.emplace("Content-Type", "application/json");
    for (auto& [k, v] : headers) r.headers.emplace(k, v);
    r.body = std::move(body);
    return api->Handle(r);
  }
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<ApiServer> api;
};

const auth::UserInfo kAdmin{"admin", "", {"system:masters", "system:authenticated"}, {}};
const auth::UserInfo kAlice{"alice", "", {"dev", "system:authenticated"}, {}};

std::string Message(const HttpResponse& r) { return json::parse(r.body).value("message", ""); }

}  // namespace

TEST_CASE("authorization: kube's 403 for each kind of request, with the attributes kube derives") {
  auto authz = std::make_shared<ListAuthorizer>(std::vector<std::string>{"get /healthz"});
  ApiServerOptions options;
  options.authorizer = authz;
  Server s(options);

  HttpResponse list = s.Call(kAlice, "GET", "/api/v1/namespaces/default/pods");
  CHECK(list.status == 403);
  CHECK(Message(list) == "pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"");
  CHECK(json::parse(list.body)["details"] == json{{"kind", "pods"}});
  CHECK(authz->asked.back() == "list pods ns=default name= group= user=alice");

  HttpResponse status = s.Call(kAlice, "PUT", "/apis/apps/v1/namespaces/ns1/deployments/web/status", "{}");
  CHECK(Message(status) == "deployments.apps \"web\" is forbidden: User \"alice\" cannot update resource "
                           "\"deployments/status\" in API group \"apps\" in the namespace \"ns1\"");
  HttpResponse watch = s.Call(kAlice, "GET", "/api/v1/watch/namespaces/default/configmaps");
  CHECK(authz->asked.back() == "watch configmaps ns=default name= group= user=alice");
  CHECK(watch.status == 403);
  HttpResponse ns = s.Call(kAlice, "DELETE", "/api/v1/namespaces/team");
  CHECK(Message(ns) == "namespaces \"team\" is forbidden: User \"alice\" cannot delete resource \"namespaces\" in API "
                       "group \"\" in the namespace \"team\"");
  HttpResponse path = s.Call(kAlice, "GET", "/apis");
  CHECK(Message(path) == "forbidden: User \"alice\" cannot get path \"/apis\"");
  CHECK(s.Call(kAlice, "GET", "/healthz").status == 200);
  CHECK(s.Call(kAlice, "GET", "/livez").status == 403);
}

TEST_CASE("impersonation: the impersonated user is who the request and its reviews act as") {
  auto chain = auth::BuildAuthorizer({"AlwaysDeny"}, {});
  REQUIRE(chain.ok());
  ApiServerOptions options;
  options.authorizer = *chain;
  Server s(options);
  const std::string ssr = R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})";
  HttpResponse self = s.Call(kAdmin, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", ssr);
  REQUIRE(self.status == 201);
  CHECK(json::parse(self.body)["status"]["userInfo"]["username"] == "admin");
  HttpResponse as_bob = s.Call(kAdmin, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", ssr,
                               {{"Impersonate-User", "bob"}, {"Impersonate-Group", "qa"}, {"Impersonate-Extra-Team", "x"}});
  // AlwaysDeny: bob may not create the review, but the admin may impersonate him.
  CHECK(as_bob.status == 403);
  CHECK(Message(as_bob) == "selfsubjectreviews.authentication.k8s.io is forbidden: User \"bob\" cannot create resource "
                           "\"selfsubjectreviews\" in API group \"authentication.k8s.io\" at the cluster scope: Everything is forbidden.");
  HttpResponse as_master = s.Call(kAdmin, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", ssr,
                                  {{"Impersonate-User", "carol"}, {"Impersonate-Group", "system:masters"}});
  REQUIRE(as_master.status == 201);
  const json info = json::parse(as_master.body)["status"]["userInfo"];
  CHECK(info["username"] == "carol");
  CHECK(info["groups"] == json{"system:masters", "system:authenticated"});
  HttpResponse denied = s.Call(kAlice, "GET", "/api", "", {{"Impersonate-User", "admin"}});
  CHECK(Message(denied) ==
        "users \"admin\" is forbidden: User \"alice\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope: Everything is forbidden.");
  HttpResponse no_user = s.Call(kAdmin, "GET", "/api", "", {{"Impersonate-Group", "qa"}});
  CHECK(no_user.status == 400);
}

TEST_CASE("TokenRequest issues a token that TokenReview authenticates") {
  auto key = auth::MakeCertificate({.common_name = "sa"}, nullptr);
  auto signer = auth::JwtSigner::FromPrivateKeyPem(key->key_pem);
  auto verifier = auth::JwtVerifier::FromPem({key->key_pem});
  REQUIRE(signer.ok());
  const std::string iss = "https://issuer.example";
  auto issuer = std::make_shared<auth::ServiceAccountTokenIssuer>(*signer, iss);
  ApiServerOptions options;
  options.token_issuer = issuer;
  options.api_audiences = {iss};
  registry::ApiRegistry* registry_ptr = nullptr;
  auth::ObjectLookup lookup = [&registry_ptr](const std::string& r, const std::string& ns,
                                              const std::string& n) -> std::optional<std::string> {
    auto obj = registry_ptr->Find("", "v1", r)->Get(ns, n, {});
    if (!obj.ok()) return std::nullopt;
    return (**obj)["metadata"].value("uid", "");
  };
  auth::RequestAuthenticatorOptions authn;
  authn.api_audiences = {iss};
  authn.tokens.push_back(std::make_shared<auth::ServiceAccountTokenAuthenticator>(*verifier, std::vector<std::string>{iss}, lookup));
  options.authenticator = std::make_shared<auth::RequestAuthenticator>(authn);
  Server s(options);
  registry_ptr = s.registry.get();

  const std::string path = "/api/v1/namespaces/default/serviceaccounts/builder/token";
  const std::string request = R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}})";
  CHECK(s.Call(kAdmin, "POST", path, request).status == 404);  // no such service account yet
  REQUIRE(s.Call(kAdmin, "POST", "/api/v1/namespaces/default/serviceaccounts",
                 R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"builder"}})").status == 201);
  HttpResponse created = s.Call(kAdmin, "POST", path, request);
  REQUIRE_MESSAGE(created.status == 201, created.body);
  const json tr = json::parse(created.body);
  CHECK(tr["kind"] == "TokenRequest");
  CHECK(tr["metadata"]["name"] == "builder");
  CHECK(tr["spec"]["expirationSeconds"] == 3600);
  CHECK(tr["spec"]["audiences"] == json{iss});
  CHECK(tr["status"]["expirationTimestamp"].is_string());
  const std::string token = tr["status"]["token"];

  HttpResponse review = s.Call(kAdmin, "POST", "/apis/authentication.k8s.io/v1/tokenreviews",
                               json{{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenReview"},
                                    {"spec", {{"token", token}}}}.dump());
  REQUIRE(review.status == 201);
  const json status = json::parse(review.body)["status"];
  CHECK(status["authenticated"] == true);
  CHECK(status["user"]["username"] == "system:serviceaccount:default:builder");
  CHECK(status["audiences"] == json{iss});

  HttpResponse wrong_audience = s.Call(kAdmin, "POST", "/apis/authentication.k8s.io/v1/tokenreviews",
                                       json{{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenReview"},
                                            {"spec", {{"token", token}, {"audiences", {"other"}}}}}.dump());
  CHECK(json::parse(wrong_audience.body)["status"].value("authenticated", false) == false);
  CHECK(s.Call(kAdmin, "POST", "/apis/authentication.k8s.io/v1/tokenreviews",
               R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{}})").status == 400);

  HttpResponse too_short = s.Call(kAdmin, "POST", path, R"({"spec":{"expirationSeconds":60}})");
  CHECK(too_short.status == 422);
  CHECK(Message(too_short) == "TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: "
                              "Invalid value: 60: may not specify a duration less than 10 minutes");
  HttpResponse bound = s.Call(kAdmin, "POST", path,
                              R"({"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"missing"}}})");
  CHECK(bound.status == 404);
  CHECK(s.Call(kAdmin, "GET", path).status == 405);
}

TEST_CASE("runtime-config: a group version switched off is not served, nor listed") {
  auto config = RuntimeConfig::Parse({{"batch/v1", "false"}, {"apps/v1/deployments", "false"}},
                                     catalogue::Catalogue::BuiltIn());
  REQUIRE(config.ok());
  ApiServerOptions options;
  options.runtime_config = *config;
  Server s(options);
  const auth::UserInfo nobody;
  CHECK(s.Call(nobody, "GET", "/apis/batch/v1/namespaces/default/jobs").status == 404);
  CHECK(s.Call(nobody, "GET", "/apis/batch/v1").status == 404);
  CHECK(s.Call(nobody, "GET", "/apis/apps/v1/namespaces/default/deployments").status == 404);
  CHECK(s.Call(nobody, "GET", "/apis/apps/v1/namespaces/default/statefulsets").status == 200);
  CHECK(s.Call(nobody, "GET", "/api/v1/namespaces/default/configmaps").status == 200);

  auto all_off = RuntimeConfig::Parse({{"api/all", "false"}, {"v1", "true"}}, catalogue::Catalogue::BuiltIn());
  REQUIRE(all_off.ok());
  const auto* cm = catalogue::Catalogue::BuiltIn().Find("", "v1", "configmaps");
  const auto* jobs = catalogue::Catalogue::BuiltIn().Find("batch", "v1", "jobs");
  CHECK(all_off->Enabled(*cm));
  CHECK_FALSE(all_off->Enabled(*jobs));
  CHECK(RuntimeConfig::Parse({{"nope.example.com/v1", "true"}}, catalogue::Catalogue::BuiltIn()).status().message() ==
        "runtime-config invalid key nope.example.com/v1");
}

TEST_CASE("runtime-config: by default exactly kube 1.36's default group versions are served") {
  // kube-apiserver 1.36's DefaultAPIResourceConfigSource (pkg/controlplane/instance.go): the GA
  // versions on, every beta and alpha one off, no per-resource beta exception.
  const std::set<std::string> kube_default = {
      "admissionregistration.k8s.io/v1", "apiextensions.k8s.io/v1", "apiregistration.k8s.io/v1", "apps/v1",
      "authentication.k8s.io/v1", "authorization.k8s.io/v1", "autoscaling/v1", "autoscaling/v2", "batch/v1",
      "certificates.k8s.io/v1", "coordination.k8s.io/v1", "discovery.k8s.io/v1", "events.k8s.io/v1",
      "flowcontrol.apiserver.k8s.io/v1", "networking.k8s.io/v1", "node.k8s.io/v1", "policy/v1",
      "rbac.authorization.k8s.io/v1", "resource.k8s.io/v1", "scheduling.k8s.io/v1", "storage.k8s.io/v1", "v1"};
  const RuntimeConfig none;
  std::set<std::string> served;
  for (const auto& r : catalogue::Catalogue::BuiltIn().Resources()) {
    const std::string gv = r.group.empty() ? r.version : r.group + "/" + r.version;
    CAPTURE(gv);
    CAPTURE(r.resource);
    // Whole versions: every resource of a default version is on, none of another.
    CHECK(none.Enabled(r) == kube_default.contains(gv));
    if (none.Enabled(r)) served.insert(gv);
  }
  CHECK(served == kube_default);

  // Served through discovery the same way.
  Server s{ApiServerOptions{}};
  const auth::UserInfo nobody;
  CHECK(s.Call(nobody, "GET", "/apis/coordination.k8s.io/v1beta1").status == 404);
  CHECK(s.Call(nobody, "GET", "/apis/resource.k8s.io/v1beta2/resourceclaims").status == 404);
  CHECK(s.Call(nobody, "GET", "/apis/resource.k8s.io/v1/resourceclaims").status == 200);
  HttpResponse groups = s.Call(nobody, "GET", "/apis");
  CHECK(groups.body.find("coordination.k8s.io/v1beta1") == std::string::npos);
  CHECK(groups.body.find("storagemigration.k8s.io") == std::string::npos);
  CHECK(groups.body.find("\"autoscaling/v1\"") != std::string::npos);
}

TEST_CASE("runtime-config: stability levels, versions and single resources, as kube merges them") {
  const auto& catalogue = catalogue::Catalogue::BuiltIn();
  const auto* lease_candidates = catalogue.Find("coordination.k8s.io", "v1beta1", "leasecandidates");
  const auto* claims_beta = catalogue.Find("resource.k8s.io", "v1beta1", "resourceclaims");
  const auto* slices_beta = catalogue.Find("resource.k8s.io", "v1beta1", "resourceslices");
  const auto* workloads = catalogue.Find("scheduling.k8s.io", "v1alpha2", "workloads");
  const auto* hpa_v1 = catalogue.Find("autoscaling", "v1", "horizontalpodautoscalers");
  REQUIRE((lease_candidates && claims_beta && slices_beta && workloads && hpa_v1));

  auto beta = RuntimeConfig::Parse({{"api/beta", "true"}}, catalogue);
  REQUIRE(beta.ok());
  CHECK(beta->Enabled(*lease_candidates));
  CHECK(beta->Enabled(*slices_beta));
  CHECK_FALSE(beta->Enabled(*workloads));

  auto one = RuntimeConfig::Parse({{"resource.k8s.io/v1beta1/resourceclaims", "true"}}, catalogue);
  REQUIRE(one.ok());
  CHECK(one->Enabled(*claims_beta));
  CHECK_FALSE(one->Enabled(*slices_beta));

  // A resource preference wins over its version's, whatever the order on the command line.
  auto mixed = RuntimeConfig::Parse({{"resource.k8s.io/v1beta1/resourceslices", "false"},
                                     {"resource.k8s.io/v1beta1", "true"},
                                     {"api/alpha", "true"},
                                     {"autoscaling/v1", "false"}},
                                    catalogue);
  REQUIRE(mixed.ok());
  CHECK(mixed->Enabled(*claims_beta));
  CHECK_FALSE(mixed->Enabled(*slices_beta));
  CHECK(mixed->Enabled(*workloads));
  CHECK_FALSE(mixed->Enabled(*hpa_v1));
  CHECK_FALSE(mixed->Enabled(*lease_candidates));
}

TEST_CASE("conversion: an HPA written through autoscaling/v1 is stored and served as v2, and back") {
  Server s{ApiServerOptions{}};
  const auth::UserInfo nobody;
  HttpResponse created = s.Call(nobody, "POST", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers",
                                R"({"metadata":{"name":"h"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},)"
                                R"("maxReplicas":4,"targetCPUUtilizationPercentage":40}})");
  REQUIRE(created.status == 201);
  auto v1 = nlohmann::json::parse(created.body);
  CHECK(v1["apiVersion"] == "autoscaling/v1");
  CHECK(v1["spec"]["targetCPUUtilizationPercentage"] == 40);
  HttpResponse got = s.Call(nobody, "GET", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/h");
  REQUIRE(got.status == 200);
  auto v2 = nlohmann::json::parse(got.body);
  CHECK(v2["apiVersion"] == "autoscaling/v2");
  CHECK(v2["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"] == 40);
  CHECK(!v2["spec"].contains("targetCPUUtilizationPercentage"));
  // An update through v1 is measured against the v1 view and stored as v2.
  v1["spec"]["targetCPUUtilizationPercentage"] = 60;
  HttpResponse put = s.Call(nobody, "PUT", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/h", v1.dump());
  REQUIRE(put.status == 200);
  CHECK(nlohmann::json::parse(put.body)["spec"]["targetCPUUtilizationPercentage"] == 60);
  got = s.Call(nobody, "GET", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/h");
  CHECK(nlohmann::json::parse(got.body)["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"] == 60);
}

}  // namespace kube::endpoints

namespace kube::endpoints {

TEST_CASE("admin paths: superusers only, kube's Status answers") {
  // An authorizer that allows alice everything: the admin paths still want system:masters.
  Server s(ApiServerOptions{.authorizer = std::make_shared<auth::AlwaysAllowAuthorizer>()});
  auto refused = s.Call(kAlice, "POST", "/admin/reset");
  CHECK(refused.status == 403);
  CHECK(Message(refused) == "forbidden: User \"alice\" cannot post path \"/admin/reset\"");
  CHECK(json::parse(refused.body)["reason"] == "Forbidden");
  CHECK(s.Call(kAlice, "GET", "/admin/snapshots").status == 403);

  auto early = s.Call(kAdmin, "POST", "/admin/reset");
  CHECK(early.status == 503);  // nothing marked yet
  REQUIRE(s.registry->MarkInitialState().ok());
  auto reset = s.Call(kAdmin, "POST", "/admin/reset");
  REQUIRE(reset.status == 200);
  const json body = json::parse(reset.body);
  CHECK(body["kind"] == "Status");
  CHECK(body["status"] == "Success");
  CHECK(body["metadata"]["resourceVersion"] == std::to_string(s.registry->kv()->CurrentRevision()));

  CHECK(s.Call(kAdmin, "POST", "/admin/snapshots/one").status == 200);
  auto list = json::parse(s.Call(kAdmin, "GET", "/admin/snapshots").body);
  CHECK(list["kind"] == "SnapshotList");
  REQUIRE(list["items"].size() == 1);
  CHECK(list["items"][0]["name"] == "one");
  CHECK(list["initial"]["name"] == "initial");
  CHECK(s.Call(kAdmin, "POST", "/admin/snapshots/one/restore").status == 200);
  CHECK(s.Call(kAdmin, "POST", "/admin/snapshots/two/restore").status == 404);
  CHECK(s.Call(kAdmin, "POST", "/admin/snapshots/a%2Fb").status == 400);
  CHECK(s.Call(kAdmin, "GET", "/admin/reset").status == 405);
  CHECK(s.Call(kAdmin, "PUT", "/admin/snapshots/one").status == 405);
  CHECK(s.Call(kAdmin, "GET", "/admin").status == 404);
  CHECK(s.Call(kAdmin, "DELETE", "/admin/snapshots/one").status == 200);
  CHECK(s.Call(kAdmin, "DELETE", "/admin/snapshots/one").status == 404);

  // Without an authorizer (an embedding without authorization) anyone may.
  Server open(ApiServerOptions{});
  REQUIRE(open.registry->MarkInitialState().ok());
  CHECK(open.Call(kAlice, "POST", "/admin/reset").status == 200);
}

}  // namespace kube::endpoints
