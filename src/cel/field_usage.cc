#include "cel/field_usage.h"

#include <vector>

namespace kube::cel {

namespace {

class UseFinder {
 public:
  explicit UseFinder(std::string_view variable) : variable_(variable) {}

  // Iterative over the tree's spine: `a + b + ...` chains are deep.
  void Visit(const Expr& root) {
    std::vector<const Expr*> todo{&root};
    while (!todo.empty()) {
      const Expr* e = todo.back();
      todo.pop_back();
      std::vector<std::string_view> path;
      if (Chain(*e, &path)) {
        Mark(path);
        continue;
      }
      // has(chain.f): the presence of f is all it reads; f's value is kept whole, which is
      // more than it needs and never less.
      if (e->kind == ExprKind::kSelect && e->test_only && e->target && Chain(*e->target, &path)) {
        path.push_back(e->name);
        Mark(path);
        continue;
      }
      ForEachChild(*e, [&](const Expr& c) { todo.push_back(&c); });
    }
  }

  FieldUse use;

 private:
  // Whether `e` is the variable followed by field selections; their names are appended to *path.
  bool Chain(const Expr& e, std::vector<std::string_view>* path) const {
    switch (e.kind) {
      case ExprKind::kIdent: return e.local < 0 && e.name == variable_;
      case ExprKind::kSelect:
        if (e.test_only || !e.target || !Chain(*e.target, path)) return false;
        path->push_back(e.name);
        return true;
      case ExprKind::kCall: {
        // `x.?f` and `x['f']` read field f of x, and nothing else of it.
        const bool by_name = e.form == CallForm::kOptionalSelect || e.form == CallForm::kIndex ||
                             e.form == CallForm::kOptionalIndex;
        if (!by_name || e.target || e.args.size() != 2) return false;
        const Expr& key = *e.args[1];
        if (key.kind != ExprKind::kConst || key.constant.kind() != Kind::kString) return false;
        if (!Chain(*e.args[0], path)) return false;
        path->push_back(key.constant.AsString());
        return true;
      }
      default: return false;
    }
  }

  void Mark(const std::vector<std::string_view>& path) {
    FieldUse* at = &use;
    for (std::string_view name : path) {
      if (at->whole) return;  // already all of it
      auto it = at->fields.find(name);
      if (it == at->fields.end()) it = at->fields.emplace(std::string(name), FieldUse{}).first;
      at = &it->second;
    }
    at->whole = true;
    at->fields.clear();
  }

  std::string_view variable_;
};

}  // namespace

void FieldUse::Merge(const FieldUse& other) {
  if (whole) return;
  if (other.whole) {
    whole = true;
    fields.clear();
    return;
  }
  for (const auto& [name, use] : other.fields) fields[name].Merge(use);
}

FieldUse VariableFieldUse(const Expr& root, std::string_view variable) {
  UseFinder finder(variable);
  finder.Visit(root);
  return std::move(finder.use);
}

}  // namespace kube::cel
