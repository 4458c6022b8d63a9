// The built-in API catalogue: every group/version/resource kube-apiserver 1.36 serves (scope,
// verbs, subresources, shortNames, categories, etcd key prefix, preferred versions) and the
// structural schema of every built-in type (see schema.h).
//
// Where the data comes from: tools/gen_catalogue.py derives src/catalogue/data/catalogue.json from
// the Kubernetes 1.36 OpenAPI v2 document (Apache-2.0, see NOTICE; the document itself is not in
// this repository) and the file is committed. The build embeds that file into the binary (the
// .incbin in catalogue_data.cc): nothing is read from disk at run time. To refresh it:
//   tools/gen_catalogue.py [path/to/openapi-v2.json]      (--check: verify it is up to date)
//
// catalogue.json format (one JSON object; one group / resource / definition per line):
//   "format": 1, "source": {project, license, document}
//   "groups":    [{"name", "versions" (preferred first, kube's priority order), "preferred"}]
//   "resources": [{"g" group ("" = core), "v" version, "r" resource, "s" singular, "k" kind,
//                  "lk" list kind ("" = not listable), "ns" namespaced, "verbs",
//                  "short" shortNames, "cat" categories (both omitted when empty),
//                  "sp" storage prefix under /registry ("" = never stored),
//                  "sub" [{"n" subresource, "g", "v", "k" its group/version/kind, "verbs"}]}]
//   "special":   {definition: "int-or-string" | "quantity" | "time" | "any"}
//   "omitempty": {definition: [properties whose empty value Go's encoder leaves out]}
//   "definitions": {definition: OpenAPI v2 schema without prose}: keys type, format,
//                  properties, required, items, additionalProperties, $ref
//                  ("#/definitions/<name>"), enum and the x-kubernetes-* extensions
//                  group-version-kind, list-type, list-map-keys, patch-strategy, patch-merge-key,
//                  int-or-string, preserve-unknown-fields, map-type, embedded-resource.
//
// Thread-safety: BuiltIn() parses the embedded data on first use (thread-safe); the catalogue is
// immutable afterwards and never destroyed, so references and Schema pointers into it stay valid
// for the whole process and may be shared between threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalogue/schema.h"

namespace kube::catalogue {

struct ResourceInfo {
  std::string group;     // "" for the core group
  std::string version;
  std::string resource;  // plural, lower case: "pods"
  std::string singular;  // lower-case kind: "pod"
  std::string kind;
  std::string list_kind;  // "PodList"; empty when the resource cannot be listed
  bool namespaced = false;
  std::vector<std::string> verbs;  // discovery verbs, sorted
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  // etcd key prefix below /registry, as kube-apiserver lays keys out ("/pods",
  // "/services/specs"); empty for resources that are never stored (reviews, bindings).
  std::string storage_prefix;

  struct Subresource {
    std::string name;  // "status", "scale", "log" ...
    // The kind served by the subresource (Scale is autoscaling/v1 Scale, eviction policy/v1).
    std::string group;
    std::string version;
    std::string kind;
    std::vector<std::string> verbs;
  };
  std::vector<Subresource> subresources;  // sorted by name

  // The subresource `name`, or nullptr.
  const Subresource* FindSubresource(std::string_view name) const;
};

struct GroupInfo {
  std::string name;                   // "" for the core group
  std::vector<std::string> versions;  // preferred first, then kube's version priority order
  std::string preferred_version;
};

// The name of the Go package holding a built-in group's internal types, as kube's errors print
// them ("core" for the core group and events.k8s.io, whose Event is core's; else the group's
// first label: "apps", "networking", "rbac"; "apiserverinternal" for internal.apiserver.k8s.io).
std::string InternalGoPackage(std::string_view group);

class Catalogue {
 public:
  // The catalogue embedded at build time. Parsed once, on first use, thread-safe.
  static const Catalogue& BuiltIn();

  Catalogue(const Catalogue&) = delete;
  Catalogue& operator=(const Catalogue&) = delete;
  ~Catalogue();

  // Sorted by name, core ("") first.
  const std::vector<GroupInfo>& Groups() const;
  // nullptr when the group is not served.
  const GroupInfo* FindGroup(std::string_view group) const;
  // Sorted by group, then version priority (preferred first), then resource.
  const std::vector<ResourceInfo>& Resources() const;

  // nullptr when not served. Case-sensitive, plural resource names.
  const ResourceInfo* Find(std::string_view group, std::string_view version,
                           std::string_view resource) const;
  const ResourceInfo* FindByKind(std::string_view group, std::string_view version,
                                 std::string_view kind) const;

  // The schema of a kind (any definition tagged with that group/version/kind: also options
  // kinds such as DeleteOptions), or nullptr.
  const Schema* KindSchema(std::string_view group, std::string_view version,
                           std::string_view kind) const;
  // The schema of a definition by its OpenAPI name ("io.k8s.api.core.v1.PodSpec"), or nullptr.
  const Schema* Definition(std::string_view name) const;

  // Every definition, name -> compact OpenAPI v2 schema (the "definitions" object above), for
  // serving OpenAPI documents.
  const nlohmann::json& RawDefinitions() const;

  // Parses a catalogue document in the format above; throws std::exception on malformed input.
  // BuiltIn() is this over the embedded data; exposed for tests and tools.
  static std::unique_ptr<Catalogue> Parse(std::string_view json_text);

 private:
  struct Impl;
  explicit Catalogue(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The embedded catalogue.json text, exactly as committed.
std::string_view EmbeddedCatalogueJson();

}  // namespace kube::catalogue
