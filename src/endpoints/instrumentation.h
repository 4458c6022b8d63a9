// Request instrumentation as kube-apiserver's endpoints/metrics does it: the verb kube reports
// (GET vs LIST, WATCH, APPLY, CONNECT, "other"), the scope, the dry-run value, and the metrics a
// served request updates:
//   apiserver_request_total{verb,dry_run,group,version,resource,subresource,scope,component,code}
//   apiserver_request_duration_seconds{verb,dry_run,group,version,resource,subresource,scope,component}
//   apiserver_longrunning_requests{verb,group,version,resource,subresource,scope,component}
//   apiserver_watch_events_total{group,version,resource}
// plus apiserver_storage_objects{resource} and apiserver_resource_objects{group,resource}, counted
// when scraped, and the process collector. As in kube, a request is counted when its handler
// finishes — a watch when its stream ends — and only requests that reached a route are: not
// those refused by authentication or authorization, nor paths nothing serves.
//
// Thread-safety: RequestMetrics is safe for concurrent use; the registries must outlive it, and it
// must outlive the streams it wraps.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "endpoints/http.h"
#include "endpoints/query.h"
#include "endpoints/request_info.h"
#include "metrics/metrics.h"
#include "registry/api_registry.h"

namespace kube::endpoints {

// kube's CleanScope: "resource" (a named object, or a create), "namespace", "cluster", or "" for
// non-resource requests.
std::string_view CleanScope(const RequestInfo& info);
// kube's reported verb for metrics and logs (NormalizedVerb): the upper-case method, with GET as
// LIST on collections, WATCH for watches, APPLY for apply patches, CONNECT for connect
// subresources, and "other" for methods kube does not know.
std::string ReportedVerb(const HttpRequest& request, const RequestInfo& info);
// The same for a request not yet parsed (the HTTP log, which sees every request).
std::string NormalizedVerb(const HttpRequest& request);

class RequestMetrics {
 public:
  // Registers the request, storage and process metrics in `metrics`; storage counts read `api`.
  RequestMetrics(metrics::Registry* metrics, registry::ApiRegistry* api);

  // Records a request that reached a route; `component` and `subresource` as kube's instrumented
  // handler for it passes them. For a streamed response, wraps the stream: the request counts as
  // long-running until the stream closes, is recorded then, and each event sent is counted.
  void Observe(const HttpRequest& request, const RequestInfo& info, const Query& query, std::string_view component,
               std::chrono::steady_clock::time_point start, HttpResponse* response);

 private:
  metrics::CounterVec* requests_;
  metrics::HistogramVec* durations_;
  metrics::GaugeVec* longrunning_;
  metrics::CounterVec* watch_events_;
};

}  // namespace kube::endpoints
