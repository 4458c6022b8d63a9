// Embeds data/catalogue.json into the binary. CMake passes its absolute path as
// KUBE_CATALOGUE_JSON_PATH and makes this object depend on the file, so editing the JSON
// rebuilds it. The assembler's .incbin copies the bytes verbatim: no generated source, no
// run-time file access, and it works with any GCC/Clang that uses the GNU assembler.
#include <cstddef>
#include <string_view>

#include "catalogue/catalogue.h"

#ifndef KUBE_CATALOGUE_JSON_PATH
#error "KUBE_CATALOGUE_JSON_PATH must name data/catalogue.json (set by CMakeLists.txt)"
#endif

// Hidden: the symbols must not clash with or be interposed by another copy in a shared object.
__asm__(
    ".pushsection .rodata\n"
    ".balign 16\n"
    ".globl kube_catalogue_json_begin\n"
    ".hidden kube_catalogue_json_begin\n"
    "kube_catalogue_json_begin:\n"
    ".incbin \"" KUBE_CATALOGUE_JSON_PATH "\"\n"
    ".globl kube_catalogue_json_end\n"
    ".hidden kube_catalogue_json_end\n"
    "kube_catalogue_json_end:\n"
    ".byte 0\n"
    ".popsection\n");

extern "C" {
__attribute__((visibility("hidden"))) extern const char kube_catalogue_json_begin[];
__attribute__((visibility("hidden"))) extern const char kube_catalogue_json_end[];
}

namespace kube::catalogue {

std::string_view EmbeddedCatalogueJson() {
  return std::string_view(
      kube_catalogue_json_begin,
      static_cast<std::size_t>(kube_catalogue_json_end - kube_catalogue_json_begin));
}

}  // namespace kube::catalogue
