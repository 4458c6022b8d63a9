// Go's regexp syntax check (regexp.Compile, RE2 syntax with Perl extensions), as kube runs it on
// every `pattern` of a CRD schema: returns "" for a valid expression, else Go's error text
// ("error parsing regexp: missing closing ): `(a`").
//
// Checked: UTF-8, parentheses, Perl groups and flags ((?:...), (?i), (?P<name>...), (?<name>...)),
// character classes and ranges, POSIX classes, escapes (octal, \x, \Q...\E, \A \b \B \z, \d \s
// \w and negations, \pX / \p{Name}), repetition operators and counts (at most 1000, nested
// counts multiplied), and nesting depth. Unicode class names are checked against Go's
// categories; script names (\p{Greek}) are accepted when they are capitalised words of letters
// and underscores, since their list changes with Unicode versions.
//
// Thread-safety: pure function.
#pragma once

#include <string>
#include <string_view>

namespace kube::apiextensions {

std::string CheckGoRegexpSyntax(std::string_view pattern);

}  // namespace kube::apiextensions
