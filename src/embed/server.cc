// The embedding API over server::ServerInstance: Options become the binary's flags and go
// through the binary's flag parser, so an embedded server and `kube-apiserver-lite FLAGS...`
// cannot drift apart.
#include "kube_apiserver_lite/server.h"

#include <signal.h>

#include <string>

#include "server/flags.h"
#include "server/kubeconfig.h"
#include "server/server_instance.h"

namespace kube_apiserver_lite {

namespace {

Status FromKube(const kube::Status& s) {
  if (s.ok()) return Status();
  std::string reason(s.Reason());
  return Status(reason.empty() ? "InternalError" : reason, s.message());
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

// The binary's flags for `o`, parsed by the binary's parser.
kube::Result<kube::server::ServerOptions> ToServerOptions(const Options& o) {
  std::vector<std::string> args = {"kube-apiserver-lite", "--bind-address=" + o.bind_address,
                                   (o.tls ? "--secure-port=" : "--port=") + std::to_string(o.port),
                                   "--authorization-mode=" + Join(o.authorization_modes),
                                   "--v=" + std::to_string(o.verbosity)};
  if (!o.data_dir.empty()) args.push_back("--data-dir=" + o.data_dir);
  for (const auto& m : o.manifests) args.push_back("--load=" + m);
  args.insert(args.end(), o.extra_flags.begin(), o.extra_flags.end());
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  auto parsed = kube::server::ParseFlags(static_cast<int>(argv.size()), argv.data());
  if (!parsed.ok()) return parsed.status();
  if (!parsed->run_error.ok()) return parsed->run_error;
  kube::server::ServerOptions options = parsed->options;
  kube::server::ResetAnonymousAuthForAlwaysAllow(&options);
  return options;
}

}  // namespace

struct Server::Impl {
  Options options;
  std::unique_ptr<kube::server::ServerInstance> instance;
};

Server::Server(Options options) : impl_(std::make_unique<Impl>()) { impl_->options = std::move(options); }

Server::~Server() { Stop(); }

Status Server::Start() {
  if (impl_->instance != nullptr) return Status("Conflict", "the server is already running");
  auto options = ToServerOptions(impl_->options);
  if (!options.ok()) return Status("BadRequest", options.status().message());
  // A client leaving mid-response must not kill the test process (the binary ignores it too);
  // a handler the embedder installed is left alone.
  struct sigaction current{};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
  auto instance = std::make_unique<kube::server::ServerInstance>(
      kube::server::ServerInstance::Config{.options = std::move(*options), .always_kubeconfig = true});
  if (auto s = instance->Start(); !s.ok()) return FromKube(s);
  impl_->instance = std::move(instance);
  return Status();
}

void Server::Stop() {
  if (impl_->instance == nullptr) return;
  impl_->instance->Stop();
  impl_->instance.reset();
}

bool Server::running() const { return impl_->instance != nullptr; }

std::string Server::url() const { return impl_->instance ? impl_->instance->url() : ""; }

std::string Server::kubeconfig() const { return impl_->instance ? impl_->instance->kubeconfig() : ""; }

Status Server::WriteKubeconfig(const std::string& path) const {
  if (impl_->instance == nullptr) return Status("BadRequest", "the server is not running");
  return FromKube(kube::server::WriteKubeconfigText(path, impl_->instance->kubeconfig()));
}

Status Server::LoadManifests(const std::vector<std::string>& paths, LoadResult* result) {
  if (impl_->instance == nullptr) return Status("BadRequest", "the server is not running");
  auto loaded = impl_->instance->LoadManifests(paths);
  if (!loaded.ok()) return FromKube(loaded.status());
  if (result != nullptr) *result = {.created = loaded->created, .unchanged = loaded->unchanged};
  return Status();
}

Status Server::Reset() {
  if (impl_->instance == nullptr) return Status("BadRequest", "the server is not running");
  return FromKube(impl_->instance->Reset());
}

Status Server::SaveSnapshot(const std::string& name) {
  if (impl_->instance == nullptr) return Status("BadRequest", "the server is not running");
  return FromKube(impl_->instance->SaveSnapshot(name));
}

Status Server::RestoreSnapshot(const std::string& name) {
  if (impl_->instance == nullptr) return Status("BadRequest", "the server is not running");
  return FromKube(impl_->instance->RestoreSnapshot(name));
}

size_t Server::loaded_objects() const { return impl_->instance ? impl_->instance->loaded_objects() : 0; }

int64_t Server::start_micros() const { return impl_->instance ? impl_->instance->time_to_ready().count() : 0; }

}  // namespace kube_apiserver_lite
