#include "server/kubeconfig.h"

#include "auth/certificates.h"

namespace kube::server {

std::string KubeconfigText(const std::string& server_url, const KubeconfigCredentials& credentials) {
  std::string cluster = "    server: " + server_url + "\n";
  if (credentials.ca_pem.empty()) {
    cluster += "    insecure-skip-tls-verify: true\n";
  } else {
    cluster += "    certificate-authority-data: " + auth::Base64Encode(credentials.ca_pem) + "\n";
  }
  std::string user = "  user: {}\n";
  if (!credentials.client_cert_pem.empty()) {
    user = "  user:\n    client-certificate-data: " + auth::Base64Encode(credentials.client_cert_pem) +
           "\n    client-key-data: " + auth::Base64Encode(credentials.client_key_pem) + "\n";
  }
  return
      "apiVersion: v1\n"
      "kind: Config\n"
      "clusters:\n"
      "- name: kube-apiserver-lite\n"
      "  cluster:\n" + cluster +
      "contexts:\n"
      "- name: kube-apiserver-lite\n"
      "  context:\n"
      "    cluster: kube-apiserver-lite\n"
      "    user: kube-apiserver-lite\n"
      "    namespace: default\n"
      "current-context: kube-apiserver-lite\n"
      "users:\n"
      "- name: kube-apiserver-lite\n" + user;
}

Status WriteKubeconfigText(const std::string& path, const std::string& text) {
  // Client keys inside: readable by the owner only.
  const bool has_key = text.find("client-key-data:") != std::string::npos;
  return auth::WriteFileAtomic(path, text, has_key ? 0600 : 0644);
}

Status WriteKubeconfig(const std::string& path, const std::string& server_url,
                       const KubeconfigCredentials& credentials) {
  return WriteKubeconfigText(path, KubeconfigText(server_url, credentials));
}

}  // namespace kube::server
