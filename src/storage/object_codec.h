// How objects are stored and stamped: JSON text with metadata.resourceVersion and
// metadata.selfLink cleared (resourceVersions are never persisted; they are the mod revision),
// and helpers to read an object's metadata.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "storage/interface.h"

namespace kube::storage {

// The bytes stored for `obj`: compact JSON without resourceVersion and selfLink. Deterministic
// (keys sorted), so identical objects encode to identical bytes (no-op update detection).
std::string EncodeObject(const Object& obj);

// Parses stored bytes and stamps resourceVersion = `revision`. kInternalError on corrupt data.
Result<ObjectPtr> DecodeObject(std::string_view bytes, int64_t revision);

// A copy of `obj` with metadata.resourceVersion set to `revision`.
ObjectPtr StampResourceVersion(const Object& obj, int64_t revision);
void SetResourceVersion(Object* obj, int64_t revision);

// metadata.resourceVersion / metadata.uid as strings ("" when absent).
std::string ObjectResourceVersion(const Object& obj);
std::string ObjectUid(const Object& obj);

// kConflict with kube's "Precondition failed: ..." text when `obj` does not satisfy them.
Status CheckPreconditions(const Preconditions* preconditions, const Object& obj);

// An object for BOOKMARK events: `empty` (the resource type's empty object) with only
// metadata.resourceVersion set, plus the initial-events-end annotation when asked.
ObjectPtr MakeBookmark(const Object& empty, int64_t revision, bool initial_events_end);

}  // namespace kube::storage
