#include "server/kubeconfig.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace kube::server {

Status WriteKubeconfig(const std::string& path, const std::string& server_url) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return Status::Internal("cannot write " + tmp);
    out << "apiVersion: v1\n"
           "kind: Config\n"
           "clusters:\n"
           "- name: kube-apiserver-lite\n"
           "  cluster:\n"
           "    server: " << server_url << "\n"
           "contexts:\n"
           "- name: kube-apiserver-lite\n"
           "  context:\n"
           "    cluster: kube-apiserver-lite\n"
           "    user: kube-apiserver-lite\n"
           "    namespace: default\n"
           "current-context: kube-apiserver-lite\n"
           "users:\n"
           "- name: kube-apiserver-lite\n"
           "  user: {}\n";
    out.flush();
    if (!out) return Status::Internal("cannot write " + tmp);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return Status::Internal("cannot rename " + tmp + " to " + path);
  }
  return Status::OK();
}

}  // namespace kube::server
