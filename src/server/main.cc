// kube-apiserver-lite: a Kubernetes API server for tests.
#include <signal.h>

#include <cstdio>
#include <iostream>

#include "endpoints/api_server.h"
#include "apiextensions/crd_controller.h"
#include "apiextensions/crd_strategy.h"
#include "auth/authorization_modes.h"
#include "auth/rbac.h"
#include "registry/api_registry.h"
#include "server/flags.h"
#include "server/http_server.h"
#include "server/kubeconfig.h"

namespace {

int Run(int argc, char** argv) {
  using namespace kube;
  auto flags = server::ParseFlags(argc, argv);
  if (!flags.ok()) {
    std::fprintf(stderr, "%s\n%s", flags.status().message().c_str(), server::Usage(argv[0]).c_str());
    return 2;
  }
  if (flags->help) {
    std::fputs(server::Usage(argv[0]).c_str(), stdout);
    return 0;
  }
  const server::ServerOptions& options = flags->options;

  // SIGTERM/SIGINT are taken synchronously by the main thread once everything runs.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  registry::RegistryOptions registry_options;
  registry_options.kv.data_dir = options.data_dir;
  registry_options.strategies["apiextensions.k8s.io/customresourcedefinitions"] =
      std::make_shared<apiextensions::CrdStrategy>();
  auto escalation = std::make_shared<auth::RbacEscalation>();
  auth::AddRbacStrategies(&registry_options, escalation);
  auto registry = registry::ApiRegistry::Open(registry_options, catalogue::Catalogue::BuiltIn());
  if (!registry.ok()) {
    std::fprintf(stderr, "kube-apiserver-lite: %s\n", registry.status().ToString().c_str());
    return 1;
  }
  auto rbac = auth::Rbac::Start(registry->get());
  if (!rbac.ok()) {
    std::fprintf(stderr, "kube-apiserver-lite: %s\n", rbac.status().ToString().c_str());
    return 1;
  }
  auto authorizer = auth::NewAuthorizerForModes(options.authorization_mode, **rbac);
  if (!authorizer.ok()) {
    std::fprintf(stderr, "kube-apiserver-lite: %s\n", authorizer.status().message().c_str());
    return 2;
  }
  escalation->Attach(registry->get(), (*rbac)->index(), authorizer->authorizer);
  endpoints::ApiServerOptions api_options;
  api_options.authorizer = authorizer->authorizer;
  api_options.rule_resolver = authorizer->rule_resolver;
  auto api = std::make_shared<endpoints::ApiServer>(registry->get(), api_options);
  // After the API server, which follows what the controller serves: stored CRDs are served
  // again before the server reports ready.
  apiextensions::CrdController crds(registry->get());
  if (auto s = crds.Start(); !s.ok()) {
    std::fprintf(stderr, "kube-apiserver-lite: %s\n", s.ToString().c_str());
    return 1;
  }
  server::HttpServer http(options, [api](const endpoints::HttpRequest& r) { return api->Handle(r); });
  auto port = http.Start();
  if (!port.ok()) {
    std::fprintf(stderr, "kube-apiserver-lite: %s\n", port.status().message().c_str());
    return 1;
  }
  const std::string url = "http://" + options.bind_address + ":" + std::to_string(*port);
  if (!options.kubeconfig_out.empty()) {
    if (auto s = server::WriteKubeconfig(options.kubeconfig_out, url); !s.ok()) {
      std::fprintf(stderr, "kube-apiserver-lite: %s\n", s.message().c_str());
      return 1;
    }
  }
  std::printf("ready: %s\n", url.c_str());
  std::fflush(stdout);

  int sig = 0;
  sigwait(&signals, &sig);
  if (options.verbosity >= 1) std::fprintf(stderr, "received signal %d, shutting down\n", sig);
  http.Stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
