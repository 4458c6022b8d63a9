#include "cel/format_validator.h"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "cel/string_format_clause.h"
#include "cel/types.h"

namespace kube::cel::internal {

namespace {

using Kinds = std::initializer_list<TypeKind>;

// The kinds each verb formats (cel-go compares kinds only, never type parameters).
constexpr Kinds kStringKinds = {TypeKind::kList,   TypeKind::kMap,       TypeKind::kInt,      TypeKind::kUint,
                                TypeKind::kDouble, TypeKind::kBool,      TypeKind::kString,   TypeKind::kTimestamp,
                                TypeKind::kBytes,  TypeKind::kDuration,  TypeKind::kType,     TypeKind::kNull};
constexpr Kinds kIntegerKinds = {TypeKind::kInt, TypeKind::kUint};
// %f and %e take strings too: "NaN", "Infinity" and "-Infinity" are doubles to them.
constexpr Kinds kFloatKinds = {TypeKind::kDouble, TypeKind::kString};
constexpr Kinds kBinaryKinds = {TypeKind::kInt, TypeKind::kUint, TypeKind::kBool};
constexpr Kinds kHexKinds = {TypeKind::kInt, TypeKind::kUint, TypeKind::kString, TypeKind::kBytes};

Kinds KindsOf(char verb) {
  switch (verb) {
    case 's': return kStringKinds;
    case 'f':
    case 'e': return kFloatKinds;
    case 'b': return kBinaryKinds;
    case 'x':
    case 'X': return kHexKinds;
    default: return kIntegerKinds;  // d, o
  }
}

// The name cel-go's messages give a type: its runtime class, so lists and maps without their
// parameters.
std::string RuntimeTypeName(const Type& t) {
  switch (t.kind()) {
    case TypeKind::kList: return "list";
    case TypeKind::kMap: return "map";
    case TypeKind::kOptional: return "optional_type";
    case TypeKind::kType: return "type";
    case TypeKind::kOpaque:
    case TypeKind::kObject: return t.name();
    default: return FormatType(t);
  }
}

class FormatCallValidator {
 public:
  FormatCallValidator(const TypeCheckResult& checked, std::vector<SourceError>* errors)
      : checked_(checked), errors_(errors) {}

  // Whether `e` is `"<literal>".format([...])`.
  static bool Matches(const Expr& e) {
    return e.kind == ExprKind::kCall && e.name == "format" && e.target && e.args.size() == 1 &&
           e.target->kind == ExprKind::kConst && e.target->constant.kind() == Kind::kString &&
           e.args[0]->kind == ExprKind::kList;
  }

  // Reads the format string as the formatter would, with the checked types of the list's
  // elements in place of values. The order of the checks is cel-go's, which differs from its
  // run time's: a trailing '%' is reported before a missing argument.
  void Validate(const Expr& call) {
    const std::string& fmt = call.target->constant.AsString();
    const std::vector<ExprPtr>& args = call.args[0]->args;
    size_t arg = 0;
    for (size_t i = 0; i < fmt.size();) {
      if (fmt[i] != '%') {
        ++i;
        continue;
      }
      if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
        i += 2;
        continue;
      }
      if (i + 1 >= fmt.size()) return Report(call, "unexpected end of string");
      if (arg >= args.size()) return Report(call, "index " + std::to_string(arg) + " out of range");
      FormatClause clause;
      std::string error;
      // Version 2 sets no largest precision.
      if (!ParseFormatClause(fmt, i + 1, /*max_precision=*/0, &clause, &error)) return Report(call, error);
      const Expr& a = *args[arg];
      const Expr* bad = clause.verb == 's' ? FirstUnprintable(a) : (Accepts(a, KindsOf(clause.verb)) ? nullptr : &a);
      if (bad != nullptr) {
        return Report(*bad, "error during formatting: " + std::string(FormatVerbTypeError(clause.verb)) +
                                ", was given " + RuntimeTypeName(TypeOf(*bad)));
      }
      ++arg;
      i = clause.end;
    }
    if (args.size() > arg) {
      Report(call, "too many arguments supplied to string.format (expected " + std::to_string(arg) + ", got " +
                       std::to_string(args.size()) + ")");
    }
  }

 private:
  const Type& TypeOf(const Expr& e) const {
    const auto it = checked_.node_types.find(&e);
    return it == checked_.node_types.end() || !it->second ? *Type::Dyn() : *it->second;
  }

  // Dyn, and type parameters nothing bound, may hold anything: the run time decides.
  bool Accepts(const Expr& e, Kinds kinds) const {
    const TypeKind k = TypeOf(e).kind();
    if (k == TypeKind::kDyn || k == TypeKind::kParam || k == TypeKind::kError) return true;
    return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
  }

  // The first node of `e` %s cannot print: `e` itself, or an element of a list or map literal
  // (keys included); nullptr when all can. The tree's depth is bounded before checking.
  const Expr* FirstUnprintable(const Expr& e) const {
    if (!Accepts(e, kStringKinds)) return &e;
    if (e.kind == ExprKind::kList) {
      for (const auto& element : e.args) {
        if (const Expr* bad = FirstUnprintable(*element)) return bad;
      }
    } else if (e.kind == ExprKind::kMap) {
      for (const auto& entry : e.entries) {
        if (const Expr* bad = FirstUnprintable(*entry.key)) return bad;
        if (const Expr* bad = FirstUnprintable(*entry.value)) return bad;
      }
    }
    return nullptr;
  }

  void Report(const Expr& at, std::string message) { errors_->push_back({at.offset, std::move(message)}); }

  const TypeCheckResult& checked_;
  std::vector<SourceError>* errors_;
};

}  // namespace

std::vector<SourceError> ValidateFormatCalls(const Expr& root, const TypeCheckResult& checked) {
  std::vector<SourceError> errors;
  FormatCallValidator validator(checked, &errors);
  // Without recursion: the tree may be deep (a long `a + b + ...` chain).
  std::vector<const Expr*> todo{&root};
  while (!todo.empty()) {
    const Expr* e = todo.back();
    todo.pop_back();
    ForEachChild(*e, [&](const Expr& c) { todo.push_back(&c); });
    if (FormatCallValidator::Matches(*e)) validator.Validate(*e);
  }
  return errors;
}

}  // namespace kube::cel::internal
