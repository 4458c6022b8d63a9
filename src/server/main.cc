// kube-apiserver-lite: a Kubernetes API server for tests. Invoked as "etcd" it is the envtest
// stand-in for etcd instead (etcd_standin.h).
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>

#include "apiextensions/crd_controller.h"
#include "apiextensions/crd_strategy.h"
#include "auth/authorization_modes.h"
#include "endpoints/api_server.h"
#include "auth/rbac.h"
#include "auth/rbac_modes.h"
#include "registry/api_registry.h"
#include "server/authentication_config.h"
#include "server/etcd_standin.h"
#include "server/flag_table.h"
#include "server/flags.h"
#include "server/http_server.h"
#include "server/kubeconfig.h"
#include "server/secure_serving.h"
#include "server/service_allocation.h"
#include "server/tls_context.h"

namespace {

using namespace kube;

int Fail(const std::string& message) {
  std::fprintf(stderr, "Error: %s\n", message.c_str());
  return 1;
}

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

// Says once which flags were taken but change nothing, as the issue asks.
void ReportIgnored(const server::ServerOptions& o) {
  if (!o.ignored_flags.empty()) {
    std::string list;
    for (const auto& f : o.ignored_flags) list += (list.empty() ? "" : " ") + f;
    std::fprintf(stderr, "kube-apiserver-lite: ignoring flags that mean nothing here: %s\n", list.c_str());
    for (const auto& f : o.ignored_flags) {
      if (f.starts_with("--etcd-servers=")) {
        std::fprintf(stderr, "kube-apiserver-lite: --etcd-servers is ignored: the store is embedded%s\n",
                     o.data_dir.empty() ? " (in memory)" : (" (--data-dir " + o.data_dir + ")").c_str());
      }
    }
  }
  // Admission here: namespace lifecycle is always on; no other plugin exists yet.
  for (const auto& p : o.enable_admission_plugins) {
    if (p != "NamespaceLifecycle") {
      std::fprintf(stderr, "kube-apiserver-lite: admission plugin %s is not available here; requests are admitted without it\n",
                   p.c_str());
    }
  }
}

int Run(int argc, char** argv) {
  const char* slash = std::strrchr(argv[0], '/');
  if (std::strcmp(slash ? slash + 1 : argv[0], "etcd") == 0) return server::RunEtcdStandIn(argc, argv);

  auto flags = server::ParseFlags(argc, argv);
  if (!flags.ok()) return Fail(flags.status().message());
  if (flags->help) {
    std::fputs(server::Usage(argv[0]).c_str(), stdout);
    return 0;
  }
  if (flags->version) {
    if (flags->version_raw) {
      std::puts(R"({"major":"1","minor":"36","gitVersion":"v1.36.0","gitCommit":"kube-apiserver-lite",)"
                R"("gitTreeState":"clean","goVersion":"go1.25.0","compiler":"gc","platform":"linux/amd64"})");
    } else {
      std::puts("Kubernetes v1.36.0");
    }
    return 0;
  }
  server::ServerOptions options = flags->options;
  ReportIgnored(options);
  const bool serve_plain = options.port >= 0;
  const bool serve_secure = options.secure_port_set || !serve_plain;
  // kube's ApplyAuthorization: AlwaysAllow would let anonymous requests do anything. (Said only
  // when there is a secure port for it to matter on.)
  if (serve_secure && options.anonymous_auth && std::find(options.authorization_modes.begin(), options.authorization_modes.end(),
                                          "AlwaysAllow") != options.authorization_modes.end()) {
    std::fprintf(stderr, "AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to "
                         "false. You should use a different authorizer\n");
    options.anonymous_auth = false;
  }

  // SIGTERM/SIGINT are taken synchronously by the main thread once everything runs.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  // Certificates first: a bad flag fails before any work.
  std::optional<server::ServingCertificates> serving;
  std::optional<auth::KeyPair> kubeconfig_ca;
  std::shared_ptr<server::TlsContext> tls;
  if (serve_secure) {
    auto certs = server::LoadOrGenerateServingCertificates(options);
    if (!certs.ok()) return Fail(certs.status().message());
    serving = std::move(*certs);
    auto ctx = server::TlsContext::Create(serving->serving.cert_pem, serving->serving.key_pem);
    if (!ctx.ok()) return Fail(ctx.status().message());
    tls = *ctx;
    if (!options.kubeconfig_out.empty()) {
      auto ca = server::LoadOrGenerateKubeconfigClientCa(options);
      if (!ca.ok()) return Fail(ca.status().message());
      kubeconfig_ca = std::move(*ca);
    }
  }

  registry::RegistryOptions registry_options;
  registry_options.kv.data_dir = options.data_dir;
  registry_options.strategies["apiextensions.k8s.io/customresourcedefinitions"] =
      std::make_shared<apiextensions::CrdStrategy>();
  // --service-cluster-ip-range / --service-node-port-range.
  auto services = std::make_shared<server::ServiceAllocationStrategy>(
      options.service_cluster_ip_range, options.node_port_min, options.node_port_max);
  registry_options.strategies["/services"] = services;
  // RBAC's strategies refuse role and binding writes that would escalate (the `escalate` and
  // `bind` verbs); they are given the authorizer once it exists.
  auto escalation = std::make_shared<auth::RbacEscalation>();
  auth::AddRbacStrategies(&registry_options, escalation);
  auto registry = registry::ApiRegistry::Open(registry_options, catalogue::Catalogue::BuiltIn());
  if (!registry.ok()) return Fail(registry.status().ToString());
  services->SetRegistry(registry->get());
  // The bootstrap policy, ClusterRole aggregation and the index of roles and bindings, whatever
  // the mode (kube-apiserver keeps them up to date whether or not RBAC authorizes).
  auto rbac = auth::Rbac::Start(registry->get());
  if (!rbac.ok()) return Fail(rbac.status().ToString());

  auto authn = server::BuildAuthentication(
      options, kubeconfig_ca ? std::vector<std::string>{kubeconfig_ca->cert_pem} : std::vector<std::string>{},
      RegistryLookup(registry->get()));
  if (!authn.ok()) return Fail(authn.status().message());

  // --authorization-mode, with RBAC reading the index; SelfSubjectRulesReview lists the rules of
  // the same modes.
  auto authorization = auth::NewAuthorizerForModes(options.authorization_modes, **rbac);
  if (!authorization.ok()) return Fail(authorization.status().message());
  const std::shared_ptr<const auth::Authorizer> authorizer = authorization->authorizer;
  escalation->Attach(registry->get(), (*rbac)->index(), authorizer);

  endpoints::ApiServerOptions api_options;
  const std::string advertised = options.advertise_address.empty() ? options.bind_address : options.advertise_address;
  api_options.server_address = HostPort(advertised, serve_secure ? options.secure_port : std::max(options.port, 0));
  api_options.authorizer = authorizer;
  api_options.rule_resolver = authorization->rule_resolver;
  api_options.authenticator = authn->authenticator;
  api_options.token_issuer = authn->token_issuer;
  api_options.api_audiences = authn->authenticator->api_audiences();
  api_options.max_token_expiration_seconds = options.service_account_max_token_expiration;
  auto runtime_config = endpoints::RuntimeConfig::Parse(options.runtime_config, (*registry)->catalogue());
  if (!runtime_config.ok()) return Fail(runtime_config.status().message());
  api_options.runtime_config = std::move(*runtime_config);
  auto api = std::make_shared<endpoints::ApiServer>(registry->get(), api_options);
  // After the API server, which follows what the controller serves: stored CRDs are served
  // again before the server reports ready.
  apiextensions::CrdController crds(registry->get());
  if (auto s = crds.Start(); !s.ok()) return Fail(s.ToString());

  auto handler = [api](const endpoints::HttpRequest& r) { return api->Handle(r); };
  std::optional<server::HttpServer> plain_http, secure_http;
  std::string plain_url, secure_url;
  if (serve_plain) {
    plain_http.emplace(server::ListenerOptions{.bind_address = options.bind_address,
                                               .port = options.port,
                                               .max_request_body_bytes = options.max_request_body_bytes,
                                               .verbosity = options.verbosity},
                       handler);
    auto port = plain_http->Start();
    if (!port.ok()) return Fail(port.status().message());
    plain_url = "http://" + HostPort(options.bind_address, *port);
  }
  if (serve_secure) {
    auto authenticator = authn->authenticator;
    secure_http.emplace(server::ListenerOptions{.bind_address = options.bind_address,
                                                .port = options.secure_port,
                                                .max_request_body_bytes = options.max_request_body_bytes,
                                                .verbosity = options.verbosity,
                                                .tls = tls,
                                                .authenticate = [authenticator](const auth::Credentials& c) {
                                                  return authenticator->Authenticate(c);
                                                }},
                        handler);
    auto port = secure_http->Start();
    if (!port.ok()) return Fail(port.status().message());
    const std::string host = options.bind_address == "0.0.0.0" || options.bind_address == "::" ? "127.0.0.1"
                                                                                                : options.bind_address;
    secure_url = "https://" + HostPort(host, *port);
  }
  if (!options.kubeconfig_out.empty()) {
    server::KubeconfigCredentials credentials;
    if (serve_secure) {
      auto admin = server::MakeAdminClientCertificate(*kubeconfig_ca);
      if (!admin.ok()) return Fail(admin.status().message());
      credentials = {serving->ca_pem, admin->cert_pem, admin->key_pem};
    }
    auto s = server::WriteKubeconfig(options.kubeconfig_out, serve_secure ? secure_url : plain_url, credentials);
    if (!s.ok()) return Fail(s.message());
  }
  // What POST /admin/reset returns to: everything the server set up before it reports ready.
  if (auto s = (*registry)->MarkInitialState(); !s.ok()) return Fail(s.ToString());
  if (serve_plain) std::printf("ready: %s\n", plain_url.c_str());
  if (serve_secure) std::printf("ready: %s\n", secure_url.c_str());
  std::fflush(stdout);

  int sig = 0;
  sigwait(&signals, &sig);
  if (options.verbosity >= 1) std::fprintf(stderr, "received signal %d, shutting down\n", sig);
  if (secure_http) secure_http->Stop();
  if (plain_http) plain_http->Stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
