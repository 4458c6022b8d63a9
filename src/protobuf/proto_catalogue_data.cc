// Embeds data/proto_catalogue.json into the binary. CMake passes its absolute path as
// KUBE_PROTO_CATALOGUE_JSON_PATH and makes this object depend on the file, so editing the JSON
// rebuilds it. The assembler's .incbin copies the bytes verbatim: no generated source, no
// run-time file access, and it works with any GCC/Clang that uses the GNU assembler.
//
// Origin of the data: derived by tools/gen_proto_catalogue.py from the Kubernetes 1.36
// generated.proto files (k8s.io/api, k8s.io/apimachinery; Apache-2.0, The Kubernetes Authors).
// The .proto files themselves are not part of this repository.
#include <cstddef>
#include <string_view>

#include "protobuf/proto_catalogue.h"

#ifndef KUBE_PROTO_CATALOGUE_JSON_PATH
#error "KUBE_PROTO_CATALOGUE_JSON_PATH must name data/proto_catalogue.json (set by CMakeLists.txt)"
#endif

// Hidden: the symbols must not clash with or be interposed by another copy in a shared object.
__asm__(
    ".pushsection .rodata\n"
    ".balign 16\n"
    ".globl kube_proto_catalogue_json_begin\n"
    ".hidden kube_proto_catalogue_json_begin\n"
    "kube_proto_catalogue_json_begin:\n"
    ".incbin \"" KUBE_PROTO_CATALOGUE_JSON_PATH "\"\n"
    ".globl kube_proto_catalogue_json_end\n"
    ".hidden kube_proto_catalogue_json_end\n"
    "kube_proto_catalogue_json_end:\n"
    ".byte 0\n"
    ".popsection\n");

extern "C" {
__attribute__((visibility("hidden"))) extern const char kube_proto_catalogue_json_begin[];
__attribute__((visibility("hidden"))) extern const char kube_proto_catalogue_json_end[];
}

namespace kube::protobuf {

std::string_view EmbeddedProtoCatalogueJson() {
  return std::string_view(
      kube_proto_catalogue_json_begin,
      static_cast<std::size_t>(kube_proto_catalogue_json_end - kube_proto_catalogue_json_begin));
}

}  // namespace kube::protobuf
