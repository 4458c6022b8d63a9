#include "server/server_instance.h"

#include <algorithm>
#include <optional>

#include "apiextensions/crd_controller.h"
#include "apiextensions/crd_strategy.h"
#include "auth/authorization_modes.h"
#include "auth/rbac.h"
#include "auth/rbac_modes.h"
#include "endpoints/api_server.h"
#include "registry/api_registry.h"
#include "registry/kind_strategies.h"
#include "server/bootstrap_objects.h"
#include "server/authentication_config.h"
#include "server/http_server.h"
#include "server/kubeconfig.h"
#include "server/secure_serving.h"
#include "server/service_allocation.h"
#include "server/tls_context.h"

namespace kube::server {

namespace {

// The core-group objects service-account tokens name, for --service-account-lookup.
auth::ObjectLookup RegistryLookup(registry::ApiRegistry* registry) {
  return [registry](const std::string& resource, const std::string& ns,
                    const std::string& name) -> std::optional<std::string> {
    registry::StorePtr store = registry->Find("", "v1", resource);
    if (store == nullptr) return std::nullopt;
    auto obj = store->Get(ns, name, {});
    if (!obj.ok() || !(*obj)->contains("metadata")) return std::nullopt;
    const auto& meta = (**obj)["metadata"];
    if (meta.contains("deletionTimestamp") && !meta["deletionTimestamp"].is_null()) return std::nullopt;
    return meta.value("uid", "");
  };
}

std::string HostPort(const std::string& host, int port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace

bool ResetAnonymousAuthForAlwaysAllow(ServerOptions* options) {
  const bool serve_secure = options->secure_port_set || options->port < 0;
  const auto& modes = options->authorization_modes;
  if (serve_secure && options->anonymous_auth && std::find(modes.begin(), modes.end(), "AlwaysAllow") != modes.end()) {
    options->anonymous_auth = false;
    return true;
  }
  return false;
}

// Some steps' errors read best with their reason ("Internal: ..."), as main.cc always printed them.
Status ServerInstance::Fail(const Status& s, bool with_reason) {
  start_error_ = with_reason ? s.ToString() : s.message();
  return s;
}

// Declared in the order they are built; destroyed in reverse (listeners first, registry last).
struct ServerInstance::Parts {
  std::optional<ServingCertificates> serving;
  std::optional<auth::KeyPair> kubeconfig_ca;
  std::shared_ptr<TlsContext> tls;
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<auth::Rbac> rbac;
  std::optional<AuthenticationSetup> authn;
  std::optional<auth::AuthorizationSetup> authorization;
  std::shared_ptr<endpoints::ApiServer> api;
  std::optional<apiextensions::CrdController> crds;
  // The kubernetes Service, its endpoints and the system PriorityClasses (a reconciler thread).
  std::optional<BootstrapObjects> bootstrap;
  std::optional<HttpServer> plain_http, secure_http;
};

ServerInstance::ServerInstance(Config config) : config_(std::move(config)) {}

ServerInstance::~ServerInstance() { Stop(); }

Status ServerInstance::Start() {
  const auto started = std::chrono::steady_clock::now();
  const ServerOptions& options = config_.options;
  const bool serve_plain = options.port >= 0;
  const bool serve_secure = options.secure_port_set || !serve_plain;
  parts_ = std::make_unique<Parts>();
  Parts& p = *parts_;

  // Certificates first: a bad flag fails before any work.
  if (serve_secure) {
    auto certs = LoadOrGenerateServingCertificates(options);
    if (!certs.ok()) return Fail(certs.status());
    p.serving = std::move(*certs);
    auto ctx = TlsContext::Create(p.serving->serving.cert_pem, p.serving->serving.key_pem);
    if (!ctx.ok()) return Fail(ctx.status());
    p.tls = *ctx;
    if (!options.kubeconfig_out.empty() || config_.always_kubeconfig) {
      auto ca = LoadOrGenerateKubeconfigClientCa(options);
      if (!ca.ok()) return Fail(ca.status());
      p.kubeconfig_ca = std::move(*ca);
    }
  }

  registry::RegistryOptions registry_options;
  registry_options.kv.data_dir = options.data_dir;
  registry_options.strategies["apiextensions.k8s.io/customresourcedefinitions"] =
      std::make_shared<apiextensions::CrdStrategy>();
  // --service-cluster-ip-range / --service-node-port-range.
  auto services = std::make_shared<ServiceAllocationStrategy>(options.service_cluster_ip_range,
                                                              options.node_port_min, options.node_port_max);
  registry_options.strategies["/services"] = services;
  // RBAC's strategies refuse role and binding writes that would escalate (the `escalate` and
  // `bind` verbs); they are given the authorizer once it exists.
  auto escalation = std::make_shared<auth::RbacEscalation>();
  auth::AddRbacStrategies(&registry_options, escalation);
  // What kube's per-kind strategies set by themselves (Job selectors, DaemonSet template generation, ...).
  registry::AddKindStrategies(&registry_options);
  auto registry = registry::ApiRegistry::Open(registry_options, catalogue::Catalogue::BuiltIn());
  if (!registry.ok()) return Fail(registry.status(), true);
  p.registry = std::move(*registry);
  services->SetRegistry(p.registry.get());
  // The bootstrap policy, ClusterRole aggregation and the index of roles and bindings, whatever
  // the mode (kube-apiserver keeps them up to date whether or not RBAC authorizes).
  auto rbac = auth::Rbac::Start(p.registry.get());
  if (!rbac.ok()) return Fail(rbac.status(), true);
  p.rbac = std::move(*rbac);

  auto authn = BuildAuthentication(
      options, p.kubeconfig_ca ? std::vector<std::string>{p.kubeconfig_ca->cert_pem} : std::vector<std::string>{},
      RegistryLookup(p.registry.get()));
  if (!authn.ok()) return Fail(authn.status());
  p.authn = std::move(*authn);

  // --authorization-mode, with RBAC reading the index; SelfSubjectRulesReview lists the rules of
  // the same modes.
  auto authorization = auth::NewAuthorizerForModes(options.authorization_modes, *p.rbac);
  if (!authorization.ok()) return Fail(authorization.status());
  p.authorization = std::move(*authorization);
  const std::shared_ptr<const auth::Authorizer> authorizer = p.authorization->authorizer;
  escalation->Attach(p.registry.get(), p.rbac->index(), authorizer);

  endpoints::ApiServerOptions api_options;
  const std::string advertised = options.advertise_address.empty() ? options.bind_address : options.advertise_address;
  api_options.server_address = HostPort(advertised, serve_secure ? options.secure_port : std::max(options.port, 0));
  api_options.authorizer = authorizer;
  api_options.rule_resolver = p.authorization->rule_resolver;
  api_options.authenticator = p.authn->authenticator;
  api_options.token_issuer = p.authn->token_issuer;
  api_options.api_audiences = p.authn->authenticator->api_audiences();
  api_options.max_token_expiration_seconds = options.service_account_max_token_expiration;
  auto runtime_config = endpoints::RuntimeConfig::Parse(options.runtime_config, p.registry->catalogue());
  if (!runtime_config.ok()) return Fail(runtime_config.status());
  api_options.runtime_config = std::move(*runtime_config);
  p.api = std::make_shared<endpoints::ApiServer>(p.registry.get(), api_options);
  // After the API server, which follows what the controller serves: stored CRDs are served
  // again before the server reports ready.
  p.crds.emplace(p.registry.get());
  if (auto s = p.crds->Start(); !s.ok()) return Fail(s, true);

  // Preloaded objects are in before any listener serves, so no client sees a partial state.
  if (!options.load.empty()) {
    auto loaded = server::LoadManifests(*p.api, *p.registry, options.load);
    if (!loaded.ok()) return Fail(loaded.status());
    loaded_objects_ = loaded->created;
  }

  auto api = p.api;
  int api_port = 0;  // the port clients reach the API at: the secure one when there is one
  auto handler = [api](const endpoints::HttpRequest& r) { return api->Handle(r); };
  if (serve_plain) {
    p.plain_http.emplace(ListenerOptions{.bind_address = options.bind_address,
                                         .port = options.port,
                                         .max_request_body_bytes = options.max_request_body_bytes,
                                         .verbosity = options.verbosity},
                         handler);
    auto port = p.plain_http->Start();
    if (!port.ok()) return Fail(port.status());
    plain_url_ = "http://" + HostPort(options.bind_address, *port);
    api_port = *port;
  }
  if (serve_secure) {
    auto authenticator = p.authn->authenticator;
    p.secure_http.emplace(ListenerOptions{.bind_address = options.bind_address,
                                          .port = options.secure_port,
                                          .max_request_body_bytes = options.max_request_body_bytes,
                                          .verbosity = options.verbosity,
                                          .tls = p.tls,
                                          .authenticate = [authenticator](const auth::Credentials& c) {
                                            return authenticator->Authenticate(c);
                                          }},
                          handler);
    auto port = p.secure_http->Start();
    if (!port.ok()) return Fail(port.status());
    const std::string host = options.bind_address == "0.0.0.0" || options.bind_address == "::" ? "127.0.0.1"
                                                                                                : options.bind_address;
    secure_url_ = "https://" + HostPort(host, *port);
    api_port = *port;
  }
  // The kubernetes Service, its endpoints and the system PriorityClasses, before "ready" (and
  // before the initial state Reset returns to is recorded).
  p.bootstrap.emplace(p.registry.get(), BootstrapObjectsOptions{services->KubernetesServiceIp(), options.advertise_address,
                                                                options.bind_address, api_port});
  if (auto s = p.bootstrap->Start(); !s.ok()) return Fail(s, true);
  if (!options.kubeconfig_out.empty() || config_.always_kubeconfig) {
    KubeconfigCredentials credentials;
    if (serve_secure) {
      auto admin = MakeAdminClientCertificate(*p.kubeconfig_ca);
      if (!admin.ok()) return Fail(admin.status());
      credentials = {p.serving->ca_pem, admin->cert_pem, admin->key_pem};
    }
    kubeconfig_ = KubeconfigText(url(), credentials);
    if (!options.kubeconfig_out.empty()) {
      if (auto s = WriteKubeconfigText(options.kubeconfig_out, kubeconfig_); !s.ok()) return Fail(s);
    }
  }
  // What Reset() (and POST /admin/reset) returns to: everything set up before the server reports
  // ready, the preloaded manifests included.
  if (auto s = p.registry->MarkInitialState(); !s.ok()) return Fail(s, true);
  time_to_ready_ = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
  return Status::OK();
}

void ServerInstance::Stop() {
  if (parts_ == nullptr) return;
  if (parts_->secure_http) parts_->secure_http->Stop();
  if (parts_->plain_http) parts_->plain_http->Stop();
  parts_.reset();
}

Result<LoadSummary> ServerInstance::LoadManifests(const std::vector<std::string>& paths) {
  if (parts_ == nullptr || parts_->api == nullptr) return Status::Internal("the server is not started");
  return server::LoadManifests(*parts_->api, *parts_->registry, paths);
}

// Reset and snapshots are the registry's (it owns every store and watch cache).
Status ServerInstance::Reset() {
  if (parts_ == nullptr || parts_->registry == nullptr) return Status::Internal("the server is not started");
  return parts_->registry->Reset();
}

Status ServerInstance::SaveSnapshot(const std::string& name) {
  if (parts_ == nullptr || parts_->registry == nullptr) return Status::Internal("the server is not started");
  return parts_->registry->SaveSnapshot(name);
}

Status ServerInstance::RestoreSnapshot(const std::string& name) {
  if (parts_ == nullptr || parts_->registry == nullptr) return Status::Internal("the server is not started");
  return parts_->registry->RestoreSnapshot(name);
}

std::string ServerInstance::StartSummary() const {
  const ServerOptions& o = config_.options;
  std::string address = plain_url_;
  if (!secure_url_.empty()) address += (address.empty() ? "" : ",") + secure_url_;
  std::string authorization;
  for (const auto& m : o.authorization_modes) authorization += (authorization.empty() ? "" : ",") + m;
  const std::string store = o.data_dir.empty() ? "in-memory" : o.data_dir;
  return "\"Serving\" address=\"" + address + "\" store=\"" + store + "\" authorization=\"" + authorization +
         "\" loadedObjects=" + std::to_string(loaded_objects_) +
         " readyMs=" + std::to_string(time_to_ready_.count() / 1000);
}

}  // namespace kube::server
