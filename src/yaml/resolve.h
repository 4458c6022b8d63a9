// Scalar typing of YAML 1.1 as go-yaml v2 does it (the parser under sigs.k8s.io/yaml), shared by
// YamlToJson (typing plain scalars) and JsonToYaml (deciding which strings need quotes). Not part
// of the library's public API.
//
// Thread-safety: all functions are pure and may be called concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kube::yaml::internal {

inline constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
inline constexpr std::string_view kBoolTag = "tag:yaml.org,2002:bool";
inline constexpr std::string_view kIntTag = "tag:yaml.org,2002:int";
inline constexpr std::string_view kFloatTag = "tag:yaml.org,2002:float";
inline constexpr std::string_view kNullTag = "tag:yaml.org,2002:null";
inline constexpr std::string_view kTimestampTag = "tag:yaml.org,2002:timestamp";
inline constexpr std::string_view kBinaryTag = "tag:yaml.org,2002:binary";
inline constexpr std::string_view kMergeTag = "tag:yaml.org,2002:merge";

// A resolved scalar: go-yaml's (tag, value) pair, with the Go dynamic type as `kind`.
struct Scalar {
  enum class Kind {
    kNull,
    kBool,
    kInt,     // Go int (int64 on 64-bit)
    kUint,    // uint64, for integers above int64's range
    kFloat,   // float64
    kBigInt,  // *big.Int (only hex/octal/binary literals above uint64); `f` approximates it
    kString,  // also timestamps, which go-yaml hands to interface{} targets as the text
    kMerge,   // the "<<" merge key
  };
  Kind kind = Kind::kString;
  std::string tag;  // the resolved long tag
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  std::string s;
};

// go-yaml v2 resolve(tag, in): `tag` is "" for an untagged plain scalar, else the long form
// ("tag:yaml.org,2002:int", "!custom", ...). Tags go-yaml does not resolve leave the text as a
// string (with `tag` kept). On failure returns the message go-yaml fails with, e.g.
// "cannot decode !!str `abc` as a !!int".
std::optional<std::string> Resolve(std::string_view tag, std::string_view in, Scalar* out);

// go-yaml's isBase60Float: strings like "1:20" that YAML 1.1 parsers read as sexagesimal numbers
// and that go-yaml therefore quotes on output.
bool IsBase60Float(std::string_view s);

// "tag:yaml.org,2002:x" -> "!!x"; other tags unchanged.
std::string ShortTag(std::string_view tag);

// Go's strconv.FormatFloat(v, 'g', -1, bits) for bits 32 or 64: the shortest representation that
// round-trips, in exponent form when the decimal exponent is < -4 or >= 6 ("1e+06", "1e-05"),
// with "+Inf", "-Inf" and "NaN" for the special values.
std::string FormatFloatG(double v, int bits);

// `s` with each byte that is not part of a valid UTF-8 sequence replaced by U+FFFD, as Go's
// JSON encoder does.
std::string SanitizeUtf8(std::string_view s);

}  // namespace kube::yaml::internal
