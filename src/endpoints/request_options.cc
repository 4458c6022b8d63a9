#include "endpoints/request_options.h"

#include <nlohmann/json.hpp>

#include <cstdio>

#include "endpoints/request_body.h"
#include "registry/errors.h"
#include "util/go_format.h"

namespace kube::endpoints {

using registry::FieldError;

namespace {

Status OptionsInvalid(std::string_view kind, registry::FieldErrors errors) {
  return registry::InvalidError("meta.k8s.io", kind, "", errors);
}

// The dryRun parameter: true when given ("All"); a value other than "All" adds an error, which
// names the whole list as kube's validation of the options' DryRun slice does (["All","x"]).
bool DryRun(const Query& query, registry::FieldErrors* errors) {
  const auto values = query.GetAll("dryRun");
  for (const auto& v : values) {
    if (v != "All") {
      errors->push_back(FieldError{FieldError::Type::kNotSupported, "dryRun", GoJsonMarshal(nlohmann::json(values)),
                                   "supported values: \"All\""});
      return false;
    }
  }
  return !values.empty();
}

Result<bool> DryRun(const Query& query, std::string_view kind) {
  registry::FieldErrors errors;
  const bool dry = DryRun(query, &errors);
  if (!errors.empty()) return OptionsInvalid(kind, errors);
  return dry;
}

}  // namespace

Result<storage::ListOptions> ParseListOptions(const Query& query, bool watch) {
  storage::ListOptions o;
  if (auto label = storage::LabelSelector::Parse(query.Get("labelSelector")); label.ok()) {
    o.predicate.label = std::move(*label);
  } else {
    return label.status();
  }
  if (auto field = storage::FieldSelector::Parse(query.Get("fieldSelector")); field.ok()) {
    o.predicate.field = std::move(*field);
  } else {
    return field.status();
  }
  auto limit = query.Int("limit");
  if (!limit.ok()) return limit.status();
  if (*limit && **limit > 0) o.predicate.limit = **limit;
  o.predicate.continue_token = query.Get("continue");
  o.predicate.allow_watch_bookmarks = query.Bool("allowWatchBookmarks");
  o.resource_version = query.Get("resourceVersion");
  o.resource_version_match = query.Get("resourceVersionMatch");
  if (query.Has("sendInitialEvents")) o.send_initial_events = query.Bool("sendInitialEvents");

  registry::FieldErrors errors;
  const std::string& rvm = o.resource_version_match;
  if (!watch) {
    if (o.send_initial_events) {
      errors.push_back(FieldError{FieldError::Type::kForbidden, "sendInitialEvents", "",
                                  "sendInitialEvents is forbidden for list"});
    }
    if (!rvm.empty()) {
      if (o.resource_version.empty()) {
        errors.push_back(FieldError{FieldError::Type::kForbidden, "resourceVersionMatch", "",
                                    "resourceVersionMatch is forbidden unless resourceVersion is provided"});
      }
      if (!o.predicate.continue_token.empty()) {
        errors.push_back(FieldError{FieldError::Type::kForbidden, "resourceVersionMatch", "",
                                    "resourceVersionMatch is forbidden when continue is provided"});
      }
      if (rvm != "Exact" && rvm != "NotOlderThan") {
        errors.push_back(FieldError{FieldError::Type::kNotSupported, "resourceVersionMatch", registry::GoQuote(rvm),
                                    "supported values: \"Exact\", \"NotOlderThan\", \"\""});
      } else if (rvm == "Exact" && o.resource_version == "0") {
        errors.push_back(FieldError{FieldError::Type::kForbidden, "resourceVersionMatch", "",
                                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""});
      }
    }
  } else {
    // Each rule kube's watch-options validation has adds its own cause, in its order.
    if (o.send_initial_events && rvm != "NotOlderThan") {
      errors.push_back(FieldError{FieldError::Type::kForbidden, "resourceVersionMatch", "",
                                  "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"});
    }
    if (!rvm.empty()) {
      if (!o.send_initial_events) {
        errors.push_back(FieldError{FieldError::Type::kForbidden, "resourceVersionMatch", "",
                                    "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"});
      }
      if (rvm != "NotOlderThan") {
        errors.push_back(FieldError{FieldError::Type::kNotSupported, "resourceVersionMatch", registry::GoQuote(rvm),
                                    "supported values: \"NotOlderThan\""});
      }
      if (!o.predicate.continue_token.empty()) {
        errors.push_back(FieldError{FieldError::Type::kForbidden, "resourceVersionMatch", "",
                                    "resourceVersionMatch is forbidden when continue is provided"});
      }
    }
  }
  if (!errors.empty()) return OptionsInvalid("ListOptions", errors);
  // The storage layer takes "" for the match when it carries no meaning.
  if (watch) o.resource_version_match.clear();
  return o;
}

Result<registry::DeleteOptions> ParseDeleteOptions(const Query& query, const nlohmann::json* body) {
  registry::DeleteOptions o;
  std::optional<bool> orphan;
  // Go decodes into pointers: a field that is present counts, even with its zero value.
  bool has_policy = false;
  if (body != nullptr) {
    const nlohmann::json& j = *body;
    if (auto g = j.find("gracePeriodSeconds"); g != j.end() && g->is_number_integer()) {
      o.grace_period_seconds = g->get<int64_t>();
    }
    if (auto p = j.find("propagationPolicy"); p != j.end() && p->is_string()) {
      o.propagation_policy = *p;
      has_policy = true;
    }
    if (auto od = j.find("orphanDependents"); od != j.end() && od->is_boolean()) orphan = od->get<bool>();
    if (auto pre = j.find("preconditions"); pre != j.end() && pre->is_object()) {
      if (auto uid = pre->find("uid"); uid != pre->end() && uid->is_string()) o.preconditions.uid = *uid;
      if (auto rv = pre->find("resourceVersion"); rv != pre->end() && rv->is_string()) {
        o.preconditions.resource_version = *rv;
      }
    }
    if (auto dr = j.find("dryRun"); dr != j.end() && dr->is_array()) {
      for (const auto& v : *dr) {
        if (v != "All") {
          return OptionsInvalid("DeleteOptions", {FieldError{FieldError::Type::kNotSupported, "dryRun",
                                                             GoJsonMarshal(*dr), "supported values: \"All\""}});
        }
        o.dry_run = true;
      }
    }
  } else {
    auto grace = query.Int("gracePeriodSeconds");
    if (!grace.ok()) return grace.status();
    o.grace_period_seconds = *grace;
    o.propagation_policy = query.Get("propagationPolicy");
    has_policy = !o.propagation_policy.empty();
    if (query.Has("orphanDependents")) orphan = query.Bool("orphanDependents");
    auto dry = DryRun(query, "DeleteOptions");
    if (!dry.ok()) return dry.status();
    o.dry_run = *dry;
  }
  registry::FieldErrors errors;
  if (orphan && has_policy) {
    errors.push_back(FieldError{FieldError::Type::kInvalid, "propagationPolicy", registry::GoQuote(o.propagation_policy),
                                "orphanDependents and deletionPropagation cannot be both set"});
  }
  const std::string& p = o.propagation_policy;
  if (has_policy && p != "Orphan" && p != "Background" && p != "Foreground") {
    errors.push_back(FieldError{FieldError::Type::kNotSupported, "propagationPolicy", registry::GoQuote(p),
                                "supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""});
  }
  if (!errors.empty()) return OptionsInvalid("DeleteOptions", errors);
  return o;
}

Result<registry::DeleteOptions> ReadDeleteOptions(const HttpRequest& request, const Query& query) {
  if (!HasBody(request)) return ParseDeleteOptions(query, nullptr);
  auto body = DecodeOptionsBody(request, "DeleteOptions");
  if (!body.ok()) return body.status();
  return ParseDeleteOptions(query, &*body);
}

Result<WriteParams> ParseWriteParams(const Query& query, std::string_view verb_options, bool apply) {
  // kube's ValidateCreateOptions / ValidateUpdateOptions / ValidatePatchOptions: every problem in
  // one 422, in their order.
  WriteParams p;
  registry::FieldErrors errors;
  p.field_manager = query.Get("fieldManager");
  if (query.Has("force")) p.force = query.Bool("force");
  if (apply && p.field_manager.empty()) {
    // kubectl defaults it; controllers have to name themselves.
    errors.push_back(FieldError{FieldError::Type::kRequired, "fieldManager", "", "is required for apply patch"});
  }
  if (!apply && p.force && verb_options == "PatchOptions") {
    errors.push_back(
        FieldError{FieldError::Type::kForbidden, "force", "", "may not be specified for non-apply patch"});
  }
  if (p.field_manager.size() > kFieldManagerMaxLength) {
    errors.push_back(FieldError{FieldError::Type::kTooLong, "fieldManager", "", "must have at most 128 characters"});
  }
  for (size_t i = 0; i < p.field_manager.size();) {
    auto [r, n] = GoDecodeRune(p.field_manager, i);
    if (!GoIsPrint(r)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "invalid character U+%04X (at position %zu)", static_cast<unsigned>(r), i);
      errors.push_back(FieldError{FieldError::Type::kInvalid, "fieldManager", registry::GoQuote(p.field_manager), buf});
    }
    i += n;
  }
  p.dry_run = DryRun(query, &errors);
  p.field_validation = query.Get("fieldValidation");
  if (!p.field_validation.empty() && p.field_validation != "Strict" && p.field_validation != "Warn" &&
      p.field_validation != "Ignore") {
    errors.push_back(FieldError{FieldError::Type::kNotSupported, "fieldValidation", registry::GoQuote(p.field_validation),
                                "supported values: \"Ignore\", \"Strict\", \"Warn\""});
  }
  if (!errors.empty()) return OptionsInvalid(verb_options, errors);
  if (p.field_validation.empty()) p.field_validation = "Warn";
  return p;
}

std::string ManagerOrUserAgent(const WriteParams& params, std::string_view user_agent) {
  if (!params.field_manager.empty()) return params.field_manager;
  // kube's prefixFromUserAgent: up to the first '/', printable runes only, whole runes within
  // the length limit.
  const std::string_view prefix = user_agent.substr(0, user_agent.find('/'));
  std::string out;
  for (size_t i = 0; i < prefix.size();) {
    auto [r, n] = GoDecodeRune(prefix, i);
    const std::string_view bytes = r == 0xFFFD && n == 1 ? std::string_view("\xEF\xBF\xBD") : prefix.substr(i, n);
    i += n;
    if (!GoIsPrint(r)) continue;
    if (out.size() + bytes.size() > kFieldManagerMaxLength) break;
    out += bytes;
  }
  return out;
}

}  // namespace kube::endpoints
