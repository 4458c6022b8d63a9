// cel_bench: x-kubernetes-validations on the schema of testdata/cel/backups-crd.yaml (14 rules of a
// real operator's shape): compile time per rule (ValidationRules::Compile, as when a CRD version
// starts being served), and evaluation time per object (every rule of a valid object, as on each
// write) against nlohmann::json::parse of the same object's text, measured in the same run. The
// target is evaluation well under the cost of decoding the object. A failed check (a rule refusing
// the valid object, or refusing nothing on an invalid one) prints "CHECK FAILED" and makes the exit
// status 1.
//
// Then, one rule at a time (a schema with only that rule), the time of Validate for the object: the
// rule with its walk and the conversion of its node's value, to show which rules cost what.
//
// Usage: cel_bench                  the figures
//        cel_bench eval|parse N   only N evaluations (or N parses) of the object, untimed: for
//                                 profilers and instruction counts (perf stat -e instructions),
//                                 which a loaded machine does not skew
//        cel_bench create|update N  the same for a create, and for an update whose old object is
//                                 a document of its own
//        cel_bench rule K N       only N evaluations of rule K alone (0-based, in the order of the
//                                 per-rule table), untimed, as above
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "apiextensions/validation_rules.h"
#include "bench_util.h"
#include "schema/graph.h"

namespace {

using namespace kube::bench;
using nlohmann::json;

constexpr int kRounds = 5;
constexpr int kCompiles = 200;
constexpr int kEvals = 20000;

// The CRD's openAPIV3Schema, as the YAML in testdata/cel gives it.
constexpr const char* kSchema = R"j({"type":"object","x-kubernetes-validations":[{"rule":"self.metadata.name.size() <= 40","message":"backup names are at most 40 characters"}],"properties":{"spec":{"type":"object","required":["source","retention"],"x-kubernetes-validations":[{"rule":"self.retention.minCopies <= self.retention.maxCopies","message":"minCopies must not exceed maxCopies","fieldPath":".retention.minCopies"},{"rule":"!has(self.schedule) || !has(self.manual) || !self.manual","message":"a manual backup has no schedule"},{"rule":"!has(self.targets) || self.targets.all(t, self.targets.exists_one(u, u.name == t.name))","message":"target names must be unique"},{"rule":"!has(self.window) || self.window.end > self.window.start","messageExpression":"'window must end after it starts (' + string(self.window.start) + ')'"}],"properties":{"source":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"source is immutable"},{"rule":"self.startsWith('pvc/') || self.startsWith('db/')","messageExpression":"'source must name a pvc/ or db/, not ' + self.split('/')[0]"}]},"manual":{"type":"boolean"},"schedule":{"type":"string","x-kubernetes-validations":[{"rule":"self.split(' ').size() == 5","message":"schedule must have five cron fields"}]},"retention":{"type":"object","properties":{"minCopies":{"type":"integer"},"maxCopies":{"type":"integer"}}},"window":{"type":"object","properties":{"start":{"type":"string","format":"date-time"},"end":{"type":"string","format":"date-time"}}},"tags":{"type":"array","items":{"type":"string"},"x-kubernetes-validations":[{"rule":"self.all(t, t == t.lowerAscii())","message":"tags are lower case","reason":"FieldValueForbidden"}]},"size":{"type":"string","maxLength":32,"x-kubernetes-validations":[{"rule":"isQuantity(self) && quantity(self).compareTo(quantity('1Ti')) <= 0","messageExpression":"'size must be a quantity of at most 1Ti, not ' + self"}]},"allowFrom":{"type":"array","maxItems":8,"items":{"type":"string","maxLength":43},"x-kubernetes-validations":[{"rule":"self.all(c, isCIDR(c) && cidr(c).ip().family() == 4)","message":"allowFrom holds IPv4 CIDRs"}]},"endpoint":{"type":"string","maxLength":256,"x-kubernetes-validations":[{"rule":"isURL(self) && url(self).getScheme() == 'https'","message":"endpoint must be an https URL"}]},"targets":{"type":"array","items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"weight":{"type":"integer"}}},"x-kubernetes-validations":[{"rule":"self.map(t, has(t.weight) ? t.weight : 1).sum() <= 100","message":"target weights add up to at most 100"}]}}},"status":{"type":"object","properties":{"generation":{"type":"integer","x-kubernetes-validations":[{"rule":"!oldSelf.hasValue() || self >= oldSelf.value()","optionalOldSelf":true,"message":"status generation never decreases"}]}}}}})j";

constexpr const char* kObject = R"j({"apiVersion":"ops.example.com/v1","kind":"Backup","metadata":{"name":"b1","namespace":"default","uid":"7c9e6679-7425-40de-944b-e07fc1f90ae7","resourceVersion":"42","generation":1,"creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"db","tier":"backend"}},"spec":{"source":"pvc/data","retention":{"minCopies":1,"maxCopies":3},"schedule":"0 2 * * *","tags":["nightly","db","critical"],"targets":[{"name":"a","weight":60},{"name":"b","weight":30},{"name":"c","weight":10}],"window":{"start":"2026-01-01T01:00:00Z","end":"2026-01-01T03:00:00Z"},"size":"500Gi","allowFrom":["10.0.0.0/8","192.168.0.0/16"],"endpoint":"https://backup.example.com/v1"},"status":{"generation":1}})j";

// Every rule of `schema` as (JSON pointer of its node, index): in schema order, depth first.
void FindRules(const json& schema, const std::string& at, std::vector<std::pair<std::string, size_t>>* out) {
  if (!schema.is_object()) return;
  if (auto r = schema.find("x-kubernetes-validations"); r != schema.end()) {
    for (size_t i = 0; i < r->size(); ++i) out->emplace_back(at, i);
  }
  if (auto p = schema.find("properties"); p != schema.end()) {
    for (auto it = p->begin(); it != p->end(); ++it) FindRules(*it, at + "/properties/" + it.key(), out);
  }
  if (auto items = schema.find("items"); items != schema.end()) FindRules(*items, at + "/items", out);
}

// `schema` with every rule removed but rule `index` of the node at `pointer`.
json OnlyRule(json schema, const std::string& pointer, size_t index) {
  const json keep = schema.at(json::json_pointer(pointer)).at("x-kubernetes-validations").at(index);
  std::vector<std::pair<std::string, size_t>> all;
  FindRules(schema, "", &all);
  for (const auto& [at, i] : all) schema.at(json::json_pointer(at)).erase("x-kubernetes-validations");
  schema.at(json::json_pointer(pointer))["x-kubernetes-validations"] = json::array({keep});
  return schema;
}

}  // namespace

int main(int argc, char** argv) {
  auto graph = kube::schema::SchemaGraph::FromOpenAPIV3(json::parse(kSchema));
  if (!graph.ok()) {
    std::printf("CHECK FAILED: schema: %s\n", graph.status().message().c_str());
    return 1;
  }
  const kube::schema::Schema* root = (*graph)->Root();
  std::vector<std::pair<std::string, size_t>> rule_places;
  FindRules(json::parse(kSchema), "", &rule_places);
  const int rules = static_cast<int>(rule_places.size());
  const std::string text = kObject;
  const json obj = json::parse(text);
  // An update's old object: equal to the new one, but a document of its own, as a server has it.
  const json old_obj = json::parse(text);
  int failures = 0;

  // Checks before timing: the valid object passes, an invalid one does not.
  auto compiled = kube::apiextensions::ValidationRules::Compile(root);
  kube::FieldErrors errs;
  compiled->Validate(obj, &obj, &errs);
  if (!errs.empty()) {
    std::printf("CHECK FAILED: the valid object is refused: %s\n", errs[0].Body().c_str());
    ++failures;
  }
  json bad = obj;
  bad["spec"]["targets"][0]["weight"] = 99;
  errs.clear();
  compiled->Validate(bad, nullptr, &errs);
  if (errs.size() != 1) {
    std::printf("CHECK FAILED: the invalid object gave %zu errors\n", errs.size());
    ++failures;
  }

  if (argc == 4 && std::string(argv[1]) == "rule") {
    const json full_schema = json::parse(kSchema);
    std::vector<std::pair<std::string, size_t>> all;
    FindRules(full_schema, "", &all);
    const size_t k = std::strtoul(argv[2], nullptr, 10);
    if (k >= all.size()) {
      std::printf("no rule %zu: there are %zu\n", k, all.size());
      return 2;
    }
    auto one = kube::schema::SchemaGraph::FromOpenAPIV3(OnlyRule(full_schema, all[k].first, all[k].second));
    if (!one.ok()) return 2;
    auto rule = kube::apiextensions::ValidationRules::Compile((*one)->Root());
    const long n = std::atol(argv[3]);
    size_t sink = 0;
    for (long i = 0; i < n; ++i) {
      kube::FieldErrors e;
      rule->Validate(obj, &obj, &e);
      sink += e.size();
    }
    std::printf("rule %zu x %ld (sink %zu)\n", k, n, sink);
    return failures == 0 ? 0 : 1;
  }
  if (argc == 3) {
    const std::string mode = argv[1];
    const long n = std::atol(argv[2]);
    size_t sink = 0;
    for (long i = 0; i < n; ++i) {
      if (mode == "eval" || mode == "create" || mode == "update") {
        kube::FieldErrors e;
        compiled->Validate(obj, mode == "eval" ? &obj : mode == "update" ? &old_obj : nullptr, &e);
        sink += e.size();
      } else {
        sink += json::parse(text).size();
      }
    }
    std::printf("%s x %ld (sink %zu)\n", mode.c_str(), n, sink);
    return failures == 0 ? 0 : 1;
  }

  std::vector<double> compile_us, eval_us, create_us, update_us, parse_us;
  size_t sink = 0;
  auto time_validate = [&](const json* old) {
    const auto start = Clock::now();
    for (int i = 0; i < kEvals; ++i) {
      kube::FieldErrors e;
      compiled->Validate(obj, old, &e);
      sink += e.size();
    }
    return MicrosBetween(start, Clock::now()) / kEvals;
  };
  for (int round = 0; round < kRounds; ++round) {
    auto start = Clock::now();
    for (int i = 0; i < kCompiles; ++i) sink += kube::apiextensions::ValidationRules::Compile(root) != nullptr;
    compile_us.push_back(MicrosBetween(start, Clock::now()) / (kCompiles * rules));
    eval_us.push_back(time_validate(&obj));
    create_us.push_back(time_validate(nullptr));
    update_us.push_back(time_validate(&old_obj));
    start = Clock::now();
    for (int i = 0; i < kEvals; ++i) sink += json::parse(text).size();
    parse_us.push_back(MicrosBetween(start, Clock::now()) / kEvals);
  }
  const double compile = Median(compile_us), eval = Median(eval_us), parse = Median(parse_us);
  std::printf("cel_bench: %d rules, object %zu bytes (median of %d rounds)\n", rules, text.size(), kRounds);
  std::printf("  compile per rule          %8.2f us\n", compile);
  std::printf("  evaluate all rules/object %8.2f us  (%.2f us per rule)\n", eval, eval / rules);
  std::printf("  JSON parse of the object  %8.2f us\n", parse);
  std::printf("  evaluation / JSON decode  %8.2f x\n", eval / parse);
  // The same rules on a create (transition rules do not run) and on an update whose old object
  // is a document of its own (looked up beside the new one, and compared where rules read oldSelf).
  const double create = Median(create_us), update = Median(update_us);
  std::printf("  on create                 %8.2f us  (%.2f x the decode)\n", create, create / parse);
  std::printf("  on update, old apart      %8.2f us  (%.2f x the decode)\n", update, update / parse);

  // Rule by rule, as an update that changed nothing (every rule runs, transition rules too).
  std::printf("  per rule (update; the rule, its walk and its node's conversion):\n");
  const json full_schema = json::parse(kSchema);
  std::vector<std::pair<std::string, size_t>> all;
  FindRules(full_schema, "", &all);
  for (const auto& [at, i] : all) {
    auto one = kube::schema::SchemaGraph::FromOpenAPIV3(OnlyRule(full_schema, at, i));
    if (!one.ok()) continue;
    auto rule = kube::apiextensions::ValidationRules::Compile((*one)->Root());
    std::vector<double> us;
    for (int round = 0; round < kRounds; ++round) {
      const auto start = Clock::now();
      for (int k = 0; k < kEvals / 4; ++k) {
        kube::FieldErrors e;
        rule->Validate(obj, &obj, &e);
        sink += e.size();
      }
      us.push_back(MicrosBetween(start, Clock::now()) / (kEvals / 4));
    }
    const std::string text = full_schema.at(json::json_pointer(at)).at("x-kubernetes-validations").at(i).at("rule");
    std::printf("    %7.3f us  %-28s %.70s\n", Median(us), (at.empty() ? "/" : at).c_str(), text.c_str());
  }
  std::printf("  (sink %zu)\n", sink);
  return failures == 0 ? 0 : 1;
}
