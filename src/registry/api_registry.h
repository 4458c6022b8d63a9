// ApiRegistry: the storage of every built-in resource of the catalogue, ready to serve — one kv
// store; per storage prefix a KvStore and a watch cache; per served group/version/resource a
// registry::Store; the namespace lifecycle with the initial namespaces.
//
// Thread-safety: immutable after Open(); every Store is safe for concurrent use.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cacher/cacher.h"
#include "catalogue/catalogue.h"
#include "kv/store.h"
#include "registry/namespace_lifecycle.h"
#include "registry/store.h"
#include "storage/kv_store.h"

namespace kube::registry {

struct RegistryOptions {
  // The kv store (in memory by default; data_dir persists).
  kv::Options kv;
  // Watch cache options for every resource.
  cacher::Options cacher;
  // Readiness wait for the caches at Open(). Default: 10 s.
  std::chrono::milliseconds ready_timeout = std::chrono::seconds(10);
};

class ApiRegistry {
 public:
  static Result<std::unique_ptr<ApiRegistry>> Open(const RegistryOptions& options,
                                                   const catalogue::Catalogue& catalogue);
  ~ApiRegistry();

  const catalogue::Catalogue& catalogue() const { return catalogue_; }
  // The store of a served resource, or nullptr (not served, or never stored: reviews, bindings).
  Store* Find(std::string_view group, std::string_view version, std::string_view resource) const;
  kv::Store* kv() const { return kv_.get(); }
  // OK when every cache has initialised.
  Status ReadinessCheck() const;

 private:
  explicit ApiRegistry(const catalogue::Catalogue& catalogue) : catalogue_(catalogue) {}

  const catalogue::Catalogue& catalogue_;
  std::unique_ptr<kv::Store> kv_;
  std::vector<std::unique_ptr<storage::KvStore>> kv_stores_;
  std::vector<std::unique_ptr<cacher::Cacher>> cachers_;
  NamespaceLifecycle namespaces_;
  std::map<std::string, std::unique_ptr<Store>, std::less<>> stores_;  // "group/version/resource"
};

}  // namespace kube::registry
