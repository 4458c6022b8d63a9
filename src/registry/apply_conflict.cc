#include "registry/apply_conflict.h"

#include <algorithm>

#include "registry/managed_fields.h"

namespace kube::registry {

Status ApplyConflictError(std::vector<ApplyConflict> conflicts) {
  // kube lists conflicts in the order of a Go map; here by manager, each manager's fields in the
  // order the merge found them.
  std::stable_sort(conflicts.begin(), conflicts.end(),
                   [](const ApplyConflict& a, const ApplyConflict& b) { return a.manager < b.manager; });
  std::string message;
  if (conflicts.size() == 1) {
    message = "Apply failed with 1 conflict: conflict with " + PrintManager(conflicts[0].manager) + ": " +
              conflicts[0].path;
  } else {
    std::vector<std::string> lines;
    for (size_t i = 0; i < conflicts.size(); ++i) {
      if (i == 0 || conflicts[i].manager != conflicts[i - 1].manager) {
        lines.push_back("conflicts with " + PrintManager(conflicts[i].manager) + ":");
      }
      lines.push_back("- " + conflicts[i].path);
    }
    message = "Apply failed with " + std::to_string(conflicts.size()) + " conflicts: ";
    for (size_t i = 0; i < lines.size(); ++i) message += (i ? "\n" : "") + lines[i];
  }
  Status s = Status::Conflict(std::move(message));
  for (const auto& c : conflicts) {
    s.mutable_details().causes.push_back(
        StatusCause{"FieldManagerConflict", "conflict with " + PrintManager(c.manager), c.path});
  }
  return s;
}

}  // namespace kube::registry
