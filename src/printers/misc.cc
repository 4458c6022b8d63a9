// Printers for ingresses, leases, customresourcedefinitions (and the other kinds with kube's
// default table convertor), apiservices, and the default used for every other resource.

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

std::string IngressHosts(const Json& ing) {
  const Json& rules = Array(Path(&ing, {"spec", "rules"}));
  constexpr size_t kMax = 3;
  std::vector<std::string> list;
  bool more = false;
  for (const Json& rule : rules) {
    if (list.size() == kMax) more = true;
    const std::string host = Str(Field(&rule, "host"));
    if (!more && !host.empty()) list.push_back(host);
  }
  if (list.empty()) return "*";
  std::string ret = Join(list, ",");
  if (more) return ret + " + " + std::to_string(rules.size() - kMax) + " more...";
  return ret;
}

}  // namespace

const std::vector<Column>& IngressColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Class", "string", "",
       "The name of the IngressClass resource that should be used for additional configuration", 0},
      {"Hosts", "string", "",
       "Hosts that incoming requests are matched against before the ingress rule", 0},
      {"Address", "string", "", "Address is a list containing ingress points for the load-balancer",
       0},
      {"Ports", "string", "", "Ports of TLS configurations that open", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells IngressCells(const Json& ing, TimePoint now) {
  const Json* class_name = Path(&ing, {"spec", "ingressClassName"});
  return {
      Name(ing),
      class_name != nullptr && class_name->is_string() ? Str(class_name) : "<none>",
      IngressHosts(ing),
      LoadBalancerIngress(Field(&ing, "status")),
      Array(Path(&ing, {"spec", "tls"})).empty() ? "80" : "80, 443",
      Age(ing, now),
  };
}

const std::vector<Column>& LeaseColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Holder", "string", "", "Identity of the holder of the lease.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells LeaseCells(const Json& lease, TimePoint now) {
  return {Name(lease), Str(Path(&lease, {"spec", "holderIdentity"})), Age(lease, now)};
}

// CRDs use kube's default table convertor (rest.NewDefaultTableConvertor).
const std::vector<Column>& CustomResourceDefinitionColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Created At", "date", "", "Time the object was created (metadata.creationTimestamp).", 0},
  };
  return kColumns;
}

Cells CustomResourceDefinitionCells(const Json& crd, TimePoint /*now*/) {
  // An unset timestamp is Go's zero time, which formats as year 1.
  std::optional<Time> created = ParseTime(Path(&crd, {"metadata", "creationTimestamp"}));
  Time t;
  t.sec = -62135596800;
  if (created) t = *created;
  return {Name(crd), FormatRFC3339(t)};
}

// kube-aggregator's apiservices table: the backing service ("Local" for built-in groups) and the
// Available condition, with its reason when it is not True.
const std::vector<Column>& APIServiceColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Service", "string", "", "The service that serves the API (namespace/name), or Local.", 0},
      {"Available", "string", "", "Whether the API is available.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells APIServiceCells(const Json& svc, TimePoint now) {
  std::string service = "Local";
  if (const Json* s = Path(&svc, {"spec", "service"}); IsObject(s)) {
    service = Str(Field(s, "namespace")) + "/" + Str(Field(s, "name"));
  }
  std::string available = "Unknown";
  for (const Json& c : Array(Path(&svc, {"status", "conditions"}))) {
    if (Str(Field(&c, "type")) != "Available") continue;
    const std::string status = Str(Field(&c, "status"));
    const std::string reason = Str(Field(&c, "reason"));
    available = status == "True" || reason.empty() ? status : status + " (" + reason + ")";
    break;
  }
  return {Name(svc), service, available, Age(svc, now)};
}

// A custom resource without additionalPrinterColumns: apiextensions adds an Age column of type
// "date" over .metadata.creationTimestamp.
const std::vector<Column>& DefaultColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Age", "date", "", "Time since the object was created (metadata.creationTimestamp).", 0},
  };
  return kColumns;
}

Cells DefaultCells(const Json& obj, TimePoint now) {
  // The JSONPath column yields null for a missing value; a "date" cell that does not parse is
  // "<invalid>" and Go's zero time is "<unknown>".
  const Json* ts = Path(&obj, {"metadata", "creationTimestamp"});
  Json age = nullptr;
  if (ts != nullptr && ts->is_string()) {
    const std::string& s = ts->get_ref<const std::string&>();
    if (s.empty() || s == "null" || s == "0001-01-01T00:00:00Z") {
      age = "<unknown>";
    } else if (ParseTime(ts)) {
      age = Since(ts, now);
    } else {
      age = "<invalid>";
    }
  }
  return {Name(obj), std::move(age)};
}

}  // namespace kube::printers::internal
