// Everything the server parses from a request before it touches a body parser: the request line
// (method, path, query), the Accept and Content-Type headers, the list/watch/write/delete options
// and what they carry (selectors, resourceVersion, continue token), and the storage key the path
// names.
//
// Input, one part per line (missing lines are empty):
//   METHOD /path?query
//   Accept header
//   Content-Type header
//   DeleteOptions body (the rest)
#include <cstddef>
#include <cstdint>
#include <string>

#include "endpoints/negotiation.h"
#include "endpoints/query.h"
#include "endpoints/request_info.h"
#include "endpoints/request_options.h"
#include "fuzz_input.h"
#include "storage/keys.h"
#include "storage/resource_version.h"

using namespace kube;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest = fuzz::AsText(data, size);
  std::string_view request_line = fuzz::TakeLine(&rest);
  const std::string_view accept = fuzz::TakeLine(&rest);
  const std::string_view content_type = fuzz::TakeLine(&rest);
  const std::string_view body = rest;

  const size_t space = request_line.find(' ');
  const std::string_view method = space == std::string_view::npos ? "GET" : request_line.substr(0, space);
  const std::string_view target = space == std::string_view::npos ? request_line : request_line.substr(space + 1);
  const size_t question = target.find('?');
  // The HTTP server hands the handlers a percent-decoded path and the raw query.
  const std::string path = endpoints::PercentDecode(target.substr(0, question));
  const std::string_view raw_query = question == std::string_view::npos ? std::string_view() : target.substr(question + 1);

  const endpoints::Query query = endpoints::Query::Parse(raw_query);
  const endpoints::RequestInfo info = endpoints::ParseRequestInfo(method, path, query.Bool("watch"));
  (void)endpoints::Negotiate(accept, /*allow_discovery=*/true);
  (void)endpoints::ParseContentType(content_type);

  for (const bool watch : {false, true}) {
    auto options = endpoints::ParseListOptions(query, watch);
    if (!options.ok()) continue;
    (void)options->predicate.label.ToString();
    (void)options->predicate.field.ToString();
    // Continue tokens and resourceVersions are checked against the collection the path names.
    const std::string prefix = "/registry/" + (info.resource.empty() ? std::string("pods") : info.resource) + "/";
    (void)storage::ValidateListOptions(prefix, *options);
  }
  (void)endpoints::ParseWriteParams(query, "CreateOptions");
  endpoints::HttpRequest delete_request{.method = "DELETE", .body = std::string(body)};
  delete_request.headers.emplace("Content-Type", std::string(content_type));
  (void)endpoints::ReadDeleteOptions(delete_request, query);
  (void)query.Int("timeoutSeconds");

  if (info.is_resource_request && !info.resource.empty()) {
    std::string key = "/" + info.resource + "/";
    if (!info.namespace_.empty() && info.resource != "namespaces") key += info.namespace_ + "/";
    key += info.name;
    (void)storage::PrepareKey("/" + info.resource, key, /*recursive=*/info.name.empty());
  }
  return 0;
}
