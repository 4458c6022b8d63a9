// admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration,
// as kube's pkg/apis/admissionregistration/validation checks them (with the update options that
// keep stored configurations updatable: rules the old object already broke are not enforced).
// Match conditions (CEL) are not compiled here.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/primitives.h"
#include "validation/webhook_client.h"

namespace kube::validation {
namespace {

using nlohmann::json;

std::string At(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::vector<std::string> Strings(const json& obj, const char* key) {
  std::vector<std::string> out;
  for (const json& v : ArrayField(obj, key)) out.push_back(v.is_string() ? v.get<std::string>() : "");
  return out;
}

bool HasWildcard(const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), "*") != v.end(); }

void ValidateResources(const json& rule, const std::string& path, FieldErrors* errors) {
  const auto resources = Strings(rule, "resources");
  if (resources.empty()) errors->push_back(Required(path));
  std::set<std::string> with_wildcard_sub, sub_with_wildcard_res;
  bool double_wildcard = false, single_wildcard = false, without_sub = false;
  for (size_t i = 0; i < resources.size(); ++i) {
    const std::string& rs = resources[i];
    if (rs.empty()) {
      errors->push_back(Required(At(path, i)));
      continue;
    }
    if (rs == "*/*") double_wildcard = true;
    if (rs == "*") single_wildcard = true;
    const size_t slash = rs.find('/');
    if (slash == std::string::npos) {
      without_sub = rs != "*";
      continue;
    }
    const std::string res = rs.substr(0, slash), sub = rs.substr(slash + 1);
    if (with_wildcard_sub.count(res)) {
      errors->push_back(Invalid(At(path, i), rs, "if '" + res + "/*' is present, must not specify " + rs));
    }
    if (sub_with_wildcard_res.count(sub)) {
      errors->push_back(Invalid(At(path, i), rs, "if '*/" + sub + "' is present, must not specify " + rs));
    }
    if (sub == "*") with_wildcard_sub.insert(res);
    if (res == "*") sub_with_wildcard_res.insert(sub);
  }
  if (resources.size() > 1 && double_wildcard) {
    errors->push_back(Invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  }
  if (single_wildcard && without_sub) {
    errors->push_back(Invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  }
}

void ValidateRuleWithOperations(const json& rule, const std::string& path, FieldErrors* errors) {
  const auto ops = Strings(rule, "operations");
  if (ops.empty()) errors->push_back(Required(path + ".operations"));
  if (ops.size() > 1 && HasWildcard(ops)) {
    errors->push_back(Invalid(path + ".operations", ops, "if '*' is present, must not specify other operations"));
  }
  static const std::vector<std::string> kOps = {"*", "CONNECT", "CREATE", "DELETE", "UPDATE"};
  for (size_t i = 0; i < ops.size(); ++i) {
    if (std::find(kOps.begin(), kOps.end(), ops[i]) == kOps.end()) {
      errors->push_back(NotSupported(At(path + ".operations", i), ops[i], kOps));
    }
  }
  const auto groups = Strings(rule, "apiGroups");
  if (groups.empty()) errors->push_back(Required(path + ".apiGroups"));
  if (groups.size() > 1 && HasWildcard(groups)) {
    errors->push_back(Invalid(path + ".apiGroups", groups, "if '*' is present, must not specify other API groups"));
  }
  const auto versions = Strings(rule, "apiVersions");
  if (versions.empty()) errors->push_back(Required(path + ".apiVersions"));
  if (versions.size() > 1 && HasWildcard(versions)) {
    errors->push_back(Invalid(path + ".apiVersions", versions, "if '*' is present, must not specify other API versions"));
  }
  for (size_t i = 0; i < versions.size(); ++i) {
    if (versions[i].empty()) errors->push_back(Required(At(path + ".apiVersions", i)));
  }
  ValidateResources(rule, path + ".resources", errors);
  if (Has(rule, "scope")) {
    const std::string scope = StringAt(rule, "scope");
    if (scope != "*" && scope != "Cluster" && scope != "Namespaced") {
      errors->push_back(NotSupported(path + ".scope", scope, {"*", "Cluster", "Namespaced"}));
    }
  }
}

// What an update keeps allowing because the stored configuration already relied on it.
struct Options {
  bool require_no_side_effects = true;
  bool require_recognized_review_version = true;
  bool require_unique_names = true;
};

bool IsAcceptedReviewVersion(const std::string& v) { return v == "v1" || v == "v1beta1"; }

void ValidateReviewVersions(const json& hook, bool require_recognized, const std::string& path, FieldErrors* errors) {
  const auto versions = Strings(hook, "admissionReviewVersions");
  if (versions.empty()) {
    errors->push_back(Required(path, "must specify one of v1, v1beta1"));
    return;
  }
  std::set<std::string> seen;
  bool accepted = false;
  for (size_t i = 0; i < versions.size(); ++i) {
    if (!seen.insert(versions[i]).second) {
      errors->push_back(Invalid(At(path, i), versions[i], "duplicate version"));
      continue;
    }
    for (const auto& msg : IsDns1035Label(versions[i])) errors->push_back(Invalid(At(path, i), versions[i], msg));
    accepted = accepted || IsAcceptedReviewVersion(versions[i]);
  }
  if (require_recognized && !accepted) {
    errors->push_back(Invalid(path, versions, "must include at least one of v1, v1beta1"));
  }
}

// IsFullyQualifiedName: a subdomain of at least three labels.
void ValidateHookName(const std::string& name, const std::string& path, FieldErrors* errors) {
  if (name.empty()) {
    errors->push_back(Required(path));
    return;
  }
  if (auto errs = IsDns1123Subdomain(name); !errs.empty()) {
    std::string joined;
    for (size_t i = 0; i < errs.size(); ++i) joined += (i ? "," : "") + errs[i];
    errors->push_back(Invalid(path, name, joined));
    return;
  }
  if (std::count(name.begin(), name.end(), '.') < 2) {
    errors->push_back(Invalid(path, name, "should be a domain with at least three segments separated by dots"));
  }
}

void ValidateHook(const json& hook, bool mutating, const Options& opts, const std::string& path, FieldErrors* errors) {
  ValidateHookName(StringAt(hook, "name"), path + ".name", errors);
  const json& rules = ArrayField(hook, "rules");
  for (size_t i = 0; i < rules.size(); ++i) ValidateRuleWithOperations(rules[i], At(path + ".rules", i), errors);
  if (Has(hook, "failurePolicy")) {
    const std::string v = StringAt(hook, "failurePolicy");
    if (v != "Fail" && v != "Ignore") errors->push_back(NotSupported(path + ".failurePolicy", v, {"Fail", "Ignore"}));
  }
  if (Has(hook, "matchPolicy")) {
    const std::string v = StringAt(hook, "matchPolicy");
    if (v != "Equivalent" && v != "Exact") errors->push_back(NotSupported(path + ".matchPolicy", v, {"Equivalent", "Exact"}));
  }
  const std::vector<std::string> allowed = opts.require_no_side_effects
                                               ? std::vector<std::string>{"None", "NoneOnDryRun"}
                                               : std::vector<std::string>{"None", "NoneOnDryRun", "Some", "Unknown"};
  if (!Has(hook, "sideEffects")) {
    errors->push_back(Required(path + ".sideEffects", opts.require_no_side_effects
                                                          ? "must specify one of None, NoneOnDryRun"
                                                          : "must specify one of None, NoneOnDryRun, Some, Unknown"));
  } else {
    const std::string v = StringAt(hook, "sideEffects");
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
      errors->push_back(NotSupported(path + ".sideEffects", v, allowed));
    }
  }
  if (auto t = IntField(hook, "timeoutSeconds"); t && (*t > 30 || *t < 1)) {
    errors->push_back(Invalid(path + ".timeoutSeconds", *t, "the timeout value must be between 1 and 30 seconds"));
  }
  for (const char* key : {"namespaceSelector", "objectSelector"}) {
    if (Has(hook, key)) Append(errors, ValidateLabelSelector(hook[key], path + "." + key));
  }
  if (mutating && Has(hook, "reinvocationPolicy")) {
    const std::string v = StringAt(hook, "reinvocationPolicy");
    if (v != "IfNeeded" && v != "Never") errors->push_back(NotSupported(path + ".reinvocationPolicy", v, {"IfNeeded", "Never"}));
  }
  Append(errors, ValidateWebhookClientConfig(ObjectAt(hook, "clientConfig"), path + ".clientConfig"));
}

FieldErrors ValidateConfiguration(const json& obj, bool mutating, const Options& opts) {
  FieldErrors errors;
  const json& hooks = ArrayField(obj, "webhooks");
  std::set<std::string> names;
  for (size_t i = 0; i < hooks.size(); ++i) {
    const std::string path = At("webhooks", i);
    ValidateHook(hooks[i], mutating, opts, path, &errors);
    ValidateReviewVersions(hooks[i], opts.require_recognized_review_version, path + ".admissionReviewVersions", &errors);
    const std::string name = StringAt(hooks[i], "name");
    if (opts.require_unique_names && !name.empty() && !names.insert(name).second) {
      errors.push_back(Duplicate(path + ".name", name));
    }
  }
  return errors;
}

Options UpdateOptions(const json& old) {
  Options opts;
  std::set<std::string> names;
  for (const json& hook : ArrayField(old, "webhooks")) {
    const std::string side = StringAt(hook, "sideEffects");
    if (side != "None" && side != "NoneOnDryRun") opts.require_no_side_effects = false;
    const auto versions = Strings(hook, "admissionReviewVersions");
    if (!versions.empty() && std::none_of(versions.begin(), versions.end(), IsAcceptedReviewVersion)) {
      opts.require_recognized_review_version = false;
    }
    if (!names.insert(StringAt(hook, "name")).second) opts.require_unique_names = false;
  }
  return opts;
}

FieldErrors ValidateValidating(const json& obj) { return ValidateConfiguration(obj, false, Options{}); }
FieldErrors ValidateValidatingUpdate(const json& obj, const json& old) {
  return ValidateConfiguration(obj, false, UpdateOptions(old));
}
FieldErrors ValidateMutating(const json& obj) { return ValidateConfiguration(obj, true, Options{}); }
FieldErrors ValidateMutatingUpdate(const json& obj, const json& old) {
  return ValidateConfiguration(obj, true, UpdateOptions(old));
}

}  // namespace

void AddAdmissionKinds(KindTable* table) {
  (*table)["admissionregistration.k8s.io/validatingwebhookconfigurations"] = {ValidateValidating,
                                                                              ValidateValidatingUpdate, nullptr};
  (*table)["admissionregistration.k8s.io/mutatingwebhookconfigurations"] = {ValidateMutating, ValidateMutatingUpdate,
                                                                            nullptr};
}

}  // namespace kube::validation
