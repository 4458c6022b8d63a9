// Go's text renderings of values, for messages that must match kube byte for byte: field error
// values (field.Error.ErrorBody), printer cells and JSONPath output.
//
//   GoQuote       fmt's %q / strconv.Quote of a string.
//   GoJsonMarshal encoding/json.Marshal of a JSON value (HTML-safe escaping, Go's float format,
//                 object keys in byte order as Go sorts map keys).
//   GoFormatFloat fmt's %v of a float64 ("1.5", "3", "1e+06", "1.2345e-05").
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace kube {

std::string GoQuote(std::string_view s);
std::string GoJsonMarshal(const nlohmann::json& value);
std::string GoFormatFloat(double f);
// encoding/json's rendering of one float64 (shortest round-trip digits, exponent form outside
// [1e-6, 1e21)).
std::string GoJsonFloat(double f);

// unicode.IsPrint of one rune: exact for ASCII (U+0020..U+007E), beyond it the approximation
// GoQuote uses (C1 controls, the soft hyphen, line/paragraph separators, the BOM, private use and
// non-characters are not printable).
bool GoIsPrint(char32_t r);
// The rune Go's `for i, r := range s` yields at byte s[i], and its length in bytes: an invalid
// UTF-8 byte is U+FFFD of length 1, as in Go. REQUIRES: i < s.size().
std::pair<char32_t, size_t> GoDecodeRune(std::string_view s, size_t i);

// The character of Go's one-letter control escapes (\a \b \f \n \r \t \v for 'a' ... 'v'), or
// '\0' when `c` is not one of those letters.
char GoControlEscape(char c);

}  // namespace kube
