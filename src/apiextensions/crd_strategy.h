// The registry strategy of CustomResourceDefinition objects (kube's customresourcedefinition
// strategy): v1 defaulting, validation of the CRD (names, versions, structural schemas, defaults
// against their schema, printer columns, selectable fields) with kube's 422 causes,
// status.storedVersions kept as kube keeps it, and the cleanup finalizer a delete adds so that the
// custom resources go first.
//
// Thread-safety: stateless; shared by every request.
#pragma once

#include "registry/strategy.h"

namespace kube::apiextensions {

class CrdStrategy final : public registry::Strategy {
 public:
  void PrepareForCreate(storage::Object* obj) const override;
  void PrepareForUpdate(std::string_view subresource, storage::Object* next,
                        const storage::Object& current) const override;
  registry::FieldErrors Validate(const storage::Object& obj) const override;
  registry::FieldErrors ValidateUpdate(std::string_view subresource, const storage::Object& obj,
                                       const storage::Object& old, std::vector<std::string>* warnings) const override;
  std::vector<std::string> FinalizersOnDelete(const storage::Object& obj) const override;
};

}  // namespace kube::apiextensions
