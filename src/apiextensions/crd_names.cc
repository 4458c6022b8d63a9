#include "apiextensions/crd_names.h"

#include <set>
#include <string>

#include "apiextensions/crd_internal.h"

namespace kube::apiextensions {

using namespace json_access;

namespace {

// The names as Go's CustomResourceDefinitionNames: absent members are empty, shortNames and
// categories are dropped when empty (omitempty), plural and kind always present.
nlohmann::json CanonicalNames(const nlohmann::json* names) {
  nlohmann::json out = {{"plural", Str(names, "plural")}, {"kind", Str(names, "kind")}};
  for (const char* key : {"singular", "listKind"}) {
    if (std::string v = Str(names, key); !v.empty()) out[key] = v;
  }
  for (const char* key : {"shortNames", "categories"}) {
    if (auto v = Strings(names, key); !v.empty()) out[key] = v;
  }
  return out;
}

// equalToAcceptedOrFresh: "" when the name may be taken.
std::string Conflict(const std::string& requested, const std::string& accepted, const std::set<std::string>& used) {
  if (requested == accepted || !used.count(requested)) return "";
  return "\"" + requested + "\" is already in use";
}

std::string Name(const nlohmann::json& crd) { return Str(Obj(&crd, "metadata"), "name"); }

}  // namespace

NamingResult ComputeNames(const nlohmann::json& crd, const std::vector<const nlohmann::json*>& group_crds) {
  const std::string group = Str(Obj(&crd, "spec"), "group");
  std::set<std::string> resources, kinds;
  const auto claim = [&](const nlohmann::json& other) {
    const nlohmann::json* accepted = Obj(Obj(&other, "status"), "acceptedNames");
    resources.insert(Str(accepted, "plural"));
    resources.insert(Str(accepted, "singular"));
    for (const auto& s : Strings(accepted, "shortNames")) resources.insert(s);
    kinds.insert(Str(accepted, "kind"));
    kinds.insert(Str(accepted, "listKind"));
  };
  claim(crd);
  for (const nlohmann::json* other : group_crds) {
    if (other == nullptr || Str(Obj(other, "spec"), "group") != group || Name(*other) == Name(crd)) continue;
    claim(*other);
  }

  const nlohmann::json* requested = Obj(Obj(&crd, "spec"), "names");
  const nlohmann::json* accepted = Obj(Obj(&crd, "status"), "acceptedNames");
  NamingResult result;
  result.accepted_names = CanonicalNames(accepted);
  CrdCondition& cond = result.names_accepted;
  cond = {"NamesAccepted", "Unknown", "", ""};
  const auto check = [&](const char* key, const std::set<std::string>& used, const char* reason) {
    const std::string want = Str(requested, key);
    if (std::string err = Conflict(want, Str(accepted, key), used); !err.empty()) {
      cond.status = "False";
      cond.reason = reason;
      cond.message = err;
    } else if (want.empty()) {
      result.accepted_names.erase(key);
      if (std::string_view(key) == "plural") result.accepted_names[key] = "";
    } else {
      result.accepted_names[key] = want;
    }
  };
  check("plural", resources, "PluralConflict");
  check("singular", resources, "SingularConflict");
  const std::vector<std::string> want_short = Strings(requested, "shortNames");
  const std::vector<std::string> have_short = Strings(accepted, "shortNames");
  if (want_short != have_short) {
    const std::set<std::string> existing(have_short.begin(), have_short.end());
    std::vector<std::string> errs;
    for (const std::string& s : want_short) {
      if (existing.count(s)) continue;
      if (std::string err = Conflict(s, "", resources); !err.empty()) errs.push_back(err);
    }
    if (!errs.empty()) {
      cond.status = "False";
      cond.reason = "ShortNamesConflict";
      // utilerrors.NewAggregate: one message alone, several as "[a, b]".
      if (errs.size() == 1) {
        cond.message = errs[0];
      } else {
        cond.message = "[";
        for (size_t i = 0; i < errs.size(); ++i) cond.message += (i ? ", " : "") + errs[i];
        cond.message += "]";
      }
    } else if (want_short.empty()) {
      result.accepted_names.erase("shortNames");
    } else {
      result.accepted_names["shortNames"] = want_short;
    }
  }
  check("kind", kinds, "KindConflict");
  check("listKind", kinds, "ListKindConflict");
  if (const auto categories = Strings(requested, "categories"); !categories.empty()) {
    result.accepted_names["categories"] = categories;
  } else {
    result.accepted_names.erase("categories");
  }
  if (result.accepted_names.find("kind") == result.accepted_names.end()) result.accepted_names["kind"] = "";

  if (cond.status == "Unknown") cond = {"NamesAccepted", "True", "NoConflicts", "no conflicts found"};

  result.established = {"Established", "False", "NotAccepted", "not all names are accepted"};
  if (const nlohmann::json* old = FindCondition(crd, "Established")) {
    result.established = {"Established", Str(old, "status"), Str(old, "reason"), Str(old, "message")};
  }
  if (result.established.status != "True" && cond.status == "True") {
    result.established = {"Established", "False", "Installing", "the initial names have been accepted"};
  }
  return result;
}

bool SyncNames(nlohmann::json* crd, const std::vector<const nlohmann::json*>& group_crds,
               std::chrono::system_clock::time_point now) {
  const nlohmann::json* spec_names = Obj(Obj(crd, "spec"), "names");
  const nlohmann::json* accepted = Obj(Obj(crd, "status"), "acceptedNames");
  const nlohmann::json current = CanonicalNames(accepted);
  if (CanonicalNames(spec_names) == current) return false;
  NamingResult r = ComputeNames(*crd, group_crds);
  if (r.accepted_names == current && IsConditionEquivalent(&r.names_accepted, FindCondition(*crd, "NamesAccepted"))) {
    return false;
  }
  if (!crd->is_object()) *crd = nlohmann::json::object();
  nlohmann::json& status = (*crd)["status"];
  if (!status.is_object()) status = nlohmann::json::object();
  status["acceptedNames"] = r.accepted_names;
  SetCondition(crd, r.names_accepted, now);
  SetCondition(crd, r.established, now);
  return true;
}

bool SyncEstablished(nlohmann::json* crd, std::chrono::system_clock::time_point now) {
  if (!IsConditionTrue(*crd, "NamesAccepted") || IsConditionTrue(*crd, "Established")) return false;
  SetCondition(crd, {"Established", "True", "InitialNamesAccepted", "the initial names have been accepted"}, now);
  return true;
}

}  // namespace kube::apiextensions
