// A YAML request body: YamlToJson and YamlToJsonStrict as the handlers call them, and for what
// converts, the `-o yaml` renderer. Properties: the strict decoder accepts nothing the lenient
// one rejects and agrees with it where it accepts; rendered YAML reads back as the same JSON
// (checked for valid UTF-8 only: the renderer replaces invalid bytes, as Go does; and without
// YAML 1.1's extra line breaks, see HasYaml11Break).
#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "yaml/yaml.h"

using namespace kube;

namespace {

bool ValidUtf8(const nlohmann::json& j) {
  try {
    (void)j.dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

// NEL, LS and PS are line breaks to go-yaml (YAML 1.1), which the renderer follows, and content
// to yaml-cpp (YAML 1.2), which the reader is built on: indentation after one in a rendered
// multi-line scalar reads back as content. A known divergence of the reader, left out here.
bool HasYaml11Break(const nlohmann::json& j) {
  const std::string text = j.dump();
  return text.find("\xC2\x85") != std::string::npos || text.find("\xE2\x80\xA8") != std::string::npos ||
         text.find("\xE2\x80\xA9") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::AsText(data, size);
  auto lenient = yaml::YamlToJson(text);
  auto strict = yaml::YamlToJsonStrict(text);
  if (!lenient.ok()) {
    KUBE_FUZZ_CHECK(!strict.ok());
    return 0;
  }
  if (strict.ok()) fuzz::CheckSameJson(*strict, *lenient, "strict and lenient decoding agree");
  const std::string rendered = yaml::JsonToYaml(*lenient);
  if (!ValidUtf8(*lenient) || HasYaml11Break(*lenient)) return 0;
  auto reread = yaml::YamlToJson(rendered);
  KUBE_FUZZ_CHECK(reread.ok());
  fuzz::CheckSameJson(*reread, *lenient, "rendered YAML reads back as the same JSON");
  return 0;
}
