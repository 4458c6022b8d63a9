#include "server/secure_serving.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

namespace kube::server {

namespace {

bool Exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

Status EnsureDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Internal("cannot create --cert-dir " + dir + ": " + ec.message());
  return Status::OK();
}

Result<auth::KeyPair> LoadPair(const std::string& cert_file, const std::string& key_file) {
  auto cert = auth::ReadFile(cert_file);
  if (!cert.ok()) return cert.status();
  auto key = auth::ReadFile(key_file);
  if (!key.ok()) return key.status();
  auth::KeyPair pair{*cert, *key};
  if (auto s = auth::CheckKeyPair(pair); !s.ok()) {
    return Status::BadRequest("unable to load server certificate: " + s.message());
  }
  return pair;
}

// The last certificate of a chain: the one closest to its root.
std::string LastCertificate(const std::string& chain_pem) {
  auto ders = auth::ParseCertificatesPem(chain_pem);
  if (!ders.ok()) return chain_pem;
  return auth::CertificateDerToPem(ders->back());
}

}  // namespace

Result<ServingCertificates> LoadOrGenerateServingCertificates(const ServerOptions& options) {
  ServingCertificates out;
  if (!options.tls_cert_file.empty()) {
    auto pair = LoadPair(options.tls_cert_file, options.tls_private_key_file);
    if (!pair.ok()) return pair.status();
    out.serving = std::move(*pair);
    out.ca_pem = LastCertificate(out.serving.cert_pem);
    return out;
  }
  const std::string crt = options.cert_dir + "/apiserver.crt";
  const std::string key = options.cert_dir + "/apiserver.key";
  if (!options.cert_dir.empty() && Exists(crt) && Exists(key)) {
    auto pair = LoadPair(crt, key);
    if (!pair.ok()) return pair.status();
    out.serving = std::move(*pair);
    out.ca_pem = LastCertificate(out.serving.cert_pem);
    return out;
  }
  std::vector<std::string> hosts = {"localhost", "127.0.0.1", "::1", "kubernetes", "kubernetes.default",
                                    "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"};
  for (const auto& h : {options.bind_address, options.advertise_address}) {
    if (!h.empty() && h != "0.0.0.0" && h != "::" && std::find(hosts.begin(), hosts.end(), h) == hosts.end()) {
      hosts.push_back(h);
    }
  }
  auto ca = auth::MakeCertificate({.common_name = "kube-apiserver-lite-ca", .valid_for = std::chrono::hours(24 * 3650),
                                   .is_ca = true},
                                  nullptr);
  if (!ca.ok()) return ca.status();
  auto leaf = auth::MakeCertificate({.common_name = "localhost", .hosts = hosts, .server_auth = true}, &*ca);
  if (!leaf.ok()) return leaf.status();
  out.serving = auth::KeyPair{leaf->cert_pem + ca->cert_pem, leaf->key_pem};
  out.ca_pem = ca->cert_pem;
  out.generated = true;
  if (!options.cert_dir.empty()) {
    KUBE_RETURN_IF_ERROR(EnsureDir(options.cert_dir));
    KUBE_RETURN_IF_ERROR(auth::WriteFileAtomic(crt, out.serving.cert_pem, 0644));
    KUBE_RETURN_IF_ERROR(auth::WriteFileAtomic(key, out.serving.key_pem, 0600));
  }
  return out;
}

Result<auth::KeyPair> LoadOrGenerateKubeconfigClientCa(const ServerOptions& options) {
  const std::string crt = options.cert_dir + "/kubeconfig-client-ca.crt";
  const std::string key = options.cert_dir + "/kubeconfig-client-ca.key";
  if (!options.cert_dir.empty() && Exists(crt) && Exists(key)) return LoadPair(crt, key);
  auto ca = auth::MakeCertificate({.common_name = "kube-apiserver-lite-client-ca",
                                   .valid_for = std::chrono::hours(24 * 3650), .is_ca = true},
                                  nullptr);
  if (!ca.ok()) return ca.status();
  if (!options.cert_dir.empty()) {
    KUBE_RETURN_IF_ERROR(EnsureDir(options.cert_dir));
    KUBE_RETURN_IF_ERROR(auth::WriteFileAtomic(crt, ca->cert_pem, 0644));
    KUBE_RETURN_IF_ERROR(auth::WriteFileAtomic(key, ca->key_pem, 0600));
  }
  return ca;
}

Result<auth::KeyPair> MakeAdminClientCertificate(const auth::KeyPair& client_ca) {
  return auth::MakeCertificate({.common_name = "kube-apiserver-lite:admin", .organizations = {"system:masters"},
                                .client_auth = true},
                               &client_ca);
}

}  // namespace kube::server
