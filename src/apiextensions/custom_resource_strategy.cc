#include "apiextensions/custom_resource_strategy.h"

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"
#include "schema/defaulting.h"
#include "schema/prune.h"
#include "schema/validation.h"

namespace kube::apiextensions {

CustomResourceStrategy::CustomResourceStrategy(CustomResourceVersionSpec spec) : spec_(std::move(spec)) {}

schema::PruneOptions PruneOptionsFor() {
  // Custom resources' metadata is pruned to ObjectMeta, as kube decodes it into the typed struct.
  static const schema::Schema* object_meta =
      catalogue::Catalogue::BuiltIn().Definition("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  return schema::PruneOptions{.resource_root = true, .object_meta = object_meta};
}

Status CustomResourceStrategy::AdmitCreate(std::string_view name) const {
  if (!spec_.terminating) return Status::OK();
  return registry::ForbiddenError(spec_.group, spec_.resource, name,
                                  "create not allowed while custom resource definition is terminating");
}

namespace {

// kube runs the rules unless the schema found a value of the wrong type, which the rules could
// not read.
bool BlocksRules(const registry::FieldErrors& errs) {
  for (const auto& e : errs) {
    if (e.type == FieldError::Type::kTypeInvalid) return true;
  }
  return false;
}

}  // namespace

registry::FieldErrors CustomResourceStrategy::Validate(const storage::Object& obj) const {
  if (root() == nullptr) return {};
  registry::FieldErrors errs = schema::Validate(*root(), obj);
  if (spec_.rules && !BlocksRules(errs)) spec_.rules->Validate(obj, nullptr, &errs);
  return errs;
}

registry::FieldErrors CustomResourceStrategy::ValidateUpdate(std::string_view subresource, const storage::Object& obj,
                                                             const storage::Object& old,
                                                             std::vector<std::string>* warnings) const {
  if (root() == nullptr) return {};
  // Ratcheting: values an update leaves as they were are not refused again. kube turns the
  // ratcheted schema errors into warnings of a result it then drops, so only the rules' ratcheted
  // failures reach the client.
  registry::FieldErrors errs = schema::Validate(*root(), obj, schema::ValidateOptions{.old = &old});
  if (spec_.rules && !BlocksRules(errs)) spec_.rules->Validate(obj, &old, &errs, warnings);
  return errs;
}

std::optional<std::vector<std::string>> CustomResourceStrategy::DecodeBody(storage::Object* obj) const {
  if (root() == nullptr) return std::vector<std::string>{};
  std::vector<std::string> pruned = schema::Prune(root(), obj, PruneOptionsFor());
  schema::Default(root(), obj);
  return pruned;
}

namespace {
// Past this many memo entries, dead ones are swept; past twice as many, the memo starts over.
constexpr size_t kMemoSweepAt = 64 * 1024;
}  // namespace

storage::ObjectPtr CustomResourceStrategy::Decorate(storage::ObjectPtr obj) const {
  if (root() == nullptr || !obj) return obj;
  {
    std::lock_guard lock(memo_mu_);
    auto it = memo_.find(obj.get());
    // The weak pointer tells a live entry from a dead object's address reused by a new one.
    if (it != memo_.end() && it->second.source.lock() == obj) return it->second.result ? it->second.result : obj;
  }
  storage::ObjectPtr result = DecorateUncached(obj);
  std::lock_guard lock(memo_mu_);
  if (memo_.size() >= kMemoSweepAt) {
    std::erase_if(memo_, [](const auto& entry) { return entry.second.source.expired(); });
    if (memo_.size() >= 2 * kMemoSweepAt) memo_.clear();
  }
  // An object served as stored is not held by its own entry: it must be able to die (and its
  // entry be swept) once the cache lets go of it.
  memo_[obj.get()] = Decorated{obj, result == obj ? nullptr : result};
  return result;
}

storage::ObjectPtr CustomResourceStrategy::DecorateUncached(const storage::ObjectPtr& obj) const {
  // kube prunes and defaults what it reads from storage too, so objects written before a schema
  // change read as the current schema says. Most reads change nothing: then the stored object
  // itself is served.
  storage::Object copy = *obj;
  schema::Prune(root(), &copy, PruneOptionsFor());
  schema::Default(root(), &copy);
  if (copy == *obj) return obj;
  return std::make_shared<const storage::Object>(std::move(copy));
}

}  // namespace kube::apiextensions
