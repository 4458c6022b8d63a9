// Printers for ingressclasses, networkpolicies, endpointslices, servicecidrs and ipaddresses.

#include <algorithm>

#include "printers/internal.h"

namespace kube::printers::internal {

namespace {

// kube's listWithMoreString: up to three items, then "+ N more...", "<unset>" for none.
std::string ListWithMore(const std::vector<std::string>& items) {
  constexpr size_t kMax = 3;
  std::vector<std::string> shown(items.begin(), items.begin() + std::min(items.size(), kMax));
  std::string ret = Join(shown, ",");
  if (items.size() > kMax) return ret + " + " + std::to_string(items.size() - kMax) + " more...";
  return ret.empty() ? "<unset>" : ret;
}

}  // namespace

const std::vector<Column>& IngressClassColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Controller", "string", "", "The controller that handles this class.", 0},
      {"Parameters", "string", "", "The resource holding additional parameters.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells IngressClassCells(const Json& obj, TimePoint now) {
  std::string parameters = "<none>";
  if (const Json* p = Path(&obj, {"spec", "parameters"}); IsObject(p)) {
    parameters = Str(Field(p, "kind"));
    if (const Json* group = Field(p, "apiGroup"); group != nullptr && group->is_string()) parameters += "." + Str(group);
    parameters += "/" + Str(Field(p, "name"));
  }
  return {Name(obj), Str(Path(&obj, {"spec", "controller"})), parameters, Age(obj, now)};
}

const std::vector<Column>& NetworkPolicyColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"Pod-Selector", "string", "", "The pods the policy applies to.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells NetworkPolicyCells(const Json& obj, TimePoint now) {
  // podSelector is not a pointer: absent reads as the empty selector.
  const Json* selector = Path(&obj, {"spec", "podSelector"});
  static const Json kEmpty = Json::object();
  return {Name(obj), FormatLabelSelector(IsObject(selector) ? selector : &kEmpty), Age(obj, now)};
}

const std::vector<Column>& EndpointSliceColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"AddressType", "string", "", "The type of the addresses of the slice.", 0},
      {"Ports", "string", "", "The ports of the slice.", 0},
      {"Endpoints", "string", "", "The addresses of the slice's endpoints.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells EndpointSliceCells(const Json& obj, TimePoint now) {
  std::vector<std::string> ports;
  for (const Json& p : Array(Field(&obj, "ports"))) {
    if (const Json* port = Field(&p, "port"); IsSet(port) && port->is_number()) {
      ports.push_back(std::to_string(Int32(port)));
    } else if (const Json* name = Field(&p, "name"); name != nullptr && name->is_string()) {
      ports.push_back(Str(name));
    } else {
      ports.push_back("*");
    }
  }
  std::vector<std::string> addresses;
  for (const Json& e : Array(Field(&obj, "endpoints"))) {
    for (const std::string& a : Strings(Field(&e, "addresses"))) addresses.push_back(a);
  }
  return {Name(obj), Str(Field(&obj, "addressType")), ListWithMore(ports), ListWithMore(addresses), Age(obj, now)};
}

const std::vector<Column>& ServiceCIDRColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"CIDRs", "string", "", "The ranges service cluster IPs are allocated from.", 0},
      AgeColumn(),
  };
  return kColumns;
}

Cells ServiceCIDRCells(const Json& obj, TimePoint now) {
  return {Name(obj), Join(Strings(Path(&obj, {"spec", "cidrs"})), ","), Age(obj, now)};
}

// kube declares two columns here but prints an Age cell as well: so do we.
const std::vector<Column>& IPAddressColumns() {
  static const std::vector<Column> kColumns = {
      NameColumn(),
      {"ParentRef", "string", "", "The object the address is allocated to.", 0},
  };
  return kColumns;
}

Cells IPAddressCells(const Json& obj, TimePoint now) {
  std::string parent = "<none>";
  if (const Json* ref = Path(&obj, {"spec", "parentRef"}); IsObject(ref)) {
    const std::string group = Str(Field(ref, "group"));
    parent = Str(Field(ref, "resource")) + (group.empty() ? "" : "." + group);
    std::transform(parent.begin(), parent.end(), parent.begin(), [](unsigned char c) { return std::tolower(c); });
    if (const std::string ns = Str(Field(ref, "namespace")); !ns.empty()) parent += "/" + ns;
    parent += "/" + Str(Field(ref, "name"));
  }
  return {Name(obj), parent, Age(obj, now)};
}

}  // namespace kube::printers::internal
