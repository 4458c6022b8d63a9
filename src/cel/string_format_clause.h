// The clause syntax of cel-go's `<string>.format(<list>)` as ext.Strings below version 4 reads it
// (kube 1.36 loads version 2): after a '%', an optional precision `.<digits>`, then one verb byte
// among s d f e b x X o. Shared by the runtime (lib_string_format.cc) and the compile-time
// validator (format_validator.h), so both refuse the same clauses with the same words.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kube::cel::internal {

struct FormatClause {
  char verb = 0;
  std::optional<int64_t> precision;  // `%.3f` → 3; none when the clause has no '.'
  size_t end = 0;                    // the index just past the verb
};

// Reads the clause whose first byte is fmt[start] (the byte after its '%'; start < fmt.size()).
// `max_precision` > 0 refuses larger precisions (cel-go's StringsMaxPrecision); 0: any.
// On failure returns false with `error` worded as cel-go words it: "could not parse formatting
// clause: unrecognized formatting clause \"j\"", "... error while parsing precision: could not
// find end of precision specifier", "... strconv.Atoi: parsing \"\": invalid syntax".
bool ParseFormatClause(std::string_view fmt, size_t start, int64_t max_precision, FormatClause* out,
                       std::string* error);

// What clause `verb` formats, as cel-go words its refusal of another type (the message goes on
// with ", was given <type>"): 'd' → "decimal clause can only be used on integers".
std::string_view FormatVerbTypeError(char verb);

}  // namespace kube::cel::internal
