// Options carried by a request, parsed and validated as kube does: ListOptions (selectors,
// resourceVersion rules: 422 ListOptions.meta.k8s.io), DeleteOptions (body first, else query),
// dryRun / fieldValidation / fieldManager for writes.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "endpoints/query.h"
#include "registry/store.h"
#include "storage/interface.h"

namespace kube::endpoints {

// List or watch options from the query; `watch` selects the watch validation rules.
Result<storage::ListOptions> ParseListOptions(const Query& query, bool watch);

Result<registry::DeleteOptions> ParseDeleteOptions(const Query& query, std::string_view body);

struct WriteParams {
  bool dry_run = false;
  std::string field_validation;  // "Strict", "Warn" (also for ""), "Ignore"
  std::string field_manager;
};
// `verb_options` names the options kind in errors ("CreateOptions", "UpdateOptions", "PatchOptions").
Result<WriteParams> ParseWriteParams(const Query& query, std::string_view verb_options);

}  // namespace kube::endpoints
