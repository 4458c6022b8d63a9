#include "endpoints/responses.h"

#include <nlohmann/json.hpp>

namespace kube::endpoints {

using nlohmann::json;

namespace {

// Levels indented by ?pretty; anything deeper is written compact. Indentation grows with depth,
// so a deeply nested value would otherwise cost output quadratic in its size (Go's
// MarshalIndent indents without limit; no real object comes near this).
constexpr int kMaxIndentedDepth = 64;

std::string Compact(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// nlohmann's dump(2) layout (Go's MarshalIndent with two spaces), up to kMaxIndentedDepth.
void Indented(const json& j, int depth, std::string* out) {
  const bool collection = j.is_object() || j.is_array();
  if (!collection || j.empty() || depth >= kMaxIndentedDepth) {
    *out += Compact(j);
    return;
  }
  const std::string inner(2 * (depth + 1), ' ');
  *out += j.is_object() ? "{\n" : "[\n";
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!first) *out += ",\n";
    first = false;
    *out += inner;
    if (j.is_object()) *out += Compact(json(it.key())) + ": ";
    Indented(*it, depth + 1, out);
  }
  *out += '\n' + std::string(2 * depth, ' ') + (j.is_object() ? '}' : ']');
}

}  // namespace

std::string Dump(const json& j, bool pretty) {
  if (!pretty) return Compact(j);
  std::string out;
  Indented(j, 0, &out);
  return out;
}

json StatusObject(const Status& status) {
  json out = {{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", json::object()},
              {"status", "Failure"}, {"message", status.message()}, {"code", status.HttpCode()}};
  if (!status.Reason().empty()) out["reason"] = std::string(status.Reason());
  if (!status.continue_token().empty()) out["metadata"]["continue"] = status.continue_token();
  const StatusDetails& d = status.details();
  json details = json::object();
  if (!d.name.empty()) details["name"] = d.name;
  if (!d.group.empty()) details["group"] = d.group;
  if (!d.kind.empty()) details["kind"] = d.kind;
  if (!d.uid.empty()) details["uid"] = d.uid;
  if (!d.causes.empty()) {
    json causes = json::array();
    for (const auto& c : d.causes) {
      json cause = json::object();
      if (!c.type.empty()) cause["reason"] = c.type;
      if (!c.message.empty()) cause["message"] = c.message;
      if (!c.field.empty()) cause["field"] = c.field;
      causes.push_back(std::move(cause));
    }
    details["causes"] = std::move(causes);
  }
  if (status.retry_after_seconds() > 0) details["retryAfterSeconds"] = status.retry_after_seconds();
  // Always present, {} when nothing is known: clients read it without a nil check (kubectl debug
  // dereferences details of a 404), as kube's constructors set it.
  out["details"] = std::move(details);
  return out;
}

HttpResponse ErrorResponse(const Status& status) {
  HttpResponse r;
  r.status = status.HttpCode();
  r.body = Dump(StatusObject(status));
  // Retry-After only when kube would set it: client-go retries such answers silently.
  if (status.retry_after_seconds() > 0) {
    r.headers.emplace("Retry-After", std::to_string(status.retry_after_seconds()));
  }
  return r;
}

HttpResponse JsonResponse(int code, const json& body, bool pretty) {
  HttpResponse r;
  r.status = code;
  r.body = Dump(body, pretty);
  return r;
}

json SuccessStatus(std::string_view name, std::string_view group, std::string_view resource,
                   std::string_view uid) {
  // StatusDetails' fields are all omitempty in kube: the core group's "" is left out.
  json details = {{"name", name}};
  if (!group.empty()) details["group"] = group;
  details["kind"] = resource;
  if (!uid.empty()) details["uid"] = uid;
  return json{{"kind", "Status"},
              {"apiVersion", "v1"},
              {"metadata", json::object()},
              {"status", "Success"},
              {"details", std::move(details)}};
}

}  // namespace kube::endpoints
