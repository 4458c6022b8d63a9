// Embeds data/catalogue.json into the binary (util/embed.h). CMake passes its absolute path as
// KUBE_CATALOGUE_JSON_PATH and makes this object depend on the file, so editing the JSON
// rebuilds it.
#include "catalogue/catalogue.h"
#include "util/embed.h"

#ifndef KUBE_CATALOGUE_JSON_PATH
#error "KUBE_CATALOGUE_JSON_PATH must name data/catalogue.json (set by CMakeLists.txt)"
#endif

KUBE_EMBED_FILE(kube_catalogue_json, KUBE_CATALOGUE_JSON_PATH)

namespace kube::catalogue {

std::string_view EmbeddedCatalogueJson() { return KUBE_EMBEDDED(kube_catalogue_json); }

}  // namespace kube::catalogue
