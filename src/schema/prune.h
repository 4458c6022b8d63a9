// Pruning: drops the fields a schema does not describe and reports their paths, as kube prunes
// custom resources on decode (apiextensions-apiserver's pruning + ObjectMeta coercion) and as
// typed decoding drops unknown fields of built-in kinds. The paths feed fieldValidation: Strict
// refuses `unknown field "spec.foo"`, Warn warns, Ignore drops silently.
//
// Rules (kube 1.36):
//  - An object keeps the fields its node describes (kObject fields, every kMap entry); others go.
//  - x-kubernetes-preserve-unknown-fields (and free-form kAny nodes of built-in kinds) keep
//    unknown fields below the node; described fields below are still pruned by their own schema.
//  - A non-preserving node without structure (a scalar, an object without properties) given an
//    object drops all its fields; arrays are pruned item by item with the item schema.
//  - Resources (the root with resource_root, every x-kubernetes-embedded-resource node): apiVersion
//    and kind are kept, metadata is not pruned by the node's schema but by ObjectMeta's.
//  - Paths: "spec.foo", "spec.list[0].bar"; map entries "spec.map.key" (kube's CR pruning) or
//    "data[key]" (typed decoding, bracket_map_keys). Returned in kube's order: the root's metadata
//    fields, then the pruned fields (sorted), then embedded resources' metadata fields (sorted,
//    their map entries as "[key]").
//  - Reports are bounded: once the recorded paths hold max_reported_path_bytes, further pruned
//    fields are still removed but no longer reported (a hostile body could otherwise ask for one
//    long path per field). Time is linear in the size of the value.
//
// Thread-safety: pure function over `value`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "schema/schema.h"

namespace kube::schema {

struct PruneOptions {
  // The value is a whole resource (a custom resource): its apiVersion, kind and metadata are
  // handled as for an embedded resource. Default: false (built-in kinds: their schema describes
  // those fields).
  bool resource_root = false;
  // ObjectMeta's schema (catalogue definition io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta):
  // the metadata of resources is pruned to it. nullptr (the default): metadata is kept as it is.
  const Schema* object_meta = nullptr;
  // Map entries in paths as "data[key]" (what endpoints report for built-in kinds) instead of
  // kube's CR pruning "data.key". Default: false.
  bool bracket_map_keys = false;
  // Paths stop being recorded once those recorded hold this many bytes. Default: 64 KiB.
  size_t max_reported_path_bytes = 64 * 1024;
};

// Removes the fields `schema` does not describe from `value` in place and returns their paths.
// A null schema describes nothing known and prunes nothing.
std::vector<std::string> Prune(const Schema* schema, nlohmann::json* value, const PruneOptions& options = {});

}  // namespace kube::schema
