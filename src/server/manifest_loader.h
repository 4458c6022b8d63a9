// Preloading manifests (--load, and the embedding API's LoadManifests): reads files and
// directories of Kubernetes objects and creates them through the API server as the admin, so the
// objects go through exactly what a `kubectl create` would (decoding, defaulting, strict field
// validation, the kind's validation, CRD schemas).
//
// Reading: a path is a file or a directory; a directory contributes its *.yaml, *.yml and *.json
// files in name order, not descending into subdirectories (as `kubectl create -f DIR` without
// -R). A YAML file holds any number of documents separated by `---` lines (empty documents are
// skipped and not counted); a JSON file holds one object. A `List` kind (`kind: List` or any
// `...List` with `items`) contributes its items.
//
// Order: CustomResourceDefinitions first, each waited for until it is Established and its
// versions are served; then Namespaces; then everything else, each group in reading order.
// An object that already exists (a restart over --data-dir, or a built-in namespace) is left as
// it is and counted as unchanged. Any other refusal stops the load at that object, with the file,
// the document's 1-based index (and the item's for a List) and kube's error.
//
// Thread-safety: pure functions over a thread-safe ApiServer and ApiRegistry.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "endpoints/api_server.h"
#include "registry/api_registry.h"
#include "util/status.h"

namespace kube::server {

// One object read from a manifest.
struct Manifest {
  std::string file;
  int document = 0;  // 1-based among the file's non-empty documents
  int item = -1;     // index in the List's items, or -1 when the document is the object
  nlohmann::json object;

  // `"file" (document 2)` or `"file" (document 1, items[3])`, for messages.
  std::string Where() const;
};

// Every object under `paths`, in reading order. Errors: an unreadable path, a document that is
// not valid YAML/JSON or not an object with apiVersion and kind (400-style, with the place).
Result<std::vector<Manifest>> ReadManifests(const std::vector<std::string>& paths);

// Stable-sorts `manifests` into creation order: CRDs, Namespaces, the rest.
void OrderForCreation(std::vector<Manifest>* manifests);

struct LoadOptions {
  // How long a CRD may take to become Established and served. Default: 30 s.
  std::chrono::milliseconds crd_timeout = std::chrono::seconds(30);
};

struct LoadSummary {
  size_t created = 0;
  size_t unchanged = 0;  // already existed
};

// Creates `manifests` in creation order (they are ordered here) through `api` as the admin.
Result<LoadSummary> CreateManifests(endpoints::ApiServer& api, registry::ApiRegistry& registry,
                                    std::vector<Manifest> manifests, const LoadOptions& options = {});

// ReadManifests + CreateManifests.
Result<LoadSummary> LoadManifests(endpoints::ApiServer& api, registry::ApiRegistry& registry,
                                  const std::vector<std::string>& paths, const LoadOptions& options = {});

}  // namespace kube::server
