// Embeds data/proto_catalogue.json into the binary (util/embed.h). CMake passes its absolute path
// as KUBE_PROTO_CATALOGUE_JSON_PATH and makes this object depend on the file, so editing the JSON
// rebuilds it.
//
// Origin of the data: derived by tools/gen_proto_catalogue.py from the Kubernetes 1.36
// generated.proto files (k8s.io/api, k8s.io/apimachinery; Apache-2.0, The Kubernetes Authors).
// The .proto files themselves are not part of this repository.
#include "protobuf/proto_catalogue.h"
#include "util/embed.h"

#ifndef KUBE_PROTO_CATALOGUE_JSON_PATH
#error "KUBE_PROTO_CATALOGUE_JSON_PATH must name data/proto_catalogue.json (set by CMakeLists.txt)"
#endif

KUBE_EMBED_FILE(kube_proto_catalogue_json, KUBE_PROTO_CATALOGUE_JSON_PATH)

namespace kube::protobuf {

std::string_view EmbeddedProtoCatalogueJson() { return KUBE_EMBEDDED(kube_proto_catalogue_json); }

}  // namespace kube::protobuf
