// The registry strategy of one served version of a custom resource (kube's customresource
// strategy): pruning and defaulting of objects read from storage against the version's structural
// schema, schema and x-kubernetes-validations rule validation of writes (422 with kube's causes
// and field paths), creates refused
// while the CRD terminates, and the scale subresource's paths.
//
// Thread-safety: safe for concurrent use (immutable but for an internal, locked memo of decorated
// objects); shared by every request of the version.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <optional>
#include <string>

#include "apiextensions/validation_rules.h"
#include "printers/custom_resource_table.h"
#include "registry/strategy.h"
#include "schema/graph.h"
#include "schema/prune.h"

namespace kube::apiextensions {

struct CustomResourceVersionSpec {
  std::string group;
  std::string version;
  std::string kind;
  std::string resource;  // the plural, for messages
  std::shared_ptr<const schema::SchemaGraph> schema;  // the version's openAPIV3Schema
  // Its x-kubernetes-validations, compiled; null when it has none.
  std::shared_ptr<const ValidationRules> rules;
  // Set when the version has the scale subresource.
  std::optional<registry::ScalePaths> scale;
  bool terminating = false;  // the CRD is being deleted: no creates
  // Set for a deprecated version: its deprecationWarning, or kube's default
  // "<group>/<version> <Kind> is deprecated".
  std::string warning;
  // The version's printer columns, and those of its scale subresource.
  std::shared_ptr<const printers::CustomResourceTable> table;
  std::shared_ptr<const printers::CustomResourceTable> scale_table;
};

// How custom resources are pruned: as a resource root, metadata to ObjectMeta's fields.
schema::PruneOptions PruneOptionsFor();

class CustomResourceStrategy final : public registry::Strategy {
 public:
  explicit CustomResourceStrategy(CustomResourceVersionSpec spec);

  Status AdmitCreate(std::string_view name) const override;
  registry::FieldErrors Validate(const storage::Object& obj) const override;
  // Also reports the rules' ratcheted failures as warnings (validation_rules.h).
  registry::FieldErrors ValidateUpdate(std::string_view subresource, const storage::Object& obj,
                                       const storage::Object& old, std::vector<std::string>* warnings) const override;
  storage::ObjectPtr Decorate(storage::ObjectPtr obj) const override;
  std::optional<std::vector<std::string>> DecodeBody(storage::Object* obj) const override;
  std::string_view Warning() const override { return spec_.warning; }
  const registry::ScalePaths* Scale() const override { return spec_.scale ? &*spec_.scale : nullptr; }
  const printers::TablePrinter* Printer(std::string_view subresource) const override {
    return subresource == "scale" ? spec_.scale_table.get() : spec_.table.get();
  }

  const schema::Schema* root() const { return spec_.schema ? spec_.schema->Root() : nullptr; }

 private:
  storage::ObjectPtr DecorateUncached(const storage::ObjectPtr& obj) const;

  CustomResourceVersionSpec spec_;

  // Decorate's results by stored object. The watch cache hands out the same immutable object
  // to every read until it changes, so a list pays for pruning and defaulting once per object
  // version, not once per read. Entries whose object died are swept; the map is bounded.
  struct Decorated {
    std::weak_ptr<const storage::Object> source;
    storage::ObjectPtr result;  // nullptr: served as stored (`source` itself)
  };
  mutable std::mutex memo_mu_;
  mutable std::unordered_map<const storage::Object*, Decorated> memo_;  // guarded by memo_mu_
};

}  // namespace kube::apiextensions
