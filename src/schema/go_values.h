// How kube's Go code sees JSON values, for messages that must match it byte for byte: decoded
// custom resources hold int64 for integers that fit and float64 for every other number; field
// errors print numbers with %v, strings with %q and everything else as json.Marshal does (the
// renderings themselves are util/go_format.h's).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace kube::schema {

// An integer that fits int64: Go decodes it as int64 (everything else numeric is float64).
bool IsGoInt(const nlohmann::json& v);
int64_t GoInt(const nlohmann::json& v);        // IsGoInt values
double GoFloat(const nlohmann::json& v);       // any number as float64

// strconv.FormatFloat(f, 'f', -1, 64) ("1000000", "0.5").
std::string FormatFloatPlain(double f);
// json.Marshal of a decoded value.
std::string GoJson(const nlohmann::json& v);
// field.Error's rendering of a bad value: numbers and booleans plain, strings quoted, the rest as
// JSON ("null" for null).
std::string GoValue(const nlohmann::json& v);
// reflect.DeepEqual of two decoded values: int64 and float64 never equal each other.
bool GoDeepEqual(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace kube::schema
