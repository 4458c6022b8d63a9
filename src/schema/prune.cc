#include "schema/prune.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace kube::schema {

namespace {

using json = nlohmann::json;

bool IsMetaField(std::string_view k) { return k == "apiVersion" || k == "kind" || k == "metadata"; }

class Pruner {
 public:
  explicit Pruner(const PruneOptions& options) : options_(options) {}

  std::vector<std::string> Run(const Schema* schema, json& value) {
    if (options_.resource_root && value.is_object()) {
      if (auto meta = value.find("metadata"); meta != value.end()) PruneMetadata(*meta, "metadata", &root_meta_);
    }
    Visit(schema, value, options_.resource_root || schema->EmbeddedResource());
    std::vector<std::string> out = std::move(root_meta_);
    std::sort(out.begin(), out.end());
    std::sort(pruned_.begin(), pruned_.end());
    std::sort(embedded_meta_.begin(), embedded_meta_.end());
    out.insert(out.end(), pruned_.begin(), pruned_.end());
    out.insert(out.end(), embedded_meta_.begin(), embedded_meta_.end());
    return out;
  }

 private:
  struct Segment {
    enum Kind { kField, kKey, kIndex } kind;
    std::string name;
  };

  // The schema of `key` in an object of node `s`: a described field or a map entry.
  static const Schema* Described(const Schema* s, const std::string& key, Segment::Kind* kind) {
    if (s->type() == Schema::Type::kObject) {
      *kind = Segment::kField;
      return s->Field(key);
    }
    if (s->type() == Schema::Type::kMap) {
      *kind = Segment::kKey;
      return s->Items();
    }
    return nullptr;
  }

  static bool Embedded(const Schema* s) { return s != nullptr && s->EmbeddedResource(); }

  // pruning.prune: `s` null means "nothing described".
  void Visit(const Schema* s, json& x, bool embedded) {
    if (s != nullptr && s->PreserveUnknownFields()) {
      Keep(s, x, embedded);
      return;
    }
    if (x.is_object()) {
      if (s == nullptr) {
        for (auto it = x.begin(); it != x.end(); ++it) Record(it.key());
        x = json::object();
        return;
      }
      Fields(s, x, embedded, /*drop_unknown=*/true);
    } else if (x.is_array()) {
      const Schema* items = s != nullptr && s->type() == Schema::Type::kArray ? s->Items() : nullptr;
      for (size_t i = 0; i < x.size(); ++i) {
        path_.push_back({Segment::kIndex, std::to_string(i)});
        Visit(items, x[i], Embedded(items));
        path_.pop_back();
      }
    }
  }

  // pruning.skipPrune: unknown fields stay, described ones are pruned by their schemas.
  void Keep(const Schema* s, json& x, bool embedded) {
    if (s == nullptr) return;
    if (x.is_object()) {
      Fields(s, x, embedded, /*drop_unknown=*/false);
    } else if (x.is_array()) {
      const Schema* items = s->type() == Schema::Type::kArray ? s->Items() : nullptr;
      for (size_t i = 0; i < x.size(); ++i) {
        path_.push_back({Segment::kIndex, std::to_string(i)});
        Keep(items, x[i], Embedded(items));
        path_.pop_back();
      }
    }
  }

  // The fields of an object of node `s`: described ones are pruned by their schemas, unknown ones
  // dropped or kept.
  void Fields(const Schema* s, json& x, bool embedded, bool drop_unknown) {
    std::vector<std::string> drop;
    for (auto it = x.begin(); it != x.end(); ++it) {
      if (embedded && IsMetaField(it.key())) {
        Metadata(it.key(), it.value());
        continue;
      }
      Segment::Kind kind;
      if (const Schema* child = Described(s, it.key(), &kind)) {
        path_.push_back({kind, it.key()});
        Visit(child, it.value(), Embedded(child));
        path_.pop_back();
      } else if (drop_unknown) {
        // An unknown apiVersion/kind/metadata at the root is dropped without a word, as in kube.
        if (!IsMetaField(it.key()) || !path_.empty()) Record(it.key());
        drop.push_back(it.key());
      }
    }
    for (const auto& k : drop) x.erase(k);
  }

  // apiVersion/kind/metadata of an embedded resource: kept; metadata pruned to ObjectMeta (the
  // root's was done first, as kube does it before pruning).
  void Metadata(const std::string& key, json& value) {
    if (key != "metadata" || (path_.empty() && options_.resource_root)) return;
    PruneMetadata(value, FieldPath() + (path_.empty() ? "" : ".") + "metadata", &embedded_meta_);
  }

  // Shares this walk's report budget, so that many embedded resources cannot multiply it.
  void PruneMetadata(json& meta, const std::string& prefix, std::vector<std::string>* out) {
    if (options_.object_meta == nullptr || !meta.is_object()) return;
    PruneOptions nested;
    nested.bracket_map_keys = true;
    nested.max_reported_path_bytes =
        reported_bytes_ < options_.max_reported_path_bytes ? options_.max_reported_path_bytes - reported_bytes_ : 0;
    for (auto& p : Pruner(nested).Run(options_.object_meta, meta)) {
      reported_bytes_ += prefix.size() + p.size() + 2;
      out->push_back(prefix + "." + p);
    }
  }

  void Record(const std::string& key) {
    if (reported_bytes_ >= options_.max_reported_path_bytes) return;
    path_.push_back({Segment::kField, key});
    std::string p;
    for (const auto& s : path_) {
      if (s.kind == Segment::kIndex || (s.kind == Segment::kKey && options_.bracket_map_keys)) {
        p += "[" + s.name + "]";
      } else {
        p += (p.empty() ? "" : ".") + s.name;
      }
    }
    path_.pop_back();
    reported_bytes_ += p.size() + 1;
    pruned_.push_back(std::move(p));
  }

  // field.Path's rendering of the current path: map entries as "[key]".
  std::string FieldPath() const {
    std::string p;
    for (const auto& s : path_) {
      if (s.kind == Segment::kField) {
        p += (p.empty() ? "" : ".") + s.name;
      } else {
        p += "[" + s.name + "]";
      }
    }
    return p;
  }

  const PruneOptions& options_;
  std::vector<Segment> path_;
  std::vector<std::string> root_meta_, pruned_, embedded_meta_;
  size_t reported_bytes_ = 0;
};

}  // namespace

std::vector<std::string> Prune(const Schema* schema, json* value, const PruneOptions& options) {
  if (schema == nullptr || value == nullptr) return {};
  return Pruner(options).Run(schema, *value);
}

}  // namespace kube::schema
