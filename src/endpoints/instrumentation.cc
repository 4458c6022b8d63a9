#include "endpoints/instrumentation.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

#include "metrics/process_collector.h"

namespace kube::endpoints {

namespace {

using metrics::Desc;
using metrics::Stability;

bool ConnectSubresource(std::string_view s) {
  return s == "log" || s == "exec" || s == "portforward" || s == "attach" || s == "proxy";
}

bool KnownVerb(std::string_view v) {
  static const std::set<std::string_view> kVerbs = {"APPLY", "CONNECT", "CREATE", "DELETE", "DELETECOLLECTION",
                                                     "GET", "LIST", "PATCH", "POST", "PROXY", "PUT", "UPDATE",
                                                     "WATCH", "WATCHLIST"};
  return kVerbs.count(v) != 0;
}

// kube's cleanDryRun: "" without the parameter, the sorted distinct values when they are valid
// (only "All" is), "invalid" otherwise.
std::string CleanDryRun(const HttpRequest& request, const Query& query) {
  if (request.raw_query.find("dryRun") == std::string::npos) return "";
  auto values = query.GetAll("dryRun");
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string out;
  for (const auto& v : values) {
    if (v != "All") return "invalid";
    out += (out.empty() ? "" : ",") + v;
  }
  return out;
}

// kube's storage key prefix (--etcd-prefix) as the registry lays keys out.
constexpr std::string_view kKeyPrefix = "/registry";

// A streamed (watch) response, recorded when it ends: its request series are created then, so a
// scrape during the watch shows it only as long-running, as kube's does.
class InstrumentedStream final : public ResponseStream {
 public:
  InstrumentedStream(std::shared_ptr<ResponseStream> inner, metrics::Counter* events, metrics::Gauge* longrunning,
                     std::function<void()> record)
      : inner_(std::move(inner)), events_(events), longrunning_(longrunning), record_(std::move(record)) {
    longrunning_->Add(1);
  }
  ~InstrumentedStream() override { Finish(); }

  Step Next(std::string* out) override {
    const Step step = inner_->Next(out);
    if (step == Step::kData) events_->Inc();
    return step;
  }
  void Close() override {
    inner_->Close();
    Finish();
  }

 private:
  void Finish() {
    if (finished_) return;
    finished_ = true;
    longrunning_->Add(-1);
    record_();
  }

  std::shared_ptr<ResponseStream> inner_;
  metrics::Counter* events_;
  metrics::Gauge* longrunning_;
  std::function<void()> record_;
  bool finished_ = false;
};

std::vector<metrics::GaugeFunc::Sample> StorageObjects(registry::ApiRegistry* api, bool split_group) {
  // One count per stored group/resource: the versions of a resource share its keys.
  std::map<std::string, std::pair<std::string, std::string>> prefixes;  // prefix -> group, resource
  for (const auto& info : api->catalogue().Resources()) {
    if (!info.storage_prefix.empty()) prefixes.emplace(info.storage_prefix, std::pair(info.group, info.resource));
  }
  for (const auto& info : api->CustomResources()->resources) {
    if (!info.storage_prefix.empty()) prefixes.emplace(info.storage_prefix, std::pair(info.group, info.resource));
  }
  std::vector<metrics::GaugeFunc::Sample> out;
  for (const auto& [prefix, gr] : prefixes) {
    const std::string start = std::string(kKeyPrefix) + prefix + "/";
    const std::string end = std::string(kKeyPrefix) + prefix + "0";  // '/' + 1
    auto counted = api->kv()->Count(start, end);
    // kube reports -1 when the count cannot be read.
    const double n = counted.ok() ? static_cast<double>(counted->count) : -1;
    if (split_group) {
      out.push_back({{gr.first, gr.second}, n});
    } else {
      out.push_back({{gr.first.empty() ? gr.second : gr.second + "." + gr.first}, n});
    }
  }
  return out;
}

}  // namespace

std::string_view CleanScope(const RequestInfo& info) {
  if (!info.name.empty() || info.verb == "create") return "resource";
  if (!info.namespace_.empty()) return "namespace";
  if (info.is_resource_request) return "cluster";
  return "";
}

std::string ReportedVerb(const HttpRequest& request, const RequestInfo& info) {
  std::string verb = request.method;
  std::transform(verb.begin(), verb.end(), verb.begin(), [](unsigned char c) { return std::toupper(c); });
  const std::string_view scope = CleanScope(info);
  if (verb == "GET" || verb == "HEAD") verb = scope != "resource" && !scope.empty() ? "LIST" : "GET";
  if (info.verb == "watch") verb = "WATCH";
  if (verb == "PATCH" && request.Header("Content-Type") == "application/apply-patch+yaml") verb = "APPLY";
  if (info.is_resource_request && ConnectSubresource(info.subresource)) verb = "CONNECT";
  if (!KnownVerb(verb)) return "other";
  return verb;
}

std::string NormalizedVerb(const HttpRequest& request) {
  const Query query = Query::Parse(request.raw_query);
  return ReportedVerb(request, ParseRequestInfo(request.method, request.path, query.Bool("watch")));
}

RequestMetrics::RequestMetrics(metrics::Registry* metrics, registry::ApiRegistry* api) {
  requests_ = metrics->NewCounter(
      Desc{"apiserver_request_total",
           "Counter of apiserver requests by verb, dry run value, group, version, resource, scope, component and HTTP "
           "response code.",
           Stability::kStable,
           {"verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component", "code"}});
  durations_ = metrics->NewHistogram(
      Desc{"apiserver_request_duration_seconds",
           "Response latency distribution in seconds by verb, dry run value, group, version, resource, subresource, "
           "scope and component.",
           Stability::kStable,
           {"verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"}},
      // kube's buckets, chosen there for its latency SLOs.
      {0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60});
  longrunning_ = metrics->NewGauge(
      Desc{"apiserver_longrunning_requests",
           "Gauge of the long-running apiserver requests in progress by verb, group, version, resource, scope and "
           "component.",
           Stability::kStable,
           {"verb", "group", "version", "resource", "subresource", "scope", "component"}});
  watch_events_ = metrics->NewCounter(Desc{
      "apiserver_watch_events_total", "Number of events sent to watch clients.", Stability::kBeta,
      {"group", "version", "resource"}});
  metrics->NewGaugeFunc(Desc{"apiserver_storage_objects",
                             "Number of stored objects at the time of the last check, by resource; -1 when the count "
                             "failed.",
                             Stability::kStable,
                             {"resource"}},
                        [api] { return StorageObjects(api, /*split_group=*/false); });
  metrics->NewGaugeFunc(Desc{"apiserver_resource_objects",
                             "Number of stored objects at the time of the last check, by group and resource; -1 when "
                             "the count failed.",
                             Stability::kAlpha,
                             {"group", "resource"}},
                        [api] { return StorageObjects(api, /*split_group=*/true); });
  metrics::RegisterProcessCollector(metrics);
}

void RequestMetrics::Observe(const HttpRequest& request, const RequestInfo& info, const Query& query,
                             std::string_view component, std::chrono::steady_clock::time_point start,
                             HttpResponse* response) {
  const std::string verb = ReportedVerb(request, info);
  const std::string dry_run = CleanDryRun(request, query);
  const std::string_view scope = CleanScope(info);
  // Non-resource routes (health, discovery roots) are named by their path in `subresource`.
  const std::string_view subresource = info.is_resource_request ? std::string_view(info.subresource)
                                                                : std::string_view(info.path);
  char code[8];
  const int code_len = std::snprintf(code, sizeof code, "%d", response->status);
  if (response->stream) {
    // The strings the series are named by outlive this call: the stream keeps its own copies.
    auto owned = std::make_shared<RequestInfo>(info);
    owned->subresource = std::string(subresource);
    response->stream = std::make_shared<InstrumentedStream>(
        std::move(response->stream), watch_events_->With({info.api_group, info.api_version, info.resource}),
        longrunning_->With({verb, info.api_group, info.api_version, info.resource, subresource, scope, component}),
        [this, verb, dry_run, scope = std::string(scope), component = std::string(component), start, owned,
         code = std::string(code, code_len)] {
          requests_->With({verb, dry_run, owned->api_group, owned->api_version, owned->resource, owned->subresource,
                           scope, component, code})
              ->Inc();
          durations_->With({verb, dry_run, owned->api_group, owned->api_version, owned->resource, owned->subresource,
                            scope, component})
              ->Observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        });
    return;
  }
  requests_->With({verb, dry_run, info.api_group, info.api_version, info.resource, subresource, scope, component,
                   std::string_view(code, code_len)})
      ->Inc();
  durations_->With({verb, dry_run, info.api_group, info.api_version, info.resource, subresource, scope, component})
      ->Observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace kube::endpoints
