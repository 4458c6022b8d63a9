// Printers for cluster-level kinds: RBAC bindings, certificate signing requests and trust
// bundles, lease candidates, priority and runtime classes, API priority and fairness, storage
// versions and their migrations.

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

const std::vector<Column>& BindingColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Role", "string", "", "The role the binding grants (kind/name).", 0},
      AgeColumn(),
      {"Users", "string", "", "Users the binding grants the role to.", 1},
      {"Groups", "string", "", "Groups the binding grants the role to.", 1},
      {"ServiceAccounts", "string", "", "Service accounts the binding grants the role to.", 1},
  };
  return kColumns;
}

// rbac.SubjectsStrings: users, groups and "namespace/name" service accounts, ", "-joined.
Cells BindingCells(const Json& obj, TimePoint now) {
  std::vector<std::string> users, groups, sas;
  for (const Json& s : Array(Field(&obj, "subjects"))) {
    const std::string kind = Str(Field(&s, "kind"));
    if (kind == "ServiceAccount") {
      sas.push_back(Str(Field(&s, "namespace")) + "/" + Str(Field(&s, "name")));
    } else if (kind == "User") {
      users.push_back(Str(Field(&s, "name")));
    } else if (kind == "Group") {
      groups.push_back(Str(Field(&s, "name")));
    }
  }
  return {Name(obj), Str(Path(&obj, {"roleRef", "kind"})) + "/" + Str(Path(&obj, {"roleRef", "name"})), Age(obj, now),
          Join(users, ", "), Join(groups, ", "), Join(sas, ", ")};
}

bool ConditionTrue(const Json& obj, std::string_view type, std::string* status = nullptr) {
  for (const Json& c : Array(Path(&obj, {"status", "conditions"}))) {
    if (Str(Field(&c, "type")) != type) continue;
    if (status != nullptr) *status = Str(Field(&c, "status"));
    return true;
  }
  return false;
}

}  // namespace

const std::vector<Column>& RoleBindingColumns() { return BindingColumns(); }
Cells RoleBindingCells(const Json& obj, TimePoint now) { return BindingCells(obj, now); }
const std::vector<Column>& ClusterRoleBindingColumns() { return BindingColumns(); }
Cells ClusterRoleBindingCells(const Json& obj, TimePoint now) { return BindingCells(obj, now); }

const std::vector<Column>& CertificateSigningRequestColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      AgeColumn(),
      {"SignerName", "string", "", "The signer the request is for.", 0},
      {"Requestor", "string", "", "The user that made the request.", 0},
      {"RequestedDuration", "string", "", "The validity the request asks for.", 0},
      {"Condition", "string", "", "Approved, Denied or Pending, and Failed or Issued.", 0},
  };
  return kColumns;
}

Cells CertificateSigningRequestCells(const Json& obj, TimePoint now) {
  // kube's extractCSRStatus: Denied over Approved over Pending, then Failed and Issued.
  bool approved = false, denied = false, failed = false;
  for (const Json& c : Array(Path(&obj, {"status", "conditions"}))) {
    const std::string type = Str(Field(&c, "type"));
    approved = approved || type == "Approved";
    denied = denied || type == "Denied";
    failed = failed || type == "Failed";
  }
  std::string status = denied ? "Denied" : approved ? "Approved" : "Pending";
  if (failed) status += ",Failed";
  if (!Str(Path(&obj, {"status", "certificate"})).empty()) status += ",Issued";
  std::string duration = "<none>";
  if (const Json* s = Path(&obj, {"spec", "expirationSeconds"}); IsSet(s) && s->is_number()) {
    duration = HumanDuration(std::chrono::seconds(Int32(s)));
  }
  const std::string signer = Str(Path(&obj, {"spec", "signerName"}));
  return {Name(obj), Age(obj, now), signer.empty() ? "<none>" : signer, Str(Path(&obj, {"spec", "username"})),
          duration, status};
}

const std::vector<Column>& ClusterTrustBundleColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"SignerName", "string", "", "The signer the bundle belongs to.", 0},
  };
  return kColumns;
}

Cells ClusterTrustBundleCells(const Json& obj, TimePoint /*now*/) {
  const std::string signer = Str(Path(&obj, {"spec", "signerName"}));
  return {Name(obj), signer.empty() ? "<none>" : signer};
}

const std::vector<Column>& LeaseCandidateColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"LeaseName", "string", "", "The lease the candidate runs for.", 0},
      {"BinaryVersion", "string", "", "The candidate's binary version.", 0},
      {"EmulationVersion", "string", "", "The candidate's emulation version.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells LeaseCandidateCells(const Json& obj, TimePoint now) {
  return {Name(obj), Str(Path(&obj, {"spec", "leaseName"})), Str(Path(&obj, {"spec", "binaryVersion"})),
          Str(Path(&obj, {"spec", "emulationVersion"})), Age(obj, now)};
}

const std::vector<Column>& PriorityClassColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Value", "integer", "", "The priority of pods of this class.", 0},
      {"Global-Default", "boolean", "", "Whether pods without a class get this one.", 0},
      AgeColumn(),
      {"PreemptionPolicy", "string", "", "Whether pods of this class preempt lower-priority pods.", 0},
  };
  return kColumns;
}

Cells PriorityClassCells(const Json& obj, TimePoint now) {
  // v1 default: PreemptLowerPriority.
  return {Name(obj), Int32(Field(&obj, "value")), Bool(Field(&obj, "globalDefault")), Age(obj, now),
          StrOr(Field(&obj, "preemptionPolicy"), "PreemptLowerPriority")};
}

const std::vector<Column>& RuntimeClassColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Handler", "string", "", "The CRI handler of the class.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells RuntimeClassCells(const Json& obj, TimePoint now) {
  return {Name(obj), Str(Field(&obj, "handler")), Age(obj, now)};
}

const std::vector<Column>& FlowSchemaColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"PriorityLevel", "string", "", "The priority level of matching requests.", 0},
      {"MatchingPrecedence", "string", "", "The order in which schemas are matched (lowest first).", 0},
      {"DistinguisherMethod", "string", "", "How matching requests are split into flows.", 0},
      AgeColumn(),
      {"MissingPL", "string", "", "Whether the priority level does not exist.", 0},
  };
  return kColumns;
}

Cells FlowSchemaCells(const Json& obj, TimePoint now) {
  const Json* precedence = Path(&obj, {"spec", "matchingPrecedence"});
  std::string distinguisher = "<none>";
  if (const Json* d = Path(&obj, {"spec", "distinguisherMethod"}); IsObject(d)) distinguisher = Str(Field(d, "type"));
  std::string dangling = "?";
  ConditionTrue(obj, "Dangling", &dangling);
  // v1 default: precedence 1000.
  const int64_t p = IsSet(precedence) && Int32(precedence) != 0 ? Int32(precedence) : 1000;
  return {Name(obj), Str(Path(&obj, {"spec", "priorityLevelConfiguration", "name"})), p, distinguisher, Age(obj, now),
          dangling};
}

const std::vector<Column>& PriorityLevelConfigurationColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Type", "string", "", "Exempt or Limited.", 0},
      {"NominalConcurrencyShares", "string", "", "The level's share of the server's concurrency.", 0},
      {"Queues", "string", "", "The number of queues.", 0},
      {"HandSize", "string", "", "The number of queues a flow is shuffled over.", 0},
      {"QueueLengthLimit", "string", "", "The longest a queue may be.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells PriorityLevelConfigurationCells(const Json& obj, TimePoint now) {
  Json shares = "<none>", queues = "<none>", hand = "<none>", limit = "<none>";
  if (const Json* limited = Path(&obj, {"spec", "limited"}); IsObject(limited)) {
    // v1 defaults: 30 shares; queuing 64 queues, hand size 8, 50 per queue.
    auto or_default = [](const Json* v, int64_t d) -> Json { return IsSet(v) && Int32(v) != 0 ? Int32(v) : d; };
    shares = IsSet(Field(limited, "nominalConcurrencyShares")) ? Int32(Field(limited, "nominalConcurrencyShares")) : 30;
    if (const Json* q = Path(limited, {"limitResponse", "queuing"}); IsObject(q)) {
      queues = or_default(Field(q, "queues"), 64);
      hand = or_default(Field(q, "handSize"), 8);
      limit = or_default(Field(q, "queueLengthLimit"), 50);
    }
  }
  return {Name(obj), Str(Path(&obj, {"spec", "type"})), shares, queues, hand, limit, Age(obj, now)};
}

const std::vector<Column>& StorageVersionColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"CommonEncodingVersion", "string", "", "The version every server encodes with, when they agree.", 0},
      {"StorageVersions", "string", "", "Each server's encoding version.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells StorageVersionCells(const Json& obj, TimePoint now) {
  std::vector<std::string> versions;
  for (const Json& v : Array(Path(&obj, {"status", "storageVersions"}))) {
    versions.push_back(Str(Field(&v, "apiServerID")) + "=" + Str(Field(&v, "encodingVersion")));
  }
  constexpr size_t kMax = 3;
  std::string list;
  for (size_t i = 0; i < versions.size() && i < kMax; ++i) list += (i == 0 ? "" : ",") + versions[i];
  if (versions.size() > kMax) {
    list += " + " + std::to_string(versions.size() - kMax) + " more...";
  } else if (list.empty()) {
    list = "<unset>";
  }
  return {Name(obj), StrOr(Path(&obj, {"status", "commonEncodingVersion"}), "<unset>"), list, Age(obj, now)};
}

const std::vector<Column>& StorageVersionMigrationColumns() {
  static const std::vector<Column> kColumns = {
      {"Name", "string", "", "Name must be unique within a namespace; it identifies the object.", 0},
      {"Resource", "string", "", "The fully qualified resource to migrate.", 0},
  };
  return kColumns;
}

Cells StorageVersionMigrationCells(const Json& obj, TimePoint /*now*/) {
  // resource.version.group; v1beta1's GroupResource has no version: resource.group.
  const Json* r = Path(&obj, {"spec", "resource"});
  std::string gvr = Str(Field(r, "resource"));
  if (IsSet(Field(r, "version"))) gvr += "." + Str(Field(r, "version"));
  gvr += "." + Str(Field(r, "group"));
  return {Name(obj), gvr};
}

}  // namespace kube::printers::internal
