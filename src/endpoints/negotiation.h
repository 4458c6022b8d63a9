// Content negotiation (kube's negotiation package, for what clients send): which representation
// of the response an Accept header asks for, and what a request body's Content-Type is.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace kube::endpoints {

struct Representation {
  enum class As {
    kObject,                     // the plain object / list
    kTable,                      // meta.k8s.io Table
    kPartialObjectMetadata,      // PartialObjectMetadata(List)
    kPartialObjectMetadataList,
    kDiscovery,                  // apidiscovery.k8s.io APIGroupDiscoveryList (v2 / v2beta1)
  };
  As as = As::kObject;
  std::string version;  // v1 / v1beta1 for Table, v2 / v2beta1 for discovery
  // The client prefers application/vnd.kubernetes.protobuf (objects, lists, Status,
  // PartialObjectMetadata and watch streams; Tables and discovery are JSON only).
  bool protobuf = false;
  // The client asked for application/yaml (plain objects, lists and Status only).
  bool yaml = false;
};

// Picks the first media range in `accept` this server can produce: JSON in any form, protobuf
// for objects and PartialObjectMetadata (never for Tables or discovery, whose protobuf ranges
// are passed over as kube falls back to the next one). An empty Accept means JSON.
// `allow_discovery` lets the aggregated discovery form be chosen; `allow_protobuf` false (custom
// resources, which have no protobuf form) passes protobuf ranges over. application/yaml gives
// the plain object in YAML. kNotAcceptable when nothing fits.
Result<Representation> Negotiate(std::string_view accept, bool allow_discovery = false, bool allow_protobuf = true);

// go-restful's check before a built-in resource's handler runs: whether some Accept clause, its
// parameters dropped, is */* or one of the media types the route produces (JSON, YAML and
// protobuf; a collection's GET route also the two watch stream types). When none is, go-restful
// answers 406 with the Status RouteNotAcceptable returns. An empty Accept passes.
bool RouteAccepts(std::string_view accept, bool collection_get);
Status RouteNotAcceptable(bool collection_get);

enum class BodyType { kJson, kYaml, kProtobuf, kJsonPatch, kMergePatch, kStrategicMergePatch,
                      kApplyPatch, kUnknown };
// The media type of a request body, parameters ignored.
BodyType ParseContentType(std::string_view content_type);

}  // namespace kube::endpoints
