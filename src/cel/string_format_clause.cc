#include "cel/string_format_clause.h"

#include "util/go_format.h"

namespace kube::cel::internal {

namespace {

constexpr std::string_view kClauseError = "could not parse formatting clause: ";
constexpr std::string_view kPrecisionError = "error while parsing precision: ";

// Go's strconv.Atoi of a run of ASCII digits: leading zeros are fine, values past int64 are out
// of range, the empty string is a syntax error.
bool Atoi(std::string_view digits, int64_t* out, std::string* error) {
  const std::string prefix = "error while converting precision to integer: strconv.Atoi: parsing " +
                             GoQuote(std::string(digits)) + ": ";
  if (digits.empty()) {
    *error = prefix + "invalid syntax";
    return false;
  }
  std::string_view significant = digits.substr(std::min(digits.find_first_not_of('0'), digits.size()));
  constexpr std::string_view kMaxInt64 = "9223372036854775807";
  if (significant.size() > kMaxInt64.size() || (significant.size() == kMaxInt64.size() && significant > kMaxInt64)) {
    *error = prefix + "value out of range";
    return false;
  }
  int64_t v = 0;
  for (char c : significant) v = v * 10 + (c - '0');
  *out = v;
  return true;
}

}  // namespace

bool ParseFormatClause(std::string_view fmt, size_t start, int64_t max_precision, FormatClause* out,
                       std::string* error) {
  size_t i = start;
  out->precision.reset();
  if (fmt[i] == '.') {
    ++i;
    const size_t digits_start = i;
    while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') ++i;
    // The verb must follow the digits: a precision running to the end has none.
    if (i >= fmt.size()) {
      *error = std::string(kClauseError) + std::string(kPrecisionError) + "could not find end of precision specifier";
      return false;
    }
    int64_t precision = 0;
    std::string why;
    if (!Atoi(fmt.substr(digits_start, i - digits_start), &precision, &why)) {
      *error = std::string(kClauseError) + std::string(kPrecisionError) + why;
      return false;
    }
    if (max_precision > 0 && precision > max_precision) {
      *error = std::string(kClauseError) + std::string(kPrecisionError) + "precision " + std::to_string(precision) +
               " exceeds maximum allowed precision " + std::to_string(max_precision);
      return false;
    }
    out->precision = precision;
  }
  const char verb = fmt[i];
  if (std::string_view("sdfebxXo").find(verb) == std::string_view::npos) {
    // cel-go takes one byte as the verb and prints it as a code point: a byte of a multi-byte
    // character shows as its Latin-1 reading.
    const auto b = static_cast<unsigned char>(verb);
    const std::string shown =
        b < 0x80 ? std::string(1, verb)
                 : std::string{static_cast<char>(0xC0 | (b >> 6)), static_cast<char>(0x80 | (b & 0x3F))};
    *error = std::string(kClauseError) + "unrecognized formatting clause \"" + shown + "\"";
    return false;
  }
  out->verb = verb;
  out->end = i + 1;
  return true;
}

std::string_view FormatVerbTypeError(char verb) {
  switch (verb) {
    case 's':
      return "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, "
             "and timestamps";
    case 'd': return "decimal clause can only be used on integers";
    case 'f': return "fixed-point clause can only be used on doubles";
    case 'e': return "scientific clause can only be used on doubles";
    case 'b': return "only integers and bools can be formatted as binary";
    case 'x':
    case 'X': return "only integers, byte buffers, and strings can be formatted as hex";
    case 'o': return "octal clause can only be used on integers";
    default: return "";
  }
}

}  // namespace kube::cel::internal
