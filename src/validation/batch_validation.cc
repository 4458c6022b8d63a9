// batch/v1: Job and CronJob, as kube's pkg/apis/batch/validation checks them with the options its
// registry strategies pass (prefixed job labels required on create, elastic indexed Jobs, and the
// scheduling directives of a suspended Job that never started left mutable).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "validation/cron_schedule.h"
#include "validation/group_primitives.h"
#include "validation/group_validators.h"
#include "validation/primitives.h"
#include "validation/workload_template.h"

namespace kube::validation {
namespace {

using nlohmann::json;

constexpr int64_t kMaxParallelismForIndexedJob = 100000;
constexpr int64_t kMaxFailedIndexesForIndexedJob = 100000;
constexpr int64_t kCompletionsSoftLimit = 100000;
constexpr int64_t kParallelismLimitForHighCompletions = 10000;
constexpr int64_t kMaxFailedIndexesLimitForHighCompletions = 10000;
constexpr size_t kMaxPodFailurePolicyRules = 20;
constexpr size_t kMaxOnExitCodesValues = 255;
constexpr size_t kMaxOnPodConditionsPatterns = 20;
constexpr size_t kMaxManagedByLength = 63;
constexpr size_t kMaxSuccessPolicyRules = 20;

constexpr const char* kControllerUidLabel = "batch.kubernetes.io/controller-uid";
constexpr const char* kJobNameLabel = "batch.kubernetes.io/job-name";
constexpr const char* kLegacyControllerUidLabel = "controller-uid";
constexpr const char* kLegacyJobNameLabel = "job-name";

void NonNegative(const json& obj, const char* key, const std::string& field, FieldErrors* errors) {
  if (auto v = IntField(obj, key)) Append(errors, ValidateNonnegativeField(*v, field));
}

FieldError OmitValueInvalid(std::string field, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), "", std::move(detail)};
}


// ---- Pod failure policy and success policy ----

void ValidateOnExitCodes(const json& on_exit, const std::string& path, const std::set<std::string>& containers,
                         FieldErrors* errors) {
  const std::string op = StringAt(on_exit, "operator");
  if (op.empty()) {
    errors->push_back(Required(Child(path, "operator"), "valid values: [\"In\" \"NotIn\"]"));
  } else if (op != "In" && op != "NotIn") {
    errors->push_back(NotSupported(Child(path, "operator"), op, {"In", "NotIn"}));
  }
  if (Has(on_exit, "containerName") && !containers.count(StringAt(on_exit, "containerName"))) {
    errors->push_back(Invalid(Child(path, "containerName"), StringAt(on_exit, "containerName"),
                              "must be one of the container or initContainer names in the pod template"));
  }
  const json values = ValueAt(on_exit, "values");
  const std::string values_path = Child(path, "values");
  const size_t n = values.is_array() ? values.size() : 0;
  if (n == 0) {
    errors->push_back(Invalid(values_path, values, "at least one value is required"));
  } else if (n > kMaxOnExitCodesValues) {
    errors->push_back(TooMany(values_path, static_cast<int64_t>(n), kMaxOnExitCodesValues));
  }
  bool ordered = true;
  std::set<int64_t> seen;
  for (size_t j = 0; j < n; ++j) {
    if (!values[j].is_number_integer()) continue;
    const int64_t v = values[j].get<int64_t>();
    if (op == "In" && v == 0) errors->push_back(Invalid(Index(values_path, j), v, "must not be 0 for the In operator"));
    if (!seen.insert(v).second) errors->push_back(Duplicate(Index(values_path, j), v));
    if (j > 0 && values[j - 1].is_number_integer() && values[j - 1].get<int64_t>() > v) ordered = false;
  }
  if (!ordered) errors->push_back(Invalid(values_path, values, "must be ordered"));
}

void ValidateOnPodConditions(const json& patterns, const std::string& path, FieldErrors* errors) {
  if (patterns.size() > kMaxOnPodConditionsPatterns) {
    errors->push_back(TooMany(path, static_cast<int64_t>(patterns.size()), kMaxOnPodConditionsPatterns));
  }
  for (size_t j = 0; j < patterns.size(); ++j) {
    const std::string p = Index(path, j);
    Append(errors, ValidateQualifiedName(StringAt(patterns[j], "type"), Child(p, "type")));
    const std::string status = StringAt(patterns[j], "status");
    if (status.empty()) {
      errors->push_back(Required(Child(p, "status"), "valid values: [\"False\" \"True\" \"Unknown\"]"));
    } else if (status != "False" && status != "True" && status != "Unknown") {
      errors->push_back(NotSupported(Child(p, "status"), status, {"False", "True", "Unknown"}));
    }
  }
}

void ValidatePodFailurePolicy(const json& spec, const std::string& path, FieldErrors* errors) {
  const json& rules = ArrayField(ObjectAt(spec, "podFailurePolicy"), "rules");
  const std::string rules_path = Child(path, "rules");
  if (rules.size() > kMaxPodFailurePolicyRules) {
    errors->push_back(TooMany(rules_path, static_cast<int64_t>(rules.size()), kMaxPodFailurePolicyRules));
  }
  std::set<std::string> containers;
  const json& pod_spec = ObjectAt(ObjectAt(spec, "template"), "spec");
  for (const char* list : {"containers", "initContainers"}) {
    for (const json& c : ArrayField(pod_spec, list)) containers.insert(StringAt(c, "name"));
  }
  for (size_t i = 0; i < rules.size(); ++i) {
    const json& rule = rules[i];
    const std::string rule_path = Index(rules_path, i);
    const std::string action = StringAt(rule, "action");
    if (action.empty()) {
      errors->push_back(
          Required(Child(rule_path, "action"), "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]"));
    } else if (action == "FailIndex") {
      if (!Has(spec, "backoffLimitPerIndex")) {
        errors->push_back(Invalid(Child(rule_path, "action"), action, "requires the backoffLimitPerIndex to be set"));
      }
    } else if (action != "Count" && action != "FailJob" && action != "Ignore") {
      errors->push_back(NotSupported(Child(rule_path, "action"), action, {"Count", "FailIndex", "FailJob", "Ignore"}));
    }
    const bool exit_codes = Has(rule, "onExitCodes");
    const json& conditions = ArrayField(rule, "onPodConditions");
    if (exit_codes) ValidateOnExitCodes(ObjectAt(rule, "onExitCodes"), Child(rule_path, "onExitCodes"), containers, errors);
    if (!conditions.empty()) ValidateOnPodConditions(conditions, Child(rule_path, "onPodConditions"), errors);
    if (exit_codes && !conditions.empty()) {
      errors->push_back(OmitValueInvalid(rule_path, "specifying both OnExitCodes and OnPodConditions is not supported"));
    }
    if (!exit_codes && conditions.empty()) {
      errors->push_back(OmitValueInvalid(rule_path, "specifying one of OnExitCodes and OnPodConditions is required"));
    }
  }
}

// validateIndexesFormat: "1,3-5,7" with ordered, non-overlapping intervals below `completions`;
// the number of indexes, or the parse error.
std::optional<std::string> IndexesError(const std::string& indexes, int64_t completions, int64_t* total) {
  *total = 0;
  if (indexes.empty()) return std::nullopt;
  int64_t last = -1;
  size_t start = 0;
  while (start <= indexes.size()) {
    size_t comma = indexes.find(',', start);
    const std::string interval = indexes.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t dash = interval.find('-');
    auto parse = [&](const std::string& s, int64_t* out) -> std::optional<std::string> {
      if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }) || s.size() > 18) {
        return "cannot parse integer index: \"" + s + "\"";
      }
      *out = std::stoll(s);
      if (*out >= completions) {
        return "too large index: \"" + s + "\"";
      }
      return std::nullopt;
    };
    int64_t x = 0, y = 0;
    if (auto e = parse(interval.substr(0, dash), &x)) return e;
    y = x;
    if (dash != std::string::npos) {
      if (auto e = parse(interval.substr(dash + 1), &y)) return e;
      if (x >= y) return "non-increasing order, previous: " + std::to_string(x) + ", current: " + std::to_string(y);
    }
    if (x <= last) return "non-increasing order, previous: " + std::to_string(last) + ", current: " + std::to_string(x);
    *total += y - x + 1;
    last = y;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return std::nullopt;
}

void ValidateSuccessPolicy(const json& spec, const std::string& path, FieldErrors* errors) {
  const json& rules = ArrayField(ObjectAt(spec, "successPolicy"), "rules");
  const std::string rules_path = Child(path, "rules");
  if (rules.empty()) {
    errors->push_back(Required(rules_path, "at least one rules must be specified when the successPolicy is specified"));
  }
  if (rules.size() > kMaxSuccessPolicyRules) {
    errors->push_back(TooMany(rules_path, static_cast<int64_t>(rules.size()), kMaxSuccessPolicyRules));
  }
  const int64_t completions = IntField(spec, "completions").value_or(0);
  for (size_t i = 0; i < rules.size(); ++i) {
    const json& rule = rules[i];
    const std::string rule_path = Index(rules_path, i);
    if (!Has(rule, "succeededCount") && !Has(rule, "succeededIndexes")) {
      errors->push_back(Required(rule_path, "at least one of succeededCount or succeededIndexes must be specified"));
    }
    int64_t total = 0;
    if (Has(rule, "succeededIndexes")) {
      const std::string indexes = StringAt(rule, "succeededIndexes");
      const std::string p = Child(rule_path, "succeededIndexes");
      if (indexes.size() > 64 * 1024) errors->push_back(TooLong(p, 64 * 1024));
      if (auto e = IndexesError(indexes, completions, &total)) {
        errors->push_back(Invalid(p, indexes, "error parsing succeededIndexes: " + *e));
      }
    }
    if (auto count = IntField(rule, "succeededCount")) {
      const std::string p = Child(rule_path, "succeededCount");
      Append(errors, ValidateNonnegativeField(*count, p));
      if (*count > completions) {
        errors->push_back(Invalid(p, *count, "must be less than or equal to " + std::to_string(completions) +
                                                 " (the number of specified completions)"));
      }
      if (Has(rule, "succeededIndexes") && *count > total) {
        errors->push_back(Invalid(p, *count, "must be less than or equal to " + std::to_string(total) +
                                                 " (the number of indexes in the specified succeededIndexes field)"));
      }
    }
  }
}

// ---- JobSpec ----

// validateJobSpec, at `path` ("spec", or "spec.jobTemplate.spec" for a CronJob).
void ValidateJobSpecFields(const json& spec, const std::string& path, FieldErrors* errors) {
  for (const char* key : {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                          "ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes"}) {
    NonNegative(spec, key, Child(path, key), errors);
  }
  const auto parallelism = IntField(spec, "parallelism");
  const auto completions = IntField(spec, "completions");
  const auto max_failed = IntField(spec, "maxFailedIndexes");
  const bool per_index = Has(spec, "backoffLimitPerIndex");
  if (max_failed && !per_index) {
    errors->push_back(Required(Child(path, "backoffLimitPerIndex"), "when maxFailedIndexes is specified"));
  }
  if (Has(spec, "managedBy")) {
    const std::string managed_by = StringAt(spec, "managedBy");
    Append(errors, IsDomainPrefixedPath(Child(path, "managedBy"), managed_by));
    if (managed_by.size() > kMaxManagedByLength) {
      errors->push_back(TooLong(Child(path, "managedBy"), kMaxManagedByLength));
    }
  }
  const std::string mode = StringAt(spec, "completionMode");
  if (Has(spec, "completionMode")) {
    if (mode != "NonIndexed" && mode != "Indexed") {
      errors->push_back(NotSupported(Child(path, "completionMode"), mode, {"NonIndexed", "Indexed"}));
    }
    if (mode == "Indexed") {
      if (!completions) errors->push_back(Required(Child(path, "completions"), "when completion mode is Indexed"));
      if (parallelism && *parallelism > kMaxParallelismForIndexedJob) {
        errors->push_back(Invalid(Child(path, "parallelism"), *parallelism,
                                  "must be less than or equal to 100000 when completion mode is Indexed"));
      }
      if (completions && max_failed && *max_failed > *completions) {
        errors->push_back(Invalid(Child(path, "maxFailedIndexes"), *max_failed, "must be less than or equal to completions"));
      }
      if (max_failed && *max_failed > kMaxFailedIndexesForIndexedJob) {
        errors->push_back(Invalid(Child(path, "maxFailedIndexes"), *max_failed, "must be less than or equal to 100000"));
      }
      if (completions && *completions > kCompletionsSoftLimit && per_index) {
        if (!max_failed) {
          errors->push_back(Required(Child(path, "maxFailedIndexes"), "must be specified when completions is above 100000"));
        }
        if (parallelism && *parallelism > kParallelismLimitForHighCompletions) {
          errors->push_back(Invalid(Child(path, "parallelism"), *parallelism,
                                    "must be less than or equal to 10000 when completions are above 100000 and used "
                                    "with backoff limit per index"));
        }
        if (max_failed && *max_failed > kMaxFailedIndexesLimitForHighCompletions) {
          errors->push_back(Invalid(Child(path, "maxFailedIndexes"), *max_failed,
                                    "must be less than or equal to 10000 when completions are above 100000 and used "
                                    "with backoff limit per index"));
        }
      }
    }
  }
  if (mode.empty() || mode == "NonIndexed") {
    if (auto v = IntField(spec, "backoffLimitPerIndex")) {
      errors->push_back(Invalid(Child(path, "backoffLimitPerIndex"), *v, "requires indexed completion mode"));
    }
    if (max_failed) errors->push_back(Invalid(Child(path, "maxFailedIndexes"), *max_failed, "requires indexed completion mode"));
  }
  const bool failure_policy = Has(spec, "podFailurePolicy");
  if (failure_policy) ValidatePodFailurePolicy(spec, Child(path, "podFailurePolicy"), errors);
  if (Has(spec, "successPolicy")) {
    if (mode != "Indexed") {
      errors->push_back(InvalidRendered(
          Child(path, "successPolicy"),
          RenderInternalStruct({{"Rules", ValueAt(ObjectAt(spec, "successPolicy"), "rules")}}),
          "requires indexed completion mode"));
    } else {
      ValidateSuccessPolicy(spec, Child(path, "successPolicy"), errors);
    }
  }
  if (Has(spec, "podReplacementPolicy")) {
    const std::string policy = StringAt(spec, "podReplacementPolicy");
    const std::string p = Child(path, "podReplacementPolicy");
    if (failure_policy) {
      if (policy != "Failed") errors->push_back(NotSupported(p, policy, {"Failed"}));
    } else if (policy != "Failed" && policy != "TerminatingOrFailed") {
      errors->push_back(NotSupported(p, policy, {"Failed", "TerminatingOrFailed"}));
    }
  }
  const json& tmpl = ObjectAt(spec, "template");
  Append(errors, ValidateWorkloadPodTemplate(tmpl, Child(path, "template")));
  const std::string restart = StringAt(ObjectAt(tmpl, "spec"), "restartPolicy");
  const std::string restart_path = Child(path, "template.spec.restartPolicy");
  if (restart == "Always" || restart.empty()) {
    errors->push_back(Required(restart_path, "valid values: \"OnFailure\", \"Never\""));
  } else if (restart != "OnFailure" && restart != "Never") {
    errors->push_back(NotSupported(restart_path, restart, {"OnFailure", "Never"}));
  } else if (failure_policy && restart != "Never") {
    errors->push_back(Invalid(restart_path, restart, "only \"Never\" is supported when podFailurePolicy is specified"));
  }
}

// The selector a Job's strategy generated (unless manualSelector): absent only when no strategy
// ran, in which case kube would have generated one and the checks below are skipped.
bool GeneratedSelector(const json& spec) {
  return !BoolAt(spec, "manualSelector") &&
         Has(ObjectAt(ObjectAt(spec, "selector"), "matchLabels"), kControllerUidLabel);
}

// ValidateJobSpec: the fields, then the selector and the template labels it must match.
FieldErrors ValidateJobSpec(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  ValidateJobSpecFields(spec, "spec", &errors);
  const json selector = ValueAt(spec, "selector");
  if (selector.is_null()) {
    if (BoolAt(spec, "manualSelector")) errors.push_back(Required("spec.selector"));
  } else {
    Append(&errors, ValidateLabelSelector(selector, "spec.selector"));
  }
  const bool skipped = selector.is_null() && !BoolAt(spec, "manualSelector");
  const json labels = ValueAt(ObjectAt(ObjectAt(spec, "template"), "metadata"), "labels");
  if (!skipped && SelectorConvertible(selector) && !(SelectorIsEmpty(selector) || SelectorMatches(selector, labels))) {
    errors.push_back(Invalid("spec.template.metadata.labels", labels, "`selector` does not match template `labels`"));
  }
  return errors;
}

// ValidateHasLabel on the pod template's metadata.
void HasTemplateLabel(const json& spec, const char* key, const std::string& expected, FieldErrors* errors) {
  const json labels = ValueAt(ObjectAt(ObjectAt(spec, "template"), "metadata"), "labels");
  const std::string path = std::string("spec.template.metadata.labels[") + key + "]";
  if (!Has(labels, key)) {
    errors->push_back(Required(path, expected));
  } else if (StringAt(labels, key) != expected) {
    errors->push_back(Invalid(path, labels, "must be '" + expected + "'"));
  }
}

FieldErrors ValidateJob(const json& obj) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  const json& meta = ObjectAt(obj, "metadata");
  const std::string name = StringAt(meta, "name");
  const std::string uid = StringAt(meta, "uid");
  if (GeneratedSelector(spec)) {
    if (uid.empty()) errors.push_back(Required("metadata.uid"));
    HasTemplateLabel(spec, kLegacyControllerUidLabel, uid, &errors);
    HasTemplateLabel(spec, kLegacyJobNameLabel, name, &errors);
    HasTemplateLabel(spec, kControllerUidLabel, uid, &errors);
    HasTemplateLabel(spec, kJobNameLabel, name, &errors);
    const json expected = {{kControllerUidLabel, uid}, {kJobNameLabel, name},
                           {kLegacyControllerUidLabel, uid}, {kLegacyJobNameLabel, name}};
    const json selector = ValueAt(spec, "selector");
    if (SelectorConvertible(selector) && !SelectorMatches(selector, expected)) {
      errors.push_back(Invalid("spec.selector", selector, "`selector` not auto-generated"));
    }
  }
  Append(&errors, ValidateJobSpec(obj));
  const auto completions = IntField(spec, "completions");
  if (StringAt(spec, "completionMode") == "Indexed" && completions && *completions > 0) {
    const std::string hostname = name + "-" + std::to_string(*completions - 1);
    if (!IsDns1123Label(hostname).empty()) {
      errors.push_back(Invalid("metadata.name", name, "will not able to create pod with invalid DNS label: " + hostname));
    }
  }
  return errors;
}

// The pod template of an update, with the scheduling directives of a suspended Job that never
// started taken from the new template (they may change then).
json ComparableOldTemplate(const json& obj, const json& old) {
  json old_template = ValueAt(ObjectAt(old, "spec"), "template");
  const bool suspended = BoolAt(ObjectAt(old, "spec"), "suspend");
  const bool started = Has(ObjectAt(old, "status"), "startTime");
  if (!suspended || started || !old_template.is_object()) return old_template;
  const json& tmpl = ObjectAt(ObjectAt(obj, "spec"), "template");
  auto take = [](json* into, const json& from, const char* key) {
    if (Has(from, key)) {
      (*into)[key] = from[key];
    } else {
      into->erase(key);
    }
  };
  json& old_meta = old_template["metadata"];
  if (!old_meta.is_object()) old_meta = json::object();
  take(&old_meta, ObjectAt(tmpl, "metadata"), "labels");
  take(&old_meta, ObjectAt(tmpl, "metadata"), "annotations");
  json& old_spec = old_template["spec"];
  if (!old_spec.is_object()) old_spec = json::object();
  const json& new_spec = ObjectAt(tmpl, "spec");
  for (const char* key : {"nodeSelector", "tolerations", "schedulingGates"}) take(&old_spec, new_spec, key);
  // Node affinity may change; the other affinities may not.
  const bool new_affinity = Has(new_spec, "affinity");
  const bool old_affinity = Has(old_spec, "affinity");
  if (!new_affinity && old_affinity) {
    old_spec["affinity"].erase("nodeAffinity");
    if (old_spec["affinity"].empty()) old_spec.erase("affinity");
  } else if (new_affinity && !old_affinity) {
    json affinity = json::object();
    if (Has(new_spec["affinity"], "nodeAffinity")) affinity["nodeAffinity"] = new_spec["affinity"]["nodeAffinity"];
    old_spec["affinity"] = affinity;
  } else if (new_affinity && old_affinity) {
    take(&old_spec["affinity"], new_spec["affinity"], "nodeAffinity");
  }
  return old_template;
}

FieldErrors ValidateJobUpdate(const json& obj, const json& old) {
  FieldErrors errors = ValidateJobSpec(obj);
  const json& spec = ObjectAt(obj, "spec");
  const json& old_spec = ObjectAt(old, "spec");
  const json completions = ValueAt(spec, "completions");
  const json old_completions = ValueAt(old_spec, "completions");
  if (StringAt(spec, "completionMode") != "Indexed") {
    Append(&errors, ValidateImmutableField(completions, old_completions, "spec.completions"));
  } else if (completions != old_completions && !completions.is_null() && completions != ValueAt(spec, "parallelism")) {
    errors.push_back(Invalid("spec.completions", completions, "can only be modified in tandem with spec.parallelism"));
  }
  Append(&errors, ValidateImmutableField(ValueAt(spec, "selector"), ValueAt(old_spec, "selector"), "spec.selector"));
  json tmpl = ValueAt(spec, "template");
  json old_tmpl = ComparableOldTemplate(obj, old);
  if (Without(tmpl, {}) != Without(old_tmpl, {})) {
    Append(&errors, ValidateImmutableField(tmpl, old_tmpl, "spec.template"));
  }
  for (const char* key : {"completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy", "successPolicy"}) {
    Append(&errors, ValidateImmutableField(ValueAt(spec, key), ValueAt(old_spec, key), "spec." + std::string(key)));
  }
  return errors;
}

FieldErrors ValidateJobStatusUpdate(const json& obj, const json& old) {
  FieldErrors errors;
  const json& status = ObjectAt(obj, "status");
  for (const char* key : {"active", "succeeded", "failed", "ready", "terminating"}) {
    NonNegative(status, key, "status." + std::string(key), &errors);
  }
  if (auto ready = IntField(status, "ready"); ready && *ready > IntField(status, "active").value_or(0)) {
    errors.push_back(Invalid("status.ready", *ready, "cannot set more ready pods than active"));
  }
  return errors;
}

// ---- CronJob ----

void ValidateTimeZone(const json& spec, FieldErrors* errors) {
  if (!Has(spec, "timeZone")) return;
  const std::string zone = StringAt(spec, "timeZone");
  const std::string path = "spec.timeZone";
  if (zone.empty()) {
    errors->push_back(Invalid(path, zone, "timeZone must be nil or non-empty string"));
    return;
  }
  size_t start = 0;
  while (true) {
    const size_t slash = zone.find('/', start);
    const std::string part = zone.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    const bool chars_ok = !part.empty() && part.size() <= 14 && std::all_of(part.begin(), part.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
             c == '_' || c == '+';
    });
    if (part == "." || part == ".." || (!part.empty() && part[0] == '-') || !chars_ok) {
      errors->push_back(Invalid(path, zone, "unknown time zone " + zone));
      return;
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::string lower = zone;
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower == "local") {
    errors->push_back(
        Invalid(path, zone, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"));
  }
  if (auto e = TimeZoneError(zone)) errors->push_back(Invalid(path, zone, *e));
}

FieldErrors ValidateCronJobSpec(const json& obj, const json* old) {
  FieldErrors errors;
  const json& spec = ObjectAt(obj, "spec");
  const json& old_spec = old != nullptr ? ObjectAt(*old, "spec") : EmptyObject();
  const std::string schedule = StringAt(spec, "schedule");
  if (schedule.empty()) {
    errors.push_back(Required("spec.schedule"));
  } else {
    if (auto e = CronScheduleError(schedule)) errors.push_back(Invalid("spec.schedule", schedule, *e));
    const bool allow_tz = old != nullptr && StringAt(old_spec, "schedule").find("TZ") != std::string::npos;
    const bool has_tz = schedule.find("TZ") != std::string::npos;
    if (allow_tz && has_tz && Has(spec, "timeZone")) {
      errors.push_back(Invalid("spec.schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
    } else if (!allow_tz && has_tz) {
      errors.push_back(
          Invalid("spec.schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
    }
  }
  NonNegative(spec, "startingDeadlineSeconds", "spec.startingDeadlineSeconds", &errors);
  if (old == nullptr || ValueAt(spec, "timeZone") != ValueAt(old_spec, "timeZone")) ValidateTimeZone(spec, &errors);
  const std::string policy = StringAt(spec, "concurrencyPolicy");
  if (policy.empty()) {
    errors.push_back(Required("spec.concurrencyPolicy"));
  } else if (policy != "Allow" && policy != "Forbid" && policy != "Replace") {
    errors.push_back(NotSupported("spec.concurrencyPolicy", policy, {"Allow", "Forbid", "Replace"}));
  }
  const json& job_spec = ObjectAt(ObjectAt(spec, "jobTemplate"), "spec");
  ValidateJobSpecFields(job_spec, "spec.jobTemplate.spec", &errors);
  if (Has(job_spec, "selector")) {
    errors.push_back(Invalid("spec.jobTemplate.spec.selector", job_spec["selector"], "`selector` will be auto-generated"));
  }
  if (BoolAt(job_spec, "manualSelector")) {
    errors.push_back(NotSupported("spec.jobTemplate.spec.manualSelector", true, {"nil", "false"}));
  }
  NonNegative(spec, "successfulJobsHistoryLimit", "spec.successfulJobsHistoryLimit", &errors);
  NonNegative(spec, "failedJobsHistoryLimit", "spec.failedJobsHistoryLimit", &errors);
  return errors;
}

FieldErrors ValidateCronJob(const json& obj) {
  FieldErrors errors = ValidateCronJobSpec(obj, nullptr);
  // The controller names each Job <cronjob>-<11 characters>, and Job names are DNS labels.
  const std::string name = StringAt(ObjectAt(obj, "metadata"), "name");
  if (name.size() > 52) errors.push_back(Invalid("metadata.name", name, "must be no more than 52 characters"));
  return errors;
}

FieldErrors ValidateCronJobUpdate(const json& obj, const json& old) { return ValidateCronJobSpec(obj, &old); }

}  // namespace

void AddBatchKinds(KindTable* table) {
  (*table)["batch/jobs"] = {ValidateJob, ValidateJobUpdate, ValidateJobStatusUpdate};
  (*table)["batch/cronjobs"] = {ValidateCronJob, ValidateCronJobUpdate, nullptr};
}

}  // namespace kube::validation
