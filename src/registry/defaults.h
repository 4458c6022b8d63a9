// Kubernetes' built-in defaulting for the JSON bodies of built-in kinds.
//
// kube-apiserver defaults every object it decodes (the SetDefaults_* functions of
// pkg/apis/<group>/<version>/defaults.go, called through the generated defaulters, plus the
// declarative +default tags), so clients read back e.g. a Deployment with strategy RollingUpdate
// 25%/25%, or a Pod whose containers carry imagePullPolicy and terminationMessagePath. This file
// reproduces that behaviour of Kubernetes 1.33-1.36 (the feature gates as they default there) for
// the kinds this server stores. The registry calls it on every create and update body, before
// validation.
//
// Contract of ApplyDefaults:
//  - Only fields the client left unset are filled. "Unset" follows the Go type of the field: an
//    absent key or null for pointers, slices and maps; additionally "" for plain strings and 0 for
//    plain integers (the Go zero value, which kube cannot tell from unset). Three exceptions mirror
//    kube exactly: Service spec.sessionAffinityConfig is dropped when sessionAffinity is None, the
//    deprecated pod spec.serviceAccount is made equal to spec.serviceAccountName, and
//    StatefulSet volumeClaimTemplates get apiVersion v1 / kind PersistentVolumeClaim.
//  - Kinds without defaults (and group/versions it does not know) are left untouched.
//  - It never throws. Objects of the wrong shape are tolerated: a field of an unexpected JSON type
//    is left alone (with whatever it holds), as is everything below it; validation reports it.
//  - It is idempotent: defaulting a defaulted object changes nothing.
//  - Service: no cluster IP and no node port is allocated (kube does that in the Service REST
//    storage, not in defaulting: server/service_allocation.h, which also settles the families on
//    dual-stack and IPv6 ranges). The IP-family fields are set as a single-stack IPv4 cluster
//    would set them.
//
// Thread-safety: pure functions of their arguments (read-only static tables); concurrent calls
// on distinct objects are safe.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kube::registry {

// Applies kube's built-in defaulting for the object's kind (no-op for kinds without defaults).
// Never throws; tolerates objects of the wrong shape (a field of the wrong type is left alone).
void ApplyDefaults(std::string_view group, std::string_view version, std::string_view kind, nlohmann::json* obj);

// The imagePullPolicy kube defaults for a container image: "Always" when the reference names the
// tag "latest" or neither a tag nor a digest, "IfNotPresent" otherwise (also for references that
// do not parse). Exposed for tests.
std::string DefaultImagePullPolicy(std::string_view image);

// ---------------------------------------------------------------------------------------------
// Not part of the API: shared by defaults.cc, defaults_core.cc and defaults_apps.cc.
namespace defaults_internal {

using Json = nlohmann::json;

// The value at `key` of `obj` when `obj` is an object and the value is present and not null.
Json* Get(Json* obj, const char* key);
Json* GetObject(Json* obj, const char* key);  // ... and an object
Json* GetArray(Json* obj, const char* key);   // ... and an array
// The object at `key`, created ({}) when absent or null (a Go struct value always exists);
// nullptr when `obj` is not an object or the value has another type.
Json* EnsureObject(Json* obj, const char* key);
// The object elements of an array (nullptr or a non-array gives none).
std::vector<Json*> Objects(Json* array);
// The string at `key`, or "" when absent or not a string.
std::string GetString(Json* obj, const char* key);
bool IsNonEmptyObject(const Json* v);
bool IsNonEmptyArray(const Json* v);

// Go pointer, slice and map fields: sets `key` when absent or null.
void DefaultValue(Json* obj, const char* key, const Json& value);
// Go string fields: sets `key` when absent, null or "". Other types are left alone.
void DefaultString(Json* obj, const char* key, std::string_view value);
// Go non-pointer integer fields: sets `key` when absent, null or 0. Other types are left alone.
void DefaultInt(Json* obj, const char* key, std::int64_t value);

// core/v1 pieces used by the other groups.
void DefaultPodSpec(Json* spec);              // a PodSpec anywhere (pods and templates)
void DefaultPodTemplateSpec(Json* tmpl);      // a PodTemplateSpec: its spec (created if absent)
void DefaultPersistentVolumeClaim(Json* pvc);  // a whole PVC (StatefulSet claim templates too)

// Per group; `kind` is the object's kind. Unknown kinds are no-ops.
void DefaultCoreV1(std::string_view kind, Json* obj);
void DefaultAppsV1(std::string_view kind, Json* obj);
void DefaultBatchV1(std::string_view kind, Json* obj);

}  // namespace defaults_internal
}  // namespace kube::registry
