// The values x-kubernetes-validations rules see (kube's UnstructuredToVal), built from a custom
// resource's JSON along its structural schema: integers as int, numbers as double, date and
// date-time strings as timestamps, duration strings as durations, byte strings as bytes,
// int-or-string and untyped nodes as their JSON; object properties under their escaped names
// (`__dash__` …, unescapable names left out); set and map lists with kube's list-type equality and
// `+`; a resource root (and an embedded resource) shows apiVersion, kind and only metadata.name /
// generateName.
//
// A ValuePlan is the conversion of one schema node worked out once, when the rules are compiled:
// each property's escaped name, child plan and value shape, so that converting a value on each
// write is lookups and copies only. A rule reads only the fields it selects (cel/field_usage.h),
// so a plan can be built for a FieldUse: objects then get just the used fields, each converted
// for its own use, and only used-whole values are converted entirely. A rule given such a value
// evaluates exactly as with the full one.
//
// Thread-safety: plans are immutable once built; Convert may run from many threads.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cel/field_usage.h"
#include "cel/value.h"
#include "cel/value_arena.h"
#include "schema/schema.h"

namespace kube::apiextensions {

class ValuePlan {
 public:
  // Whole plans already built, shared by the plans of one compilation (a schema node reached
  // twice converts with one plan).
  using Cache = std::map<std::pair<const schema::Schema*, bool>, std::shared_ptr<const ValuePlan>>;

  // The plan of node `s` (null: untyped; `resource`: a resource root or embedded resource) for
  // `use` (null: whole).
  static std::shared_ptr<const ValuePlan> Build(const schema::Schema* s, bool resource, const cel::FieldUse* use = nullptr,
                                                Cache* cache = nullptr);

  // `v` as rules see it. REQUIRES: the plan and `v` outlive the value (its strings borrow both).
  // With `arena`, its lists and maps are made there (and then live no longer than it).
  cel::Value Convert(const nlohmann::json& v, cel::ValueArena* arena = nullptr) const;

  // How values of the node convert.
  enum class Shape : uint8_t { kJson, kObject, kMap, kArray, kNumber, kTimestamp, kDate, kDuration, kBytes, kMetadata };

 private:
  struct Property {
    std::string key;       // in the JSON
    std::string cel_name;  // as rules see it
    std::shared_ptr<const ValuePlan> plan;
    bool renamed = false;  // cel_name != key: JSON order is not the names' order
  };
  static std::shared_ptr<const ValuePlan> BuildAt(const schema::Schema* s, bool resource, const cel::FieldUse* use,
                                                  Cache* cache, int depth);
  cel::Value ConvertObject(const nlohmann::json& v, cel::ValueArena* arena) const;

  Shape shape_ = Shape::kJson;
  bool whole_ = true;
  bool resource_ = false;  // a resource root or embedded resource: metadata is cut
  // kObject: the visible properties (all declared ones when whole, else the used ones), sorted
  // by key; kMap used by key: the used keys.
  std::vector<Property> properties_;
  bool renamed_ = false;  // a property's cel_name differs from its key
  std::shared_ptr<const ValuePlan> items_;  // kArray items, kMap values
  cel::ListSemantics list_ = cel::ListSemantics::kAtomic;
  std::vector<std::string> map_keys_;  // list-type map: the key fields, escaped
};

}  // namespace kube::apiextensions
