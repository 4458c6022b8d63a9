// Printers for admissionregistration.k8s.io: webhook configurations and the validating and
// mutating admission policies and their bindings.

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

std::string ParamKind(const Json& policy) {
  const Json* kind = Path(&policy, {"spec", "paramKind"});
  if (!IsObject(kind)) return "<unset>";
  return Str(Field(kind, "apiVersion")) + "/" + Str(Field(kind, "kind"));
}

// A binding's paramRef: "ns/name", "*/name" without a namespace, else its selector.
std::string ParamRef(const Json& binding) {
  const Json* ref = Path(&binding, {"spec", "paramRef"});
  if (!IsObject(ref)) return "<unset>";
  const std::string name = Str(Field(ref, "name"));
  if (!name.empty()) {
    const std::string ns = Str(Field(ref, "namespace"));
    return (ns.empty() ? "*" : ns) + "/" + name;
  }
  if (const Json* selector = Field(ref, "selector"); IsObject(selector)) return LabelSelectorGoString(selector);
  return "<unset>";
}

Column CountColumn(const char* name, const char* description) { return {name, "integer", "", description, 0}; }

}  // namespace

const std::vector<Column>& WebhookConfigurationColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      CountColumn("Webhooks", "The number of webhooks of the configuration."),
      AgeColumn(),
  };
  return kColumns;
}

Cells WebhookConfigurationCells(const Json& obj, TimePoint now) {
  return {Name(obj), static_cast<int64_t>(Array(Field(&obj, "webhooks")).size()), Age(obj, now)};
}

const std::vector<Column>& ValidatingAdmissionPolicyColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      CountColumn("Validations", "The number of validation rules of the policy."),
      {"ParamKind", "string", "", "The kind of the policy's parameters.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells ValidatingAdmissionPolicyCells(const Json& obj, TimePoint now) {
  return {Name(obj), static_cast<int64_t>(Array(Path(&obj, {"spec", "validations"})).size()), ParamKind(obj),
          Age(obj, now)};
}

const std::vector<Column>& MutatingAdmissionPolicyColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      CountColumn("Mutations", "The number of mutations of the policy."),
      {"ParamKind", "string", "", "The kind of the policy's parameters.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells MutatingAdmissionPolicyCells(const Json& obj, TimePoint now) {
  return {Name(obj), static_cast<int64_t>(Array(Path(&obj, {"spec", "mutations"})).size()), ParamKind(obj),
          Age(obj, now)};
}

const std::vector<Column>& AdmissionPolicyBindingColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"PolicyName", "string", "", "The policy the binding binds.", 0},
      {"ParamRef", "string", "", "The parameter resource of the binding.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells AdmissionPolicyBindingCells(const Json& obj, TimePoint now) {
  return {Name(obj), Str(Path(&obj, {"spec", "policyName"})), ParamRef(obj), Age(obj, now)};
}

}  // namespace kube::printers::internal
