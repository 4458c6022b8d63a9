// Parsing CEL source into an AST (ast.h), following cel-spec's grammar: operator precedence,
// every literal form (decimal/hex int, uint with the `u` suffix, double, quoted/triple-quoted/raw
// strings and bytes with all escapes), reserved words, member and index access, calls, list/map/
// message literals, the optional syntax (`a.?b`, `a[?i]`, `[?x]`, `{?k: v}`) and the macros,
// which expand to comprehensions here (macros.h).
//
// Errors carry the source offset and cel-go's wording; FormatErrors renders them as cel-go
// does ("ERROR: <input>:1:5: Syntax error: ..." with the source line and a caret), which is how
// kube quotes them in its 422 messages. Input is bounded: nesting beyond max_depth and source
// beyond max_code_points are errors, never a crash.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cel/ast.h"

namespace kube::cel {

struct ParseOptions {
  // Deepest nesting of expressions. Default: 250 (cel-go's parser default).
  int max_depth = 250;
  // Longest source, in Unicode code points. Default: 100,000 (cel-go's default).
  size_t max_code_points = 100000;
  // Expand macros (has, all, exists, ...). Default: true.
  bool macros = true;
  // Expand cel.bind (cel-go's ext.Bindings, which kube 1.36 does not load). Default: true.
  bool bind_macro = true;
};

struct SourceError {
  int32_t offset = 0;
  std::string message;  // "Syntax error: mismatched input ..." / "reserved identifier: for"
};

struct ParseResult {
  ExprPtr expr;                     // null when errors is not empty
  std::vector<SourceError> errors;  // in source order
  int64_t next_id = 1;              // ids used: 1 .. next_id-1
};

ParseResult Parse(std::string_view source, const ParseOptions& options = {});

// cel-go's rendering of errors against their source: one "ERROR: <input>:LINE:COL: message"
// paragraph each, with the offending line and a caret under the column, joined by newlines.
std::string FormatErrors(std::string_view source, const std::vector<SourceError>& errors);

}  // namespace kube::cel
