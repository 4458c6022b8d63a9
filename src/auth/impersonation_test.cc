// Impersonation headers, each piece authorized with verb impersonate; kube's 403 and 400; the
// --authorization-mode chain.
#include <doctest/doctest.h>

#include "auth/authorization_modes.h"
#include "auth/forbidden.h"
#include "auth/impersonation.h"

namespace kube::auth {

namespace {

// Allows impersonating what is listed as "resource/name" (and records what it was asked).
class ListAuthorizer final : public Authorizer {
 public:
  explicit ListAuthorizer(std::vector<std::string> allowed) : allowed_(std::move(allowed)) {}
  AuthorizationResult Authorize(const Attributes& a) const override {
    asked.push_back(a.verb + " " + a.api_group + "/" + a.resource + (a.subresource.empty() ? "" : "/" + a.subresource) +
                    " " + a.namespace_ + "/" + a.name);
    const std::string key = a.resource + "/" + a.name;
    for (const auto& x : allowed_) {
      if (x == key) return {Decision::kAllow, ""};
    }
    return {Decision::kNoOpinion, ""};
  }
  mutable std::vector<std::string> asked;

 private:
  std::vector<std::string> allowed_;
};

UserInfo Alice() { return UserInfo{"alice", "", {"dev", "system:authenticated"}, {}}; }

}  // namespace

TEST_CASE("impersonation: user, groups, uid and extras, each authorized") {
  ListAuthorizer authz({"users/bob", "groups/qa", "uids/u-1", "userextras/x"});
  auto bob = Impersonate(Alice(), {{"Impersonate-User", "bob"}, {"impersonate-group", "qa"}, {"Impersonate-Uid", "u-1"},
                                  {"Impersonate-Extra-Scopes%2Fone", "x"}},
                         authz);
  REQUIRE(bob.ok());
  CHECK(bob->name == "bob");
  CHECK(bob->uid == "u-1");
  CHECK(bob->groups == std::vector<std::string>{"qa", "system:authenticated"});
  CHECK(bob->extra.at("scopes/one") == std::vector<std::string>{"x"});
  CHECK(authz.asked == std::vector<std::string>{"impersonate /users /bob", "impersonate /groups /qa",
                                                "impersonate authentication.k8s.io/userextras/scopes/one /x",
                                                "impersonate authentication.k8s.io/uids /u-1"});
}

TEST_CASE("impersonation: a user alone has no groups but system:authenticated; service accounts get theirs") {
  ListAuthorizer authz({"users/bob", "serviceaccounts/builder", "users/system:anonymous"});
  auto bob = Impersonate(Alice(), {{"Impersonate-User", "bob"}}, authz);
  CHECK(bob->groups == std::vector<std::string>{"system:authenticated"});
  auto sa = Impersonate(Alice(), {{"Impersonate-User", "system:serviceaccount:ci:builder"}}, authz);
  REQUIRE(sa.ok());
  CHECK(sa->groups ==
        std::vector<std::string>{"system:serviceaccounts", "system:serviceaccounts:ci", "system:authenticated"});
  CHECK(authz.asked.back() == "impersonate /serviceaccounts ci/builder");
  auto anon = Impersonate(Alice(), {{"Impersonate-User", "system:anonymous"}}, authz);
  CHECK(anon->groups == std::vector<std::string>{"system:unauthenticated"});
}

TEST_CASE("impersonation: 403 with kube's message, 400 for groups without a user") {
  ListAuthorizer authz({});
  auto denied = Impersonate(Alice(), {{"Impersonate-User", "admin"}}, authz);
  CHECK(denied.status().code() == StatusCode::kForbidden);
  CHECK(denied.status().message() ==
        "users \"admin\" is forbidden: User \"alice\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope");
  CHECK(denied.status().details().kind == "users");
  CHECK(denied.status().details().name == "admin");
  auto no_user = Impersonate(Alice(), {{"Impersonate-Group", "dev"}}, authz);
  CHECK(no_user.status().code() == StatusCode::kBadRequest);
  CHECK(no_user.status().message() == "requested [{Group  dev    }] without impersonating a user");
  CHECK(HasImpersonationHeaders({{"impersonate-extra-a", "b"}}));
  CHECK_FALSE(HasImpersonationHeaders({{"Authorization", "Bearer x"}}));
}

TEST_CASE("forbidden messages: resources, subresources, cluster scope, paths, reasons") {
  Attributes a;
  a.user.name = "alice";
  a.verb = "list";
  a.resource_request = true;
  a.namespace_ = "default";
  a.resource = "pods";
  CHECK(ForbiddenStatus(a, "").message() ==
        "pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"");
  a.api_group = "example.com";
  a.resource = "widgets";
  a.verb = "get";
  a.name = "w1";
  a.subresource = "status";
  CHECK(ForbiddenStatus(a, "no RBAC policy matched").message() ==
        "widgets.example.com \"w1\" is forbidden: User \"alice\" cannot get resource \"widgets/status\" in API group "
        "\"example.com\" in the namespace \"default\": no RBAC policy matched");
  Attributes p;
  p.user.name = "system:anonymous";
  p.verb = "get";
  p.path = "/api";
  const Status s = ForbiddenStatus(p, "");
  CHECK(s.message() == "forbidden: User \"system:anonymous\" cannot get path \"/api\"");
  CHECK(s.HttpCode() == 403);
  CHECK(s.Reason() == "Forbidden");
}

TEST_CASE("authorization modes: parsing, system:masters first, RBAC through its factory") {
  CHECK(*ParseAuthorizationModes("Node,RBAC") == std::vector<std::string>{"Node", "RBAC"});
  CHECK(ParseAuthorizationModes("Bogus").status().message() ==
        "authorization-mode \"Bogus\" is not a valid mode (AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node)");
  CHECK_FALSE(ParseAuthorizationModes("RBAC,RBAC").ok());
  CHECK_FALSE(ParseAuthorizationModes("").ok());

  Attributes admin;
  admin.user = UserInfo{"admin", "", {"system:masters"}, {}};
  admin.verb = "delete";
  Attributes bob = admin;
  bob.user = UserInfo{"bob", "", {}, {}};

  auto deny = BuildAuthorizer({"AlwaysDeny"}, {});
  REQUIRE(deny.ok());
  CHECK((*deny)->Authorize(admin).decision == Decision::kAllow);
  CHECK((*deny)->Authorize(bob).decision == Decision::kNoOpinion);
  CHECK((*BuildAuthorizer({"AlwaysAllow"}, {}))->Authorize(bob).decision == Decision::kAllow);

  CHECK(BuildAuthorizer({"RBAC"}, {}).status().message() ==
        "authorization mode RBAC is not available in this build of kube-apiserver-lite");
  AuthorizerFactories factories;
  factories.rbac = []() -> Result<std::unique_ptr<Authorizer>> { return std::unique_ptr<Authorizer>(new AlwaysDenyAuthorizer()); };
  auto rbac = BuildAuthorizer({"RBAC", "AlwaysAllow"}, factories);
  REQUIRE(rbac.ok());
  CHECK((*rbac)->Authorize(bob).decision == Decision::kAllow);  // RBAC no opinion, then AlwaysAllow
  CHECK_FALSE(BuildAuthorizer({"Webhook"}, factories).ok());
}

}  // namespace kube::auth
