// KUBE_EMBED_FILE: puts a file's bytes into the binary at build time and defines a function that
// returns them. The assembler's .incbin copies the bytes verbatim: no generated source, no
// run-time file access; works with any GCC/Clang that uses the GNU assembler. The build must pass
// the file's absolute path as a string macro and make the object depend on the file.
//
// Usage, at namespace scope in one .cc file:
//   KUBE_EMBED_FILE(kube_catalogue_json, KUBE_CATALOGUE_JSON_PATH)
//   std::string_view EmbeddedCatalogueJson() { return KUBE_EMBEDDED(kube_catalogue_json); }
//
// Thread-safety: the bytes are immutable read-only data.
#pragma once

#include <cstddef>
#include <string_view>

// The symbols are hidden so they can neither clash with nor be interposed by another copy in a
// shared object. A NUL byte follows the data (not part of the view).
#define KUBE_EMBED_FILE(symbol, path)                                                   \
  __asm__(".pushsection .rodata\n"                                                      \
          ".balign 16\n"                                                                \
          ".globl " #symbol "_begin\n"                                                  \
          ".hidden " #symbol "_begin\n" #symbol "_begin:\n"                             \
          ".incbin \"" path "\"\n"                                                      \
          ".globl " #symbol "_end\n"                                                    \
          ".hidden " #symbol "_end\n" #symbol "_end:\n"                                 \
          ".byte 0\n"                                                                   \
          ".popsection\n");                                                             \
  extern "C" {                                                                          \
  __attribute__((visibility("hidden"))) extern const char symbol##_begin[];             \
  __attribute__((visibility("hidden"))) extern const char symbol##_end[];               \
  }

#define KUBE_EMBEDDED(symbol) \
  std::string_view(symbol##_begin, static_cast<std::size_t>(symbol##_end - symbol##_begin))
