#include "runner.h"

#include <fnmatch.h>

#include <algorithm>
#include <regex>

#include "cel/cel.h"
#include "conformance_value.h"

namespace kube::celconf {

namespace {

using textproto::Field;
using textproto::Message;

std::vector<std::string> SplitPattern(const std::string& pattern) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (parts.size() < 2) {
    const size_t slash = pattern.find('/', start);
    if (slash == std::string::npos) break;
    parts.push_back(pattern.substr(start, slash - start));
    start = slash + 1;
  }
  parts.push_back(pattern.substr(start));
  return parts;
}

bool Glob(const std::string& pattern, const std::string& text) { return fnmatch(pattern.c_str(), text.c_str(), 0) == 0; }

// Whether a test is selected: it matches one of the filters that are not exclusions (when there
// are any) and none of the exclusions (filters starting with '!').
bool Matches(const std::vector<std::string>& filters, const std::string& file, const std::string& section,
             const std::string& test) {
  const std::string parts_of[] = {file, section, test};
  auto matches = [&](const std::string& pattern) {
    const auto parts = SplitPattern(pattern);
    for (size_t i = 0; i < parts.size(); ++i) {
      if (!Glob(parts[i], parts_of[i])) return false;
    }
    return true;
  };
  bool any_inclusion = false, included = false;
  for (const auto& f : filters) {
    if (f.starts_with("!")) {
      if (matches(f.substr(1))) return false;
    } else {
      any_inclusion = true;
      included = included || matches(f);
    }
  }
  return included || !any_inclusion;
}

// `expr` with the contents of its string and bytes literals blanked out (quotes kept), so that
// searching its code does not match text inside literals.
std::string WithoutLiterals(const std::string& expr) {
  std::string out = expr;
  size_t i = 0;
  while (i < out.size()) {
    const char q = out[i];
    if (q != '"' && q != '\'') {
      ++i;
      continue;
    }
    const bool triple = out.compare(i, 3, std::string(3, q)) == 0;
    const std::string close = triple ? std::string(3, q) : std::string(1, q);
    size_t j = i + close.size();
    while (j < out.size() && out.compare(j, close.size(), close) != 0) {
      if (out[j] == '\\' && j + 1 < out.size()) out[j++] = ' ';
      out[j++] = ' ';
    }
    i = j + close.size();
  }
  return out;
}

// Whether the expression needs protobuf messages: cel-spec's test messages, enums declared in
// them, or a message literal (`Name{...}`, `google.protobuf.Int32Value{value: 1}`).
bool UsesMessages(const std::string& expr_text, const std::string& container) {
  if (container.starts_with("cel.expr.conformance")) return true;
  const std::string expr = WithoutLiterals(expr_text);
  for (const char* word : {"TestAllTypes", "NestedMessage", "NestedEnum", "GlobalEnum", "cel.expr.conformance"}) {
    if (expr.find(word) != std::string::npos) return true;
  }
  static const std::regex kMessageLiteral(R"((^|[^\w.])([A-Za-z_]\w*(\.[A-Za-z_]\w*)*)\s*\{)");
  for (auto it = std::sregex_iterator(expr.begin(), expr.end(), kMessageLiteral); it != std::sregex_iterator(); ++it) {
    if ((*it)[2].str() != "in") return true;
  }
  return false;
}

// The first line of a compile error without cel-go's "ERROR: <input>:1:5: " prefix.
std::string CompileErrorSummary(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  const size_t input = line.find("<input>:");
  if (input != std::string::npos) {
    size_t p = input + 8;
    for (int colons = 0; p < line.size() && colons < 2; ++p) {
      if (line[p] == ':') ++colons;
    }
    line = line.substr(p);
    if (!line.empty() && line[0] == ' ') line.erase(0, 1);
  }
  return line;
}

// An error message grouped into a failure category: its text up to the first detail
// ("no such key: x" → "no such key").
std::string ErrorCategory(const std::string& message) {
  std::string m = message.substr(0, message.find(':'));
  if (m.size() > 70) m = m.substr(0, 70) + "...";
  return m;
}

// Tests whose expectation kube-apiserver (the behaviour this implementation follows) does not
// meet, each with what kube does: where cel-go itself departs from the spec (cel-go's own
// conformance run skips these), where kube loads an older version of a cel-go library than the
// tests were written for, and where kube's library replaces a cel-go extension (kube's IP library
// rather than cel-go's network extension). A matching test that fails on a value or an error is
// counted as "kube differs"; one that passes, or fails to compile (a function missing), is
// counted as it is.
struct Divergence {
  const char* tests;  // file/section/name, a shell glob
  const char* reason;
  // Kube refuses these expressions when compiling them: a matching test failing to compile is
  // counted as "kube differs" (others are not: a compile error there is this implementation's).
  bool at_compile = false;
};
constexpr Divergence kKubeDivergences[] = {
    {"timestamps/duration_converters/get_milliseconds",
     "cel-go: a duration's getMilliseconds() is its whole length in milliseconds, not the part below a second"},
    {"string_ext/format/*",
     "kube loads ext.Strings v2, whose format() is cel-go's locale-based formatter (scientific notation as "
     "1.0 × 10⁰⁰, quoted strings in lists, %f/%e on doubles only); the tests follow v4"},
    {"network_ext/ipv4/ipv4_equals_ipv6", "kube's ip() refuses IPv4-mapped IPv6 addresses"},
    {"network_ext/ipv4/ipv4_not_equals_ipv6", "kube's ip() refuses IPv4-mapped IPv6 addresses"},
    // cel-go's checker (checker/types.go: null is assignable to an opaque type such as
    // optional_type, and mostGeneral then keeps null, the two kinds being incomparable) deduces
    // null_type; cel-go's own conformance run skips this test (conformance/BUILD.bazel).
    {"type_deduction*/legacy_nullable_types/null_assignable_to_abstract_parameter_candidate",
     "cel-go deduces null_type for a list of an optional and null"},
    // k8s.io/apiserver pkg/cel/environment/base.go loads ext.Strings(ext.StringsVersion(2)); cel-go's
    // ext/strings.go declares string reverse() from version 3 on (only ext.Lists' list reverse()
    // is there, so the checker finds no overload for a string receiver).
    {"string_ext/reverse/*", "kube loads ext.Strings v2; string reverse() is version 3", true},
    // Kube compiles every rule with a type-checking env.Compile
    // (k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go): there is no
    // unchecked mode where an undeclared function is an evaluation error; it is a compile error.
    {"basic/functions/unbound*",
     "kube always type-checks (apiextensions-apiserver schema/cel/compilation.go): an undeclared function does not "
     "compile",
     true},
};

// cel-go extensions kube-apiserver 1.36 does not load (k8s.io/apiserver/pkg/cel/environment/
// base.go), so that kube refuses their expressions at compile time as this implementation does:
// a matching test failing to compile is counted as "not in kube"; one that passes is counted as
// passed.
constexpr Divergence kNotInKube[] = {
    {"math_ext/*", "ext.Math is not in kube's CEL environment"},
    {"encoders_ext/*", "ext.Encoders is not in kube's CEL environment"},
    {"block_ext/*", "cel.block (cel-go's common subexpression form) is not in kube's CEL environment"},
};

// Whether the test names variables by qualified names or resolves names in a container. Kube's
// CRD rules have neither: they compile without a container (cel-go's default, none) and declare
// two variables, self and oldSelf (k8s.io/apiextensions-apiserver
// pkg/apiserver/schema/cel/compilation.go; k8s.io/apiserver pkg/cel/environment/base.go sets no
// cel.Container).
bool NeedsNameResolution(const Message& t) {
  if (!t.Scalar("container").empty()) return true;
  for (const Field* b : t.FindAll("bindings")) {
    if (b->message && b->message->Scalar("key").find('.') != std::string::npos) return true;
  }
  for (const Field* d : t.FindAll("type_env")) {
    if (d->message && d->message->Find("ident") && d->message->Scalar("name").find('.') != std::string::npos) {
      return true;
    }
  }
  return false;
}

// Whether the name quoted in a reference error ("undeclared reference to 'format' ...") is called
// as a function in `expr`.
bool NamesFunction(const std::string& expr, const std::string& error) {
  const size_t open = error.find('\''), close = error.find('\'', open + 1);
  if (open == std::string::npos || close == std::string::npos) return false;
  const std::string name = error.substr(open + 1, close - open - 1);
  const std::regex call("(^|[^\\w])" + name + "\\s*\\(");
  return std::regex_search(expr, call);
}

// Whether the name quoted in a reference error begins a qualified type name in `expr`
// (`google.protobuf.Timestamp`, `net.IP`: dotted, its last part capitalised), which only name
// resolution in a checker finds.
bool NamesQualifiedType(const std::string& expr, const std::string& error) {
  const size_t open = error.find('\''), close = error.find('\'', open + 1);
  if (open == std::string::npos || close == std::string::npos) return false;
  const std::string name = error.substr(open + 1, close - open - 1);
  const std::regex type("(^|[^\\w.])" + name + "(\\.[a-z_]\\w*)*\\.[A-Z]\\w*($|[^\\w(])");
  return std::regex_search(WithoutLiterals(expr), type);
}

// The type a cel.expr.Type message denotes; nullptr for types this implementation has none of
// (messages, wrappers, enums).
cel::TypeRef TypeOfProto(const Message& t) {
  if (t.Find("dyn")) return cel::Type::Dyn();
  if (t.Find("null")) return cel::Type::Null();
  if (const std::string p = t.Scalar("primitive"); !p.empty()) {
    if (p == "BOOL") return cel::Type::Bool();
    if (p == "INT64") return cel::Type::Int();
    if (p == "UINT64") return cel::Type::Uint();
    if (p == "DOUBLE") return cel::Type::Double();
    if (p == "STRING") return cel::Type::String();
    if (p == "BYTES") return cel::Type::Bytes();
    return nullptr;
  }
  if (const std::string w = t.Scalar("well_known"); !w.empty()) {
    if (w == "TIMESTAMP") return cel::Type::Timestamp();
    if (w == "DURATION") return cel::Type::Duration();
    return nullptr;
  }
  if (const std::string param = t.Scalar("type_param"); !param.empty()) return cel::Type::Dyn();
  if (const Message* l = t.FindMessage("list_type")) {
    const Message* elem = l->FindMessage("elem_type");
    cel::TypeRef e = elem ? TypeOfProto(*elem) : nullptr;
    return e ? cel::Type::List(e) : nullptr;
  }
  if (const Message* m = t.FindMessage("map_type")) {
    const Message* k = m->FindMessage("key_type");
    const Message* v = m->FindMessage("value_type");
    cel::TypeRef kt = k ? TypeOfProto(*k) : nullptr, vt = v ? TypeOfProto(*v) : nullptr;
    return kt && vt ? cel::Type::Map(kt, vt) : nullptr;
  }
  if (const Message* of = t.FindMessage("type")) {
    cel::TypeRef inner = TypeOfProto(*of);
    return inner ? cel::Type::TypeOf(inner) : nullptr;
  }
  if (const Message* a = t.FindMessage("abstract_type")) {
    std::vector<cel::TypeRef> params;
    for (const Field* f : a->FindAll("parameter_types")) {
      if (!f->message) return nullptr;
      cel::TypeRef p = TypeOfProto(*f->message);
      if (!p) return nullptr;
      params.push_back(std::move(p));
    }
    const std::string name = a->Scalar("name");
    if (name == "optional_type" && params.size() == 1) return cel::Type::Optional(params[0]);
    return cel::Type::Opaque(name, std::move(params));
  }
  return nullptr;
}

// Whether the test declares functions of its own (type_env function): kube's CRD environment has
// a fixed set, its libraries' (k8s.io/apiserver pkg/cel/environment/base.go).
bool DeclaresFunctions(const Message& t) {
  for (const Field* d : t.FindAll("type_env")) {
    if (d->message && d->message->Find("function")) return true;
  }
  return false;
}

// Whether the test declares an identifier of a protobuf message or wrapper type, which kube's
// CRD environment has none of (its objects are typed from OpenAPI schemas).
bool DeclaresMessageTypes(const Message& t) {
  for (const Field* d : t.FindAll("type_env")) {
    const Message* ident = d->message ? d->message->FindMessage("ident") : nullptr;
    const Message* type = ident ? ident->FindMessage("type") : nullptr;
    if (type && !TypeOfProto(*type)) return true;
  }
  return false;
}

struct Expectation {
  // kCheckOnly: only the deduced type is compared (check_only, or a typed_result without result).
  enum Kind { kValue, kError, kCheckOnly } kind = kValue;
  cel::Value value = cel::Value::Bool(true);
  std::vector<std::string> error_messages;  // kError: the messages the test names, if any
  std::string skip;  // set when the test cannot run here
  // A typed_result: the deduced type the checker must infer. type_unchecked: the test names one
  // this implementation has no type for (a protobuf message or wrapper), so a matching value
  // still counts the test as skipped.
  bool type_unchecked = false;
  cel::TypeRef deduced;
};

Expectation ReadExpectation(const Message& t) {
  Expectation e;
  const Message* typed = t.FindMessage("typed_result");
  if (t.Scalar("check_only") == "true" || (typed && !typed->FindMessage("result"))) {
    const Message* deduced = typed ? typed->FindMessage("deduced_type") : nullptr;
    if (!deduced) {
      e.skip = "malformed test: check_only without typed_result.deduced_type";
      return e;
    }
    e.kind = Expectation::kCheckOnly;
    e.deduced = TypeOfProto(*deduced);
    // Wrappers and message types: protobuf's, which kube's CRD environment has none of.
    if (!e.deduced) e.skip = "messages";
    return e;
  }
  if (typed) {
    Converted c = FromExprValue(*typed->FindMessage("result"));
    if (!c.ok()) {
      e.skip = c.unsupported.empty() ? "malformed test: " + c.error : c.unsupported;
      return e;
    }
    e.value = std::move(c.value);
    const Message* deduced = typed->FindMessage("deduced_type");
    e.deduced = deduced ? TypeOfProto(*deduced) : nullptr;
    e.type_unchecked = deduced && e.deduced == nullptr;
    return e;
  }
  if (t.Find("unknown") || t.Find("any_unknowns")) {
    e.skip = "unknowns";
    return e;
  }
  if (t.Find("eval_error") || t.Find("any_eval_errors")) {
    e.kind = Expectation::kError;
    if (const Message* set = t.FindMessage("eval_error")) {
      for (const Field* err : set->FindAll("errors")) {
        if (err->message && !err->message->Scalar("message").empty()) {
          e.error_messages.push_back(err->message->Scalar("message"));
        }
      }
    }
    return e;
  }
  if (const Message* v = t.FindMessage("value")) {
    Converted c = FromExprValue(*v);
    if (!c.ok()) {
      e.skip = c.unsupported.empty() ? "malformed test: " + c.error : c.unsupported;
      return e;
    }
    e.value = std::move(c.value);
  }
  return e;
}

// The bindings of a test, or the reason they cannot be built.
std::string ReadBindings(const Message& t, cel::Activation* vars, std::vector<std::string>* names) {
  for (const Field* b : t.FindAll("bindings")) {
    if (!b->message) return "malformed test: bindings is not a message";
    const std::string key = b->message->Scalar("key");
    const Message* expr_value = b->message->FindMessage("value");
    if (!expr_value) return "malformed test: binding " + key + " without value";
    names->push_back(key);
    if (const Message* v = expr_value->FindMessage("value")) {
      Converted c = FromExprValue(*v);
      if (!c.ok()) return c.unsupported.empty() ? "malformed test: " + c.error : c.unsupported;
      vars->Bind(key, std::move(c.value));
    } else if (expr_value->Find("error")) {
      vars->Bind(key, cel::Value::Error("error binding " + key));
    } else {
      return "unknowns";
    }
  }
  return "";
}

cel::Environment TestEnvironment(const Message& t, const std::vector<std::string>& names) {
  cel::EnvironmentOptions options;
  options.parse.macros = t.Scalar("disable_macros") != "true";
  // Type-checked unless the test says otherwise, as cel-go's conformance driver does.
  options.check_types = t.Scalar("disable_check") != "true";
  // cel-spec's tests assume cel-go's defaults; kube's homogeneous literals are an option on top.
  options.homogeneous_literals = false;
  options.validate_literals = false;
  cel::Environment env(options);
  cel::RegisterKubernetesLibraries(env.functions());
  for (const auto& n : names) env.DeclareVariable(n);
  for (const Field* decl : t.FindAll("type_env")) {
    // Declared identifiers become variables; declared functions cannot be bound here.
    if (!decl->message || !decl->message->Find("ident")) continue;
    const Message* ident = decl->message->FindMessage("ident");
    const Message* type = ident ? ident->FindMessage("type") : nullptr;
    cel::TypeRef t = type ? TypeOfProto(*type) : nullptr;
    env.DeclareVariable(decl->message->Scalar("name"), t ? t : cel::Type::Dyn());
  }
  return env;
}

// Compiles and evaluates a skipped test for what it may reveal (a crash, a sanitizer report),
// with whichever of its bindings convert; the outcome is not judged.
void EvaluateAnyway(const Message& t) {
  cel::Activation vars;
  std::vector<std::string> names;
  for (const Field* b : t.FindAll("bindings")) {
    if (!b->message) continue;
    names.push_back(b->message->Scalar("key"));
    const Message* ev = b->message->FindMessage("value");
    const Message* v = ev ? ev->FindMessage("value") : nullptr;
    if (!v) continue;
    Converted c = FromExprValue(*v);
    if (c.ok()) vars.Bind(names.back(), std::move(c.value));
  }
  auto program = TestEnvironment(t, names).Compile(t.Scalar("expr"));
  if (program.ok()) (void)(*program)->Evaluate(vars);
}

TestResult RunOne(const std::string& file, const std::string& section, const Message& t, bool evaluate_skipped) {
  TestResult r{.file = file, .section = section, .name = t.Scalar("name"), .expr = t.Scalar("expr")};
  auto skip = [&](std::string why) {
    if (evaluate_skipped) EvaluateAnyway(t);
    r.outcome = Outcome::kSkipped;
    r.category = std::move(why);
    return r;
  };
  auto fail = [&](std::string why, std::string got) {
    r.outcome = Outcome::kFailed;
    r.category = std::move(why);
    r.got = std::move(got);
    return r;
  };

  Expectation want = ReadExpectation(t);
  if (!want.skip.empty()) return skip(want.skip);
  if (UsesMessages(r.expr, t.Scalar("container"))) return skip("messages");
  if (NeedsNameResolution(t)) return skip("not in kube: containers and qualified variable names");
  if (DeclaresFunctions(t)) return skip("not in kube: declared functions");
  // Declared as dyn, a message-typed identifier still serves for values, not for types.
  if (want.kind == Expectation::kCheckOnly && DeclaresMessageTypes(t)) return skip("messages");
  switch (want.kind) {
    case Expectation::kError: r.expected = "an error"; break;
    case Expectation::kCheckOnly: r.expected = "type " + cel::FormatType(*want.deduced); break;
    case Expectation::kValue: r.expected = Render(want.value); break;
  }

  cel::Activation vars;
  std::vector<std::string> names;
  if (std::string why = ReadBindings(t, &vars, &names); !why.empty()) return skip(why);

  auto program = TestEnvironment(t, names).Compile(r.expr);
  if (!program.ok()) {
    const std::string summary = CompileErrorSummary(program.status().message());
    const bool syntax = summary.starts_with("Syntax error");
    // Unchecked (disable_check), cel-go resolves references only when evaluating them, so an
    // unbound name is an error value `||` may absorb; Compile here always refuses it.
    // An undeclared function is not that: the library lacks it, which stays a failure.
    if (!syntax && t.Scalar("disable_check") == "true" && summary.starts_with("undeclared reference") &&
        !NamesFunction(r.expr, summary)) {
      return skip("unchecked mode");
    }
    // A type-check error that is the error the test expects (`isIP(cidr('...'))`: "found no
    // matching overload ..."): cel-go refuses it when checking, as kube does.
    if (!syntax && want.kind == Expectation::kError && t.Scalar("disable_check") != "true" &&
        std::find(want.error_messages.begin(), want.error_messages.end(), summary) != want.error_messages.end()) {
      return r;
    }
    std::string category = syntax ? "compile: syntax error" : "compile: " + summary;
    if (!syntax && NamesQualifiedType(r.expr, summary)) category = "needs checker: qualified type names";
    return fail(std::move(category), "compile error: " + program.status().message());
  }
  if (want.kind == Expectation::kCheckOnly) {
    const std::string got = cel::FormatType(*(*program)->output_type()), expected = cel::FormatType(*want.deduced);
    if (got != expected) return fail("wrong deduced type", "type " + got);
    return r;
  }
  cel::EvalResult result = (*program)->Evaluate(vars);
  if (want.kind == Expectation::kError) {
    if (result.value.IsError()) return r;
    return fail("value instead of error", Render(result.value));
  }
  if (result.value.IsError()) return fail("error: " + ErrorCategory(result.value.ErrorMessage()), Render(result.value));
  if (!ConformanceEqual(result.value, want.value)) return fail("wrong value", Render(result.value));
  if (want.deduced) {
    const std::string got = cel::FormatType(*(*program)->output_type()), expected = cel::FormatType(*want.deduced);
    if (got != expected) return fail("wrong deduced type", "type " + got + ", expected " + expected);
  }
  if (want.type_unchecked) {
    r.outcome = Outcome::kSkipped;
    r.category = "messages";
    r.detail = "the value matches; the deduced type is a protobuf type, which is not checked";
  }
  return r;
}

TestResult RunTest(const std::string& file, const std::string& section, const Message& t, bool evaluate_skipped) {
  TestResult r = RunOne(file, section, t, evaluate_skipped);
  if (r.outcome != Outcome::kFailed) return r;
  const std::string id = r.file + "/" + r.section + "/" + r.name;
  const bool compile = r.category.starts_with("compile:");
  if (compile) {
    for (const auto& d : kNotInKube) {
      if (Glob(d.tests, id)) {
        r.outcome = Outcome::kSkipped;
        r.detail = std::string(d.reason) + "; got " + r.category;
        r.category = "not in kube";
        return r;
      }
    }
  }
  for (const auto& d : kKubeDivergences) {
    if (d.at_compile == compile && Glob(d.tests, id)) {
      r.outcome = Outcome::kSkipped;
      r.detail = std::string(d.reason) + "; got " + r.got;
      r.category = "kube differs";
      break;
    }
  }
  return r;
}

}  // namespace

bool FileMatches(const std::string& file, const std::vector<std::string>& filters) {
  bool any_inclusion = false;
  for (const auto& f : filters) {
    if (f.starts_with("!")) {
      // Only an exclusion of the whole file rules it out here.
      if (SplitPattern(f.substr(1)).size() == 1 && Glob(f.substr(1), file)) return false;
      continue;
    }
    any_inclusion = true;
    if (Glob(SplitPattern(f)[0], file)) return true;
  }
  return !any_inclusion;
}

std::vector<TestResult> RunFile(const Message& file, const std::vector<std::string>& filters, bool evaluate_skipped,
                                const std::string& name) {
  std::vector<TestResult> results;
  const std::string file_name = name.empty() ? file.Scalar("name") : name;
  for (const Field* s : file.FindAll("section")) {
    if (!s->message) continue;
    const std::string section = s->message->Scalar("name");
    for (const Field* t : s->message->FindAll("test")) {
      if (!t->message) continue;
      if (!Matches(filters, file_name, section, t->message->Scalar("name"))) continue;
      results.push_back(RunTest(file_name, section, *t->message, evaluate_skipped));
    }
  }
  return results;
}

}  // namespace kube::celconf
