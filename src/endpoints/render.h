// How objects and lists are written for the representation a client asked for: the object
// itself, PartialObjectMetadata(List), or a meta.k8s.io Table (server-side printing).
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "endpoints/negotiation.h"
#include "registry/store.h"
#include "storage/interface.h"

namespace kube::endpoints {

nlohmann::json PartialObjectMetadata(const nlohmann::json& obj);

// A list response: kind <Kind>List (or PartialObjectMetadataList / Table).
Result<nlohmann::json> RenderList(const registry::Store& store, const storage::ListResult& list,
                                  const Representation& rep, std::string_view include_object);
// A single object (GET, write responses, watch event objects).
Result<nlohmann::json> RenderObject(const registry::Store& store, const storage::ObjectPtr& obj,
                                    const Representation& rep, std::string_view include_object,
                                    bool with_column_definitions = true);

// The Scale subresource's answer: the autoscaling/v1 Scale, or its Table (a custom resource's
// scale columns, NAME and AGE otherwise).
Result<nlohmann::json> RenderScale(const registry::Store& store, const nlohmann::json& scale,
                                   const Representation& rep, std::string_view include_object);

}  // namespace kube::endpoints
