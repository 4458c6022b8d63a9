// The string formats kube validates in custom resources (kube-openapi's strfmt registry) and
// which of them a CRD schema may use (apiextensions' supported formats as of 1.34+).
// Format names compare with "-" removed, as go-openapi normalizes them ("date-time" = "datetime").
//
// Thread-safety: pure functions; the compiled patterns are initialised once, thread-safely.
#pragma once

#include <string_view>

namespace kube::schema {

// The registry knows the format: strings are checked against it.
bool KnownFormat(std::string_view format);
// The format as a CRD schema node of OpenAPI type `type` ("" for none or int-or-string) keeps it
// for validation; kube drops every other format before validating (so it is never checked).
std::string_view EffectiveCrdFormat(std::string_view format, std::string_view type);
// `value` is valid for the known `format`. Unknown formats accept everything.
bool ValidFormat(std::string_view format, std::string_view value);

}  // namespace kube::schema
