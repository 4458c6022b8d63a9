// The binary invoked as "etcd" (argv[0]'s basename): a stand-in for envtest, which starts etcd
// before kube-apiserver and waits for it. kube-apiserver-lite's store is embedded, so this etcd
// stores nothing: it accepts etcd's flags (envtest's --advertise-client-urls, --data-dir,
// --listen-client-urls, --listen-peer-urls, --unsafe-no-fsync and the other common ones),
// answers GET /health (and /version, /readyz, /livez) on every --listen-client-urls address, and
// exits on SIGTERM or SIGINT.
//
// Thread-safety: runs on the main thread; the HTTP listeners have their own.
#pragma once

namespace kube::server {

// Returns the process's exit status.
int RunEtcdStandIn(int argc, char** argv);

}  // namespace kube::server
