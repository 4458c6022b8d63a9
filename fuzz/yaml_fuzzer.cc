// A YAML request body: YamlToJson and YamlToJsonStrict as the handlers call them, and for what
// converts, the `-o yaml` renderer. Properties: the strict decoder accepts nothing the lenient
// one rejects and agrees with it where it accepts; rendered YAML reads back as the same JSON
// (checked for valid UTF-8 only: the renderer replaces invalid bytes, as Go does).
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::AsText(data, size);
  auto lenient = yaml::YamlToJson(text);
  auto strict = yaml::YamlToJsonStrict(text);
  if (!lenient.ok()) {
    KUBE_FUZZ_CHECK(!strict.ok());
    return 0;
  }
  if (strict.ok()) KUBE_FUZZ_CHECK(*strict == *lenient);
  const std::string rendered = yaml::JsonToYaml(*lenient);
  if (!ValidUtf8(*lenient)) return 0;
  auto reread = yaml::YamlToJson(rendered);
  KUBE_FUZZ_CHECK(reread.ok());
  KUBE_FUZZ_CHECK(*reread == *lenient);
  return 0;
}
