// Options carried by a request, parsed and validated as kube does: ListOptions (selectors,
// resourceVersion rules: 422 ListOptions.meta.k8s.io), DeleteOptions (body first, else query),
// dryRun / fieldValidation / fieldManager / force for writes, and the manager a write is
// recorded under.
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

// kube's limit on a field manager's name (the fieldManager parameter, the User-Agent prefix).
inline constexpr size_t kFieldManagerMaxLength = 128;

struct WriteParams {
  bool dry_run = false;
  std::string field_validation;  // "Strict", "Warn" (also for ""), "Ignore"
  std::string field_manager;     // the fieldManager parameter, "" when not given
  std::optional<bool> force;     // the force parameter, when given
};
// `verb_options` names the options kind in errors ("CreateOptions", "UpdateOptions",
// "PatchOptions"); `apply` selects the rules of an apply patch (fieldManager required) over those
// of the other patches (force forbidden). Every problem is in one 422, as kube validates them.
Result<WriteParams> ParseWriteParams(const Query& query, std::string_view verb_options, bool apply = false);

// The manager a non-apply write is recorded under in managedFields: the fieldManager parameter,
// else kube's default from the User-Agent (its part before the first '/', printable characters
// only, at most 128 bytes; "" for no User-Agent, which the field manager records as "unknown").
std::string ManagerOrUserAgent(const WriteParams& params, std::string_view user_agent);

}  // namespace kube::endpoints
