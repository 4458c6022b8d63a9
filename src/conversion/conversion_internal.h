// The field mappings behind conversion::Convert, one function per direction of a pair. Each takes
// an object of the source version and returns it in the target version, apiVersion included.
//
// Thread-safety: free functions over values.
#pragma once

#include "conversion/conversion.h"

namespace kube::conversion::internal {

// autoscaling.cc
Result<Object> HpaV1ToV2(Object in);
Object HpaV2ToV1(Object in);

// events.cc
Object CoreEventToEventsV1(Object in);
Object EventsV1ToCoreEvent(Object in);

// resource_dra.cc: between resource.k8s.io/v1beta1 and the field-identical v1 / v1beta2 layout;
// `to_api_version` is the label of the result.
Object DraV1beta1ToV1(Object in, std::string_view to_api_version);
Object DraV1ToV1beta1(Object in);

// Moves obj[from] to obj[to] when present (replacing what `to` had).
void Rename(Object& obj, const char* from, const char* to);

}  // namespace kube::conversion::internal
