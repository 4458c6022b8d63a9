#include "registry/errors.h"

#include <set>

namespace kube::registry {

namespace {

Status WithDetails(Status s, std::string_view group, std::string_view resource, std::string_view name) {
  auto& d = s.mutable_details();
  d.name = std::string(name);
  d.group = std::string(group);
  d.kind = std::string(resource);
  return s;
}

}  // namespace

std::string QualifiedName(std::string_view name, std::string_view group) {
  std::string out(name);
  if (!group.empty()) out += "." + std::string(group);
  return out;
}

Status NotFoundError(std::string_view group, std::string_view resource, std::string_view name) {
  return WithDetails(Status::NotFound(QualifiedName(resource, group) + " " + GoQuote(name) + " not found"),
                     group, resource, name);
}

Status AlreadyExistsError(std::string_view group, std::string_view resource, std::string_view name) {
  return WithDetails(
      Status::AlreadyExists(QualifiedName(resource, group) + " " + GoQuote(name) + " already exists"),
      group, resource, name);
}

Status ConflictError(std::string_view group, std::string_view resource, std::string_view name,
                     std::string_view why) {
  return WithDetails(Status::Conflict("Operation cannot be fulfilled on " + QualifiedName(resource, group) +
                                      " " + GoQuote(name) + ": " + std::string(why)),
                     group, resource, name);
}

Status ForbiddenError(std::string_view group, std::string_view resource, std::string_view name,
                      std::string_view why) {
  std::string subject = QualifiedName(resource, group);
  if (!name.empty()) subject += " " + GoQuote(name);
  return WithDetails(Status::Forbidden(subject + " is forbidden: " + std::string(why)), group,
                     resource, name);
}

Status MethodNotSupportedError(std::string_view group, std::string_view resource, std::string_view verb) {
  Status s(StatusCode::kMethodNotAllowed, std::string(verb) + " is not supported on resources of kind " +
                                              GoQuote(QualifiedName(resource, group)));
  s.mutable_details().group = std::string(group);
  s.mutable_details().kind = std::string(resource);
  return s;
}

Status InvalidError(std::string_view group, std::string_view kind, std::string_view name,
                    const FieldErrors& errors) {
  std::string message = QualifiedName(kind, group) + " " + GoQuote(name) + " is invalid: ";
  std::vector<std::string> parts;
  std::set<std::string> seen;
  for (const auto& e : errors) {
    std::string part = e.field.empty() ? e.Body() : e.field + ": " + e.Body();
    if (seen.insert(part).second) parts.push_back(part);
  }
  if (parts.size() == 1) {
    message += parts[0];
  } else {
    message += "[";
    for (size_t i = 0; i < parts.size(); ++i) message += (i ? ", " : "") + parts[i];
    message += "]";
  }
  Status s = Status::Invalid(message);
  auto& d = s.mutable_details();
  d.name = std::string(name);
  d.group = std::string(group);
  d.kind = std::string(kind);
  for (const auto& e : errors) d.causes.push_back(StatusCause{std::string(e.CauseType()), e.Body(), e.field});
  return s;
}

Status FromStorage(const Status& s, std::string_view group, std::string_view resource,
                   std::string_view name) {
  if (s.IsNotFound()) return NotFoundError(group, resource, name);
  if (s.IsAlreadyExists()) return AlreadyExistsError(group, resource, name);
  if (s.IsConflict() && s.message().starts_with("Precondition failed: ")) {
    return ConflictError(group, resource, name, s.message());
  }
  if (s.code() == StatusCode::kInternalError) {
    Status out = Status::Internal("Internal error occurred: " + s.message());
    out.mutable_details().causes.push_back(StatusCause{"", s.message(), ""});
    return out;
  }
  return s;
}

}  // namespace kube::registry
