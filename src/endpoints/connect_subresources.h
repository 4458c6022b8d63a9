// The subresources kube-apiserver answers by reaching a kubelet, a pod or a service endpoint:
// pods/log, pods/exec, pods/attach, pods/portforward, pods/proxy, services/proxy and nodes/proxy.
// This server runs no kubelet and proxies nothing, so each request is taken as far as kube takes
// it before it would open a connection: the pod, container, node and address checks with kube's
// codes and messages (a pod with no node: exec/attach/portforward 400 "pod p does not have a host
// assigned", log 200 with an empty body; a node that is gone: nodes "n" not found). Then the
// target is dialled as kube would: an unreachable one gets kube's error ("dial tcp ...:
// connect: connection refused"), a reachable one a 503 saying this server does not proxy.
//
// Thread-safety: pure functions over the registry (safe for concurrent use).
#pragma once

#include <string>
#include <string_view>

#include "endpoints/http.h"
#include "endpoints/query.h"
#include "registry/api_registry.h"

namespace kube::endpoints {

// True for the subresources above on their resource.
bool IsConnectSubresource(std::string_view group, std::string_view resource, std::string_view subresource);

// Answers one request to a connect subresource of `name` ("pod", or "pod:port" /
// "scheme:pod:port" for proxy) in namespace `ns`; `method` is the HTTP method.
HttpResponse ServeConnect(registry::ApiRegistry* registry, std::string_view method, std::string_view resource,
                          std::string_view subresource, std::string_view ns, std::string_view name,
                          const Query& query);

// Dials host:port with a short timeout; OK or the dial error in Go's words
// ("dial tcp 127.0.0.1:10250: connect: connection refused").
Status Dial(const std::string& host, int port);

}  // namespace kube::endpoints
