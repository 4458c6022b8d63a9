// Options carried by a request, parsed and validated as kube does: ListOptions (selectors,
// resourceVersion rules: 422 ListOptions.meta.k8s.io), DeleteOptions (body first, else query),
// dryRun / fieldValidation / fieldManager for writes.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

#include "endpoints/http.h"
#include "endpoints/query.h"
#include "registry/store.h"
#include "storage/interface.h"

namespace kube::endpoints {

// List or watch options from the query; `watch` selects the watch validation rules.
Result<storage::ListOptions> ParseListOptions(const Query& query, bool watch);

// DeleteOptions from the decoded options body (DecodeOptionsBody) or, when `body` is null, from
// the query; a body means the query's delete options are ignored entirely, as in kube. Then
// kube's ValidateDeleteOptions: 422 DeleteOptions.meta.k8s.io.
Result<registry::DeleteOptions> ParseDeleteOptions(const Query& query, const nlohmann::json* body);
// The DeleteOptions of a DELETE or DELETECOLLECTION request: its body in any encoding kube accepts
// (JSON, YAML, protobuf; client-go's typed clients send protobuf), else its query.
Result<registry::DeleteOptions> ReadDeleteOptions(const HttpRequest& request, const Query& query);

struct WriteParams {
  bool dry_run = false;
  std::string field_validation;  // "Strict", "Warn" (also for ""), "Ignore"
  std::string field_manager;
};
// `verb_options` names the options kind in errors ("CreateOptions", "UpdateOptions", "PatchOptions").
Result<WriteParams> ParseWriteParams(const Query& query, std::string_view verb_options);

}  // namespace kube::endpoints
