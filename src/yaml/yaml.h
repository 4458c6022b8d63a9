// YAML <-> JSON conversion with the semantics kube-apiserver applies to YAML request bodies
// (sigs.k8s.io/yaml over go-yaml v2), implemented over yaml-cpp.
//
// YamlToJson follows sigs.k8s.io/yaml.YAMLToJSON:
//  - YAML 1.1 scalar typing of go-yaml v2 for plain (unquoted) scalars: true/false/yes/no/on/off/
//    y/n (any of the lower/Title/UPPER spellings) are booleans; null, Null, NULL, ~ and empty
//    values are null; decimal, 0x/0o/0b and leading-0 octal integers (with `_` separators) are
//    integers; YAML-style floats are numbers; timestamps stay strings. Quoted and block scalars
//    are always strings. Explicit tags (!!str, !!int, !!float, !!bool, !!null, !!binary,
//    !!timestamp) are honoured; a tag that does not fit the value is an error.
//  - Integers keep full int64/uint64 precision; floats with an integral value become JSON
//    integers (Go's JSON encoder prints them without a fraction). NaN and infinities are errors
//    (Go's encoder rejects them). Integers beyond uint64 (possible only with 0x/0o/0b) become
//    approximate doubles.
//  - Map keys become strings (ints in decimal, floats as Go formats a float32, bools as
//    true/false); null, sequence, map and out-of-int64 integer keys are errors, as in
//    sigs.k8s.io/yaml.
//  - Anchors, aliases and `<<` merge keys work as in go-yaml v2, including its "excessive
//    aliasing" guard against alias bombs, and self-referencing aliases are an error.
//  - Duplicate keys: the later value wins (sigs.k8s.io/yaml.YAMLToJSON). kube decodes request
//    bodies that way and additionally runs YAMLToJSONStrict, turning its error into a 400
//    (fieldValidation=Strict) or a warning (Warn, the default); YamlToJsonStrict is that check.
//  - Empty input (or only comments) is JSON null. Input with more than one non-empty document is
//    a BadRequest; empty documents after the first (e.g. a trailing `---`) are ignored.
//    (kube itself silently decodes only the first document.)
// Errors are Status::BadRequest with kube's text, "error converting YAML to JSON: yaml: line N:
// <problem>". Syntax errors are detected by yaml-cpp, so the problem text is go-yaml's wording
// for the common cases and yaml-cpp's otherwise, and line numbers may differ from go-yaml's.
// Known divergence: yaml-cpp reads YAML 1.2, where NEL, LS and PS (U+0085, U+2028, U+2029) are
// content; go-yaml (1.1) breaks lines there, so indentation after one inside a scalar differs.
// No exception ever escapes.
//
// Thread-safety: all functions are reentrant and may be called concurrently.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "util/status.h"

namespace kube::yaml {

// Converts one YAML document to JSON as sigs.k8s.io/yaml.YAMLToJSON does for request bodies.
Result<nlohmann::json> YamlToJson(std::string_view yaml);

// As YamlToJson, but a key repeated in a mapping is an error, as sigs.k8s.io/yaml.
// YAMLToJSONStrict reports it: "error converting YAML to JSON: yaml: unmarshal errors:\n
// line N: key \"a\" already set in map" (one line per duplicate).
Result<nlohmann::json> YamlToJsonStrict(std::string_view yaml);

// Renders JSON as YAML the way sigs.k8s.io/yaml.JSONToYAML (go-yaml v2's emitter) does, as used
// for `-o yaml`: block style, 2-space indentation, sequences in mappings not indented, keys in
// go-yaml's order, strings quoted only when they would otherwise read back as another type or
// are not valid plain scalars, multi-line strings as literal blocks, lines folded at 80 columns.
// Invalid UTF-8 in strings is replaced by U+FFFD (as Go's JSON encoder does before go-yaml sees
// the data). Always ends with a newline.
std::string JsonToYaml(const nlohmann::json& j);

}  // namespace kube::yaml
