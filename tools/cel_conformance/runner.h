// The cel-spec conformance runner: runs the tests of one SimpleTestFile (a parsed
// tests/simple/testdata/*.textproto) against kube::cel and classifies each as passed, failed (with
// a failure category) or skipped because it needs something this implementation does not have
// (with a skip category: "messages", "enums", "unknowns", "not in kube: ...", "kube differs").
//
// Each test is compiled in an Environment with the standard and Kubernetes libraries, macros
// unless disable_macros, and the test's declared identifiers and bindings as variables; then
// evaluated with its bindings and compared with the expected result: `value` by conformance
// equality (conformance_value.h), `eval_error` / `any_eval_errors` by being an error (cel-spec
// leaves error messages to each implementation; a type-check error passes when it is the message
// the test names). A test without a matcher expects `true`. A check_only test compares the
// checker's deduced type only; a typed_result compares both.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "textproto.h"

namespace kube::celconf {

enum class Outcome { kPassed, kFailed, kSkipped };

struct TestResult {
  std::string file, section, name;  // the test's path: file/section/name
  std::string expr;
  Outcome outcome = Outcome::kPassed;
  std::string category;  // failed / skipped: why, grouped ("messages", "wrong value", ...)
  std::string expected;  // rendered, for failures
  std::string got;       // rendered, for failures
  std::string detail;    // skipped: more than the category says, when there is more
};

// `filters`: patterns "file[/section[/test]]", each component a shell glob; a test runs when it
// matches one of them (or when there are none) and none of the exclusions, patterns written
// "!file[/section[/test]]". `evaluate_skipped`: skipped tests are compiled
// and evaluated all the same (results ignored), to hunt crashes under a sanitizer. `name`: the
// file's name in test paths and filters; empty for the one it declares (which for
// type_deduction.textproto is "type_deductions").
std::vector<TestResult> RunFile(const textproto::Message& file, const std::vector<std::string>& filters,
                                bool evaluate_skipped = false, const std::string& name = "");

// Whether a file named `file` may hold tests matching `filters` (its first component matches).
bool FileMatches(const std::string& file, const std::vector<std::string>& filters);

}  // namespace kube::celconf
