#include "auth/rbac_rules.h"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "util/json_fields.h"

namespace kube::auth {

using nlohmann::json;

namespace {

bool Has(const std::vector<std::string>& set, std::string_view value) {
  return std::find(set.begin(), set.end(), value) != set.end();
}

bool HasAll(const std::vector<std::string>& set, const std::vector<std::string>& wanted) {
  for (const auto& w : wanted) {
    if (!Has(set, w)) return false;
  }
  return true;
}

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool NonResourceUrlCovers(std::string_view owner, std::string_view path) {
  if (owner == path) return true;
  if (owner.empty() || owner.back() != '*') return false;
  while (!owner.empty() && owner.back() == '*') owner.remove_suffix(1);
  return StartsWith(path, owner);
}

bool ResourceCoversAll(const std::vector<std::string>& owner, const std::vector<std::string>& wanted) {
  if (Has(owner, "*") || HasAll(owner, wanted)) return true;
  for (const auto& path : wanted) {
    if (Has(owner, path)) continue;
    auto slash = path.find('/');
    if (slash == std::string::npos) return false;
    if (!Has(owner, "*/" + path.substr(slash + 1))) return false;
  }
  return true;
}

bool NonResourceUrlsCoverAll(const std::vector<std::string>& owner, const std::vector<std::string>& wanted) {
  for (const auto& path : wanted) {
    bool covered = false;
    for (const auto& o : owner) {
      if (NonResourceUrlCovers(o, path)) {
        covered = true;
        break;
      }
    }
    if (!covered) return false;
  }
  return true;
}

// `sub` has at most one verb, group, resource, name or URL (a broken-down rule).
bool RuleCovers(const PolicyRule& owner, const PolicyRule& sub) {
  const bool verbs = Has(owner.verbs, "*") || HasAll(owner.verbs, sub.verbs);
  const bool groups = Has(owner.api_groups, "*") || HasAll(owner.api_groups, sub.api_groups);
  const bool resources = ResourceCoversAll(owner.resources, sub.resources);
  const bool urls = NonResourceUrlsCoverAll(owner.non_resource_urls, sub.non_resource_urls);
  const bool names = sub.resource_names.empty() ? owner.resource_names.empty()
                                                : owner.resource_names.empty() || HasAll(owner.resource_names, sub.resource_names);
  return verbs && groups && resources && names && urls;
}

std::vector<PolicyRule> BreakdownRule(const PolicyRule& rule) {
  std::vector<PolicyRule> out;
  for (const auto& group : rule.api_groups) {
    for (const auto& resource : rule.resources) {
      for (const auto& verb : rule.verbs) {
        if (rule.resource_names.empty()) {
          out.push_back(PolicyRule{.verbs = {verb}, .api_groups = {group}, .resources = {resource}});
        } else {
          for (const auto& name : rule.resource_names) {
            out.push_back(
                PolicyRule{.verbs = {verb}, .api_groups = {group}, .resources = {resource}, .resource_names = {name}});
          }
        }
      }
    }
  }
  for (const auto& url : rule.non_resource_urls) {
    for (const auto& verb : rule.verbs) out.push_back(PolicyRule{.verbs = {verb}, .non_resource_urls = {url}});
  }
  return out;
}

}  // namespace

std::vector<PolicyRule> RulesFromJson(const json& role) {
  std::vector<PolicyRule> rules;
  auto it = role.find("rules");
  if (it == role.end() || !it->is_array()) return rules;
  for (const auto& r : *it) {
    if (!r.is_object()) continue;
    rules.push_back(PolicyRule{.verbs = StringsField(r, "verbs"),
                               .api_groups = StringsField(r, "apiGroups"),
                               .resources = StringsField(r, "resources"),
                               .resource_names = StringsField(r, "resourceNames"),
                               .non_resource_urls = StringsField(r, "nonResourceURLs")});
  }
  return rules;
}

json RuleToJson(const PolicyRule& rule) {
  // Field order and omitempty as kube serialises rbacv1.PolicyRule.
  json out = json::object();
  out["verbs"] = rule.verbs;
  if (!rule.api_groups.empty()) out["apiGroups"] = rule.api_groups;
  if (!rule.resources.empty()) out["resources"] = rule.resources;
  if (!rule.resource_names.empty()) out["resourceNames"] = rule.resource_names;
  if (!rule.non_resource_urls.empty()) out["nonResourceURLs"] = rule.non_resource_urls;
  return out;
}

std::vector<Subject> SubjectsFromJson(const json& binding) {
  std::vector<Subject> out;
  auto it = binding.find("subjects");
  if (it == binding.end() || !it->is_array()) return out;
  for (const auto& s : *it) {
    if (!s.is_object()) continue;
    out.push_back(Subject{.kind = StringField(s, "kind"),
                          .api_group = StringField(s, "apiGroup"),
                          .name = StringField(s, "name"),
                          .namespace_ = StringField(s, "namespace")});
  }
  return out;
}

RoleRef RoleRefFromJson(const json& binding) {
  auto it = binding.find("roleRef");
  if (it == binding.end() || !it->is_object()) return {};
  return RoleRef{.api_group = StringField(*it, "apiGroup"), .kind = StringField(*it, "kind"), .name = StringField(*it, "name")};
}

bool RuleAllows(const Attributes& request, const PolicyRule& rule) {
  bool verb = false;
  for (const auto& v : rule.verbs) {
    if (v == "*" || v == request.verb) {
      verb = true;
      break;
    }
  }
  if (!verb) return false;
  if (!request.resource_request) {
    for (const auto& url : rule.non_resource_urls) {
      if (url == "*" || NonResourceUrlCovers(url, request.path)) return true;
    }
    return false;
  }
  bool group = false;
  for (const auto& g : rule.api_groups) {
    if (g == "*" || g == request.api_group) {
      group = true;
      break;
    }
  }
  if (!group) return false;
  const std::string& sub = request.subresource;
  bool resource = false;
  for (const auto& r : rule.resources) {
    if (r == "*") {
      resource = true;
      break;
    }
    if (sub.empty()) {
      if (r == request.resource) {
        resource = true;
        break;
      }
      continue;
    }
    // "pods/log" exactly, or "*/log".
    if (r.size() == request.resource.size() + 1 + sub.size() && StartsWith(r, request.resource) &&
        r[request.resource.size()] == '/' && std::string_view(r).substr(request.resource.size() + 1) == sub) {
      resource = true;
      break;
    }
    if (r.size() == sub.size() + 2 && StartsWith(r, "*/") && std::string_view(r).substr(2) == sub) {
      resource = true;
      break;
    }
  }
  if (!resource) return false;
  return rule.resource_names.empty() || Has(rule.resource_names, request.name);
}

bool Covers(const std::vector<PolicyRule>& owner, const std::vector<PolicyRule>& servant,
            std::vector<PolicyRule>* missing) {
  bool all = true;
  for (const auto& rule : servant) {
    for (const auto& sub : BreakdownRule(rule)) {
      bool covered = false;
      for (const auto& o : owner) {
        if (RuleCovers(o, sub)) {
          covered = true;
          break;
        }
      }
      if (!covered) {
        all = false;
        if (missing != nullptr) missing->push_back(sub);
      }
    }
  }
  return all;
}

std::vector<PolicyRule> CompactRules(const std::vector<PolicyRule>& rules) {
  std::vector<PolicyRule> out;
  std::map<std::pair<std::string, std::string>, size_t> simple;  // group/resource -> index in out
  for (const auto& rule : rules) {
    const bool is_simple = rule.resource_names.empty() && rule.non_resource_urls.empty() &&
                           rule.api_groups.size() == 1 && rule.resources.size() == 1;
    if (!is_simple) {
      out.push_back(rule);
      continue;
    }
    auto key = std::make_pair(rule.api_groups[0], rule.resources[0]);
    auto it = simple.find(key);
    if (it == simple.end()) {
      simple.emplace(key, out.size());
      out.push_back(rule);
    } else {
      auto& verbs = out[it->second].verbs;
      verbs.insert(verbs.end(), rule.verbs.begin(), rule.verbs.end());
    }
  }
  return out;
}

std::string GoQuoteList(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ' ';
    out += GoQuote(values[i]);
  }
  return out + "]";
}

std::string CompactString(const PolicyRule& rule) {
  std::vector<std::string> parts;
  if (!rule.api_groups.empty()) parts.push_back("APIGroups:" + GoQuoteList(rule.api_groups));
  if (!rule.resources.empty()) parts.push_back("Resources:" + GoQuoteList(rule.resources));
  if (!rule.non_resource_urls.empty()) parts.push_back("NonResourceURLs:" + GoQuoteList(rule.non_resource_urls));
  if (!rule.resource_names.empty()) parts.push_back("ResourceNames:" + GoQuoteList(rule.resource_names));
  if (!rule.verbs.empty()) parts.push_back("Verbs:" + GoQuoteList(rule.verbs));
  std::string out = "{";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += ", ";
    out += parts[i];
  }
  return out + "}";
}

std::string AggregateErrors(const std::vector<std::string>& errors) {
  if (errors.empty()) return "";
  if (errors.size() == 1) return errors[0];
  std::string out = "[";
  for (size_t i = 0; i < errors.size(); ++i) out += (i > 0 ? ", " : "") + errors[i];
  return out + "]";
}

bool SubjectAppliesTo(const UserInfo& user, const Subject& subject, std::string_view binding_namespace) {
  if (subject.kind == "User") return user.name == subject.name;
  if (subject.kind == "Group") return user.InGroup(subject.name);
  if (subject.kind == "ServiceAccount") {
    std::string_view ns = subject.namespace_.empty() ? binding_namespace : std::string_view(subject.namespace_);
    if (ns.empty()) return false;
    constexpr std::string_view kPrefix = "system:serviceaccount:";
    std::string_view name = user.name;
    return name.size() == kPrefix.size() + ns.size() + 1 + subject.name.size() && StartsWith(name, kPrefix) &&
           name.substr(kPrefix.size(), ns.size()) == ns && name[kPrefix.size() + ns.size()] == ':' &&
           name.substr(kPrefix.size() + ns.size() + 1) == subject.name;
  }
  return false;
}

std::string DescribeSubject(const Subject& subject, std::string_view binding_namespace) {
  if (subject.kind == "ServiceAccount") {
    std::string ns = subject.namespace_.empty() ? std::string(binding_namespace) : subject.namespace_;
    return subject.kind + " " + GoQuote(subject.name + "/" + ns);
  }
  return subject.kind + " " + GoQuote(subject.name);
}

}  // namespace kube::auth
