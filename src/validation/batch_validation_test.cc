// batch/v1 validators: Job and CronJob tables.
#include "validation/groups_test_util.h"

namespace kube::validation::testing {
namespace {

constexpr const char* kUid = "0d3c1e6a-1111-2222-3333-444455556666";

// A Job as its strategy stores it: generated selector and the controller labels on its template.
json Job() {
  const json labels = {{"batch.kubernetes.io/controller-uid", kUid},
                       {"batch.kubernetes.io/job-name", "pi"},
                       {"controller-uid", kUid},
                       {"job-name", "pi"}};
  return {{"metadata", {{"name", "pi"}, {"namespace", "ns"}, {"uid", kUid}}},
          {"spec",
           {{"parallelism", 1},
            {"completions", 1},
            {"backoffLimit", 6},
            {"completionMode", "NonIndexed"},
            {"suspend", false},
            {"manualSelector", false},
            {"podReplacementPolicy", "TerminatingOrFailed"},
            {"selector", {{"matchLabels", {{"batch.kubernetes.io/controller-uid", kUid}}}}},
            {"template", PodTemplate(labels, "Never")}}}};
}

TEST_CASE("Job create") {
  CheckCreate("batch", "jobs", Job(),
              {
                  {"valid", json::object(), {}},
                  {"manual selector",
                   {{"spec", {{"manualSelector", true}, {"selector", {{"matchLabels", {{"job-name", "pi"}}}}}}}},
                   {}},
                  {"indexed", {{"spec", {{"completionMode", "Indexed"}, {"completions", 3}, {"backoffLimitPerIndex", 1}}}}, {}},
                  {"negative counts",
                   {{"spec", {{"parallelism", -1}, {"backoffLimit", -2}}}},
                   {"FieldValueInvalid spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
                    "FieldValueInvalid spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0"}},
                  {"restartPolicy Always",
                   {{"spec", {{"template", {{"spec", {{"restartPolicy", "Always"}}}}}}}},
                   {"FieldValueRequired spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", "
                    "\"Never\""}},
                  {"bad completion mode",
                   {{"spec", {{"completionMode", "Sometimes"}}}},
                   {"FieldValueNotSupported spec.completionMode: Unsupported value: \"Sometimes\": supported values: "
                    "\"NonIndexed\", \"Indexed\""}},
                  {"per-index limit without Indexed",
                   {{"spec", {{"backoffLimitPerIndex", 1}}}},
                   {"FieldValueInvalid spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"}},
                  {"manual selector missing",
                   {{"spec", {{"manualSelector", true}, {"selector", nullptr}}}},
                   {"FieldValueRequired spec.selector: Required value",
                    "FieldValueInvalid spec.template.metadata.labels: Invalid value: "
                    "{\"batch.kubernetes.io/controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"batch.kubernetes.io/job-name\":\"pi\",\"controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"job-name\":\"pi\"}: `selector` does not match template `labels`"}},
                  {"manual selector not matching",
                   {{"spec", {{"manualSelector", true}, {"selector", {{"matchLabels", {{"app", "x"}}}}}}}},
                   {"FieldValueInvalid spec.template.metadata.labels: Invalid value: "
                    "{\"batch.kubernetes.io/controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"batch.kubernetes.io/job-name\":\"pi\",\"controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"job-name\":\"pi\"}: `selector` does not match template `labels`"}},
                  {"generated label overridden",
                   {{"spec", {{"template", {{"metadata", {{"labels", {{"job-name", "other"}}}}}}}}}},
                   {"FieldValueInvalid spec.template.metadata.labels[job-name]: Invalid value: "
                    "{\"batch.kubernetes.io/controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"batch.kubernetes.io/job-name\":\"pi\",\"controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"job-name\":\"other\"}: must be 'pi'"}},
                  {"pod failure policy with OnFailure",
                   {{"spec",
                     {{"podReplacementPolicy", "Failed"},
                      {"podFailurePolicy", {{"rules", {{{"action", "FailJob"}, {"onExitCodes", {{"operator", "In"}, {"values", {1, 0}}}}}}}}},
                      {"template", {{"spec", {{"restartPolicy", "OnFailure"}}}}}}}},
                   {"FieldValueInvalid spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not "
                    "be 0 for the In operator",
                    "FieldValueInvalid spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [1,0]: must be "
                    "ordered",
                    "FieldValueInvalid spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is "
                    "supported when podFailurePolicy is specified"}},
                  {"pod failure rule without requirement",
                   {{"spec", {{"podReplacementPolicy", "Failed"}, {"podFailurePolicy", {{"rules", {{{"action", "Ignore"}}}}}}}}},
                   {"FieldValueInvalid spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and "
                    "OnPodConditions is required"}},
                  {"replacement policy with failure policy",
                   {{"spec",
                     {{"podFailurePolicy",
                       {{"rules", {{{"action", "Count"}, {"onPodConditions", {{{"type", "DisruptionTarget"}, {"status", "True"}}}}}}}}}}}},
                   {"FieldValueNotSupported spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\": "
                    "supported values: \"Failed\""}},
                  {"indexed hostname too long",
                   {{"metadata", {{"name", std::string(62, 'a')}}},
                    {"spec",
                     {{"completionMode", "Indexed"},
                      {"completions", 10},
                      {"selector", {{"matchLabels", {{"batch.kubernetes.io/controller-uid", kUid}}}}}}}},
                   {"FieldValueInvalid spec.template.metadata.labels[job-name]: Invalid value: "
                    "{\"batch.kubernetes.io/controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"batch.kubernetes.io/job-name\":\"pi\",\"controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"job-name\":\"pi\"}: must be '" + std::string(62, 'a') + "'",
                    "FieldValueInvalid spec.template.metadata.labels[batch.kubernetes.io/job-name]: Invalid value: "
                    "{\"batch.kubernetes.io/controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"batch.kubernetes.io/job-name\":\"pi\",\"controller-uid\":\"0d3c1e6a-1111-2222-3333-444455556666\","
                    "\"job-name\":\"pi\"}: must be '" + std::string(62, 'a') + "'",
                    "FieldValueInvalid metadata.name: Invalid value: \"" + std::string(62, 'a') +
                        "\": will not able to create pod with invalid DNS label: " + std::string(62, 'a') + "-9"}},
              });
}

TEST_CASE("Job update") {
  const std::string kTemplateImmutable = "FieldValueInvalid spec.template: Invalid value: ";
  CheckUpdate("batch", "jobs", Job(),
              {
                  {"parallelism", {{"spec", {{"parallelism", 3}}}}, {}},
                  {"completions",
                   {{"spec", {{"completions", 2}}}},
                   {"FieldValueInvalid spec.completions: Invalid value: 2: field is immutable"}},
                  {"suspend", {{"spec", {{"suspend", true}}}}, {}},
                  {"selector",
                   {{"spec", {{"selector", {{"matchLabels", {{"job-name", "pi"}}}}}}}},
                   {"FieldValueInvalid spec.selector: Invalid value: {\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":"
                    "\"0d3c1e6a-1111-2222-3333-444455556666\",\"job-name\":\"pi\"}}: field is immutable"}},
              });
  // A suspended Job that never started may change its scheduling directives, not its containers.
  json suspended = Job();
  suspended["spec"]["suspend"] = true;
  const KindValidator& v = ValidatorFor("batch", "jobs");
  json scheduled = Patched(suspended, {{"spec", {{"template", {{"spec", {{"nodeSelector", {{"zone", "a"}}}}}}}}}});
  CHECK(Lines(Render(v.update(scheduled, suspended))) == "");
  json started = suspended;
  started["status"]["startTime"] = "2026-01-01T00:00:00Z";
  const auto errors = Render(v.update(Patched(started, {{"spec", {{"template", {{"spec", {{"nodeSelector", {{"zone", "a"}}}}}}}}}}), started));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].rfind(kTemplateImmutable, 0) == 0);
  CHECK(errors[0].size() > 20);
  CHECK(errors[0].substr(errors[0].size() - 20) == ": field is immutable");
}

json CronJob() {
  return {{"metadata", {{"name", "nightly"}, {"namespace", "ns"}}},
          {"spec",
           {{"schedule", "0 3 * * *"},
            {"concurrencyPolicy", "Allow"},
            {"suspend", false},
            {"successfulJobsHistoryLimit", 3},
            {"failedJobsHistoryLimit", 1},
            {"jobTemplate", {{"spec", {{"template", PodTemplate({{"app", "n"}}, "OnFailure")}}}}}}}};
}

TEST_CASE("CronJob create") {
  CheckCreate("batch", "cronjobs", CronJob(),
              {
                  {"valid", json::object(), {}},
                  {"descriptor", {{"spec", {{"schedule", "@hourly"}}}}, {}},
                  {"every", {{"spec", {{"schedule", "@every 1h30m"}}}}, {}},
                  {"names and steps", {{"spec", {{"schedule", "*/15 9-17 * JAN-mar mon-FRI"}}}}, {}},
                  {"time zone", {{"spec", {{"timeZone", "Europe/Berlin"}}}}, {}},
                  {"no schedule", {{"spec", {{"schedule", ""}}}}, {"FieldValueRequired spec.schedule: Required value"}},
                  {"four fields",
                   {{"spec", {{"schedule", "0 3 * *"}}}},
                   {"FieldValueInvalid spec.schedule: Invalid value: \"0 3 * *\": expected exactly 5 fields, found 4: "
                    "[0 3 * *]"}},
                  {"hour out of range",
                   {{"spec", {{"schedule", "0 24 * * *"}}}},
                   {"FieldValueInvalid spec.schedule: Invalid value: \"0 24 * * *\": end of range (24) above maximum "
                    "(23): 24"}},
                  {"not a number",
                   {{"spec", {{"schedule", "x * * * *"}}}},
                   {"FieldValueInvalid spec.schedule: Invalid value: \"x * * * *\": failed to parse int from x: "
                    "strconv.Atoi: parsing \"x\": invalid syntax"}},
                  {"unknown descriptor",
                   {{"spec", {{"schedule", "@fortnightly"}}}},
                   {"FieldValueInvalid spec.schedule: Invalid value: \"@fortnightly\": unrecognized descriptor: "
                    "@fortnightly"}},
                  {"TZ in schedule",
                   {{"spec", {{"schedule", "TZ=UTC 0 3 * * *"}}}},
                   {"FieldValueInvalid spec.schedule: Invalid value: \"TZ=UTC 0 3 * * *\": cannot use TZ or CRON_TZ in "
                    "schedule, use timeZone field instead"}},
                  {"unknown zone",
                   {{"spec", {{"timeZone", "Mars/Olympus"}}}},
                   {"FieldValueInvalid spec.timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus"}},
                  {"zone with digits in a long part",
                   {{"spec", {{"timeZone", "America/Argentina_Buenos_Aires"}}}},
                   {"FieldValueInvalid spec.timeZone: Invalid value: \"America/Argentina_Buenos_Aires\": unknown time "
                    "zone America/Argentina_Buenos_Aires"}},
                  {"Local zone",
                   {{"spec", {{"timeZone", "Local"}}}},
                   {"FieldValueInvalid spec.timeZone: Invalid value: \"Local\": timeZone must be an explicit time zone "
                    "as defined in https://www.iana.org/time-zones"}},
                  {"concurrency policy",
                   {{"spec", {{"concurrencyPolicy", "Sometimes"}}}},
                   {"FieldValueNotSupported spec.concurrencyPolicy: Unsupported value: \"Sometimes\": supported values: "
                    "\"Allow\", \"Forbid\", \"Replace\""}},
                  {"negative deadline",
                   {{"spec", {{"startingDeadlineSeconds", -1}}}},
                   {"FieldValueInvalid spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"}},
                  {"template selector",
                   {{"spec", {{"jobTemplate", {{"spec", {{"selector", {{"matchLabels", {{"a", "b"}}}}}}}}}}}},
                   {"FieldValueInvalid spec.jobTemplate.spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\"}}: "
                    "`selector` will be auto-generated"}},
                  {"template restartPolicy",
                   {{"spec", {{"jobTemplate", {{"spec", {{"template", {{"spec", {{"restartPolicy", "Always"}}}}}}}}}}}},
                   {"FieldValueRequired spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "
                    "\"OnFailure\", \"Never\""}},
                  {"long name",
                   {{"metadata", {{"name", std::string(53, 'c')}}}},
                   {"FieldValueInvalid metadata.name: Invalid value: \"" + std::string(53, 'c') +
                    "\": must be no more than 52 characters"}},
              });
  // An update may keep a TZ= schedule it already had, but not add a time zone field to it.
  json legacy = CronJob();
  legacy["spec"]["schedule"] = "TZ=UTC 0 3 * * *";
  CheckUpdate("batch", "cronjobs", legacy,
              {
                  {"unchanged", json::object(), {}},
                  {"with timeZone",
                   {{"spec", {{"timeZone", "UTC"}}}},
                   {"FieldValueInvalid spec.schedule: Invalid value: \"TZ=UTC 0 3 * * *\": cannot use both timeZone "
                    "field and TZ or CRON_TZ in schedule"}},
              });
}

}  // namespace
}  // namespace kube::validation::testing
