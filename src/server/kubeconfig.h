// Writes a kubeconfig pointing at the server, atomically (temporary file, then rename), so a
// process polling for the file never reads half of it.
//
// Thread-safety: pure function (touches only the given path).
#pragma once

#include <string>

#include "util/status.h"

namespace kube::server {

Status WriteKubeconfig(const std::string& path, const std::string& server_url);

}  // namespace kube::server
