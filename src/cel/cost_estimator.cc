#include "cel/cost_estimator.h"

#include <cmath>
#include <optional>
#include <string_view>

#include "cel/macros.h"

namespace kube::cel {

namespace {

constexpr uint64_t kMax = UINT64_MAX;
constexpr double kStringTraversal = 0.1;  // per character of strings and bytes walked
constexpr double kRegexLength = 0.25;     // per character of a regular expression
constexpr uint64_t kListCreate = 10, kMapCreate = 30, kStructCreate = 40;
constexpr uint64_t kNameFormatRegexSize = 128;  // kube's format library patterns

uint64_t AddSat(uint64_t x, uint64_t y) { return y > 0 && x > kMax - y ? kMax : x + y; }
uint64_t MulSat(uint64_t x, uint64_t y) { return y != 0 && x > kMax / y ? kMax : x * y; }
uint64_t MulFactor(uint64_t x, double f) {
  const double xf = static_cast<double>(x);
  if (xf > 0 && f > 0 && xf > static_cast<double>(kMax) / f) return kMax;
  const double c = std::ceil(xf * f);
  return c >= std::ldexp(1.0, 64) ? kMax : static_cast<uint64_t>(c);
}

// A range of sizes or of costs; cel-go's SizeEstimate and CostEstimate behave the same.
struct Range {
  uint64_t min = 0, max = 0;
  static Range Fixed(uint64_t v) { return {v, v}; }
  static Range Unknown() { return {0, kMax}; }
  Range Add(Range o) const { return {AddSat(min, o.min), AddSat(max, o.max)}; }
  Range Mul(Range o) const { return {MulSat(min, o.min), MulSat(max, o.max)}; }
  Range Factor(double f) const { return {MulFactor(min, f), MulFactor(max, f)}; }
  Range Union(Range o) const { return {std::min(min, o.min), std::max(max, o.max)}; }
};

// The sizes of a container's keys and values, where an expression computed them.
struct EntrySize {
  bool list = false;
  Range key, value;
};

class Estimator {
 public:
  Estimator(const TypeCheckResult& checked, const Type* root) : checked_(checked), root_(root) {}

  Range Cost(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kConst: return {};
      case ExprKind::kIdent: {
        const Local* v = Find(e.name);
        paths_[&e] = v != nullptr ? v->path : Path{e.name};
        return Range::Fixed(1);
      }
      case ExprKind::kSelect: return CostSelect(e);
      case ExprKind::kCall: return CostCall(e);
      case ExprKind::kList: {
        Range sum;
        Range item{e.args.empty() ? 0 : kMax, 0};
        for (const auto& a : e.args) {
          sum = sum.Add(Cost(*a));
          item = item.Union(SizeOrUnknown(*a));
        }
        entry_sizes_[&e] = {true, Range::Fixed(1), item};
        return sum.Add(Range::Fixed(kListCreate));
      }
      case ExprKind::kMap: {
        Range sum;
        Range key{e.entries.empty() ? 0 : kMax, 0}, value = key;
        for (const auto& en : e.entries) {
          sum = sum.Add(Cost(*en.key)).Add(Cost(*en.value));
          key = key.Union(SizeOrUnknown(*en.key));
          value = value.Union(SizeOrUnknown(*en.value));
        }
        entry_sizes_[&e] = {false, key, value};
        return sum.Add(Range::Fixed(kMapCreate));
      }
      case ExprKind::kStruct: {
        Range sum;
        for (const auto& en : e.entries) sum = sum.Add(Cost(*en.value));
        return sum.Add(Range::Fixed(kStructCreate));
      }
      case ExprKind::kComprehension: return IsBind(e) ? CostBind(e) : CostComprehension(e);
    }
    return {};
  }

 private:
  const TypeRef* TypeOf(const Expr& e) const {
    auto it = checked_.node_types.find(&e);
    return it == checked_.node_types.end() ? nullptr : &it->second;
  }
  TypeKind KindOf(const Expr& e) const {
    const TypeRef* t = TypeOf(e);
    return t != nullptr ? (*t)->kind() : TypeKind::kDyn;
  }

  // cel-go's computeSize: computed, literal, the type's bounds (kube's schema sizes), scalars.
  std::optional<Range> Size(const Expr& e) const {
    if (auto it = sizes_.find(&e); it != sizes_.end()) return it->second;
    if (e.kind == ExprKind::kConst) {
      switch (e.constant.kind()) {
        case Kind::kString: {
          uint64_t runes = 0;
          for (unsigned char c : e.constant.AsString()) runes += (c & 0xC0) != 0x80;
          return Range::Fixed(runes);
        }
        case Kind::kBytes: return Range::Fixed(e.constant.AsBytes().size());
        default: return Range::Fixed(1);
      }
    }
    if (e.kind == ExprKind::kList) return Range::Fixed(e.args.size());
    if (e.kind == ExprKind::kMap) return Range::Fixed(e.entries.size());
    if (auto s = PathSize(PathOf(e))) return s;
    if (const TypeRef* t = TypeOf(e); t != nullptr) {
      switch ((*t)->kind()) {
        case TypeKind::kBool:
        case TypeKind::kDouble:
        case TypeKind::kDuration:
        case TypeKind::kInt:
        case TypeKind::kTimestamp:
        case TypeKind::kUint: return Range::Fixed(1);
        default: break;
      }
    }
    if (e.kind == ExprKind::kIdent) {
      if (const Local* v = Find(e.name); v != nullptr && v->size) return v->size;
    }
    return std::nullopt;
  }
  Range SizeOrUnknown(const Expr& e) const { return Size(e).value_or(Range::Unknown()); }

  std::optional<EntrySize> Entries(const Expr& e) const {
    if (auto it = entry_sizes_.find(&e); it != entry_sizes_.end()) return it->second;
    if (e.kind == ExprKind::kIdent) {
      if (const Local* v = Find(e.name); v != nullptr) return v->entries;
    }
    return std::nullopt;
  }

  using Path = std::vector<std::string>;

  struct Local {
    std::string name;
    std::optional<Range> size;
    std::optional<EntrySize> entries;
    Path path;
  };

  Path PathOf(const Expr& e) const {
    if (e.kind == ExprKind::kIdent) {
      if (const Local* v = Find(e.name)) return v->path;
    }
    auto it = paths_.find(&e);
    return it == paths_.end() ? Path{} : it->second;
  }

  static Path Child(Path p, std::string step) {
    p.push_back(std::move(step));
    return p;
  }

  // kube's size estimator: the schema node a path reaches from the rule's `self` (its first
  // step, whatever it names, stands for `self`), and that node's most elements.
  std::optional<Range> PathSize(const Path& path) const {
    if (path.empty() || root_ == nullptr) return std::nullopt;
    const Type* node = root_;
    for (size_t i = 1; i < path.size(); ++i) {
      const std::string& step = path[i];
      if (step == "@items" || step == "@values") {
        if (node->kind() == TypeKind::kList && !node->params().empty()) {
          node = node->params()[0].get();
        } else if (node->kind() == TypeKind::kMap && node->params().size() == 2) {
          node = node->params()[1].get();
        } else {
          return std::nullopt;
        }
      } else if (step == "@keys") {
        if (node->kind() != TypeKind::kMap || node->params().size() != 2) return std::nullopt;
        node = node->params()[0].get();
      } else {
        node = node->kind() == TypeKind::kObject ? node->Field(step) : nullptr;
        if (node == nullptr) return std::nullopt;
      }
    }
    if (node->max_elements() == Type::kUnbounded) return std::nullopt;
    return Range{0, node->max_elements()};
  }
  const Local* Find(std::string_view name) const {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
      if (it->name == name) return &*it;
    }
    return nullptr;
  }


  Range CostSelect(const Expr& e) {
    if (e.test_only) return Cost(*e.target);  // kube turns presence tests' own cost off
    Range sum = Cost(*e.target);
    const TypeKind k = KindOf(*e.target);
    if (k == TypeKind::kMap || k == TypeKind::kObject || k == TypeKind::kParam) sum = sum.Add(Range::Fixed(1));
    paths_[&e] = Child(PathOf(*e.target), e.name);
    return sum;
  }

  static bool IsBind(const Expr& e) {
    return e.iter_range && e.iter_range->kind == ExprKind::kList && e.iter_range->args.empty() && e.loop_condition &&
           e.loop_condition->kind == ExprKind::kConst && e.loop_condition->constant.kind() == Kind::kBool &&
           !e.loop_condition->constant.AsBool() && e.accu_var != internal::kAccumulator;
  }

  Range CostBind(const Expr& e) {
    Range sum = Cost(*e.iter_range).Add(Cost(*e.accu_init));
    locals_.push_back({e.accu_var, Size(*e.accu_init), Entries(*e.accu_init), PathOf(*e.accu_init)});
    sum = sum.Add(Cost(*e.result));
    locals_.pop_back();
    if (auto s = Size(*e.result)) sizes_[&e] = *s;
    if (auto en = Entries(*e.result)) entry_sizes_[&e] = *en;
    return sum;
  }

  Range CostComprehension(const Expr& e) {
    Range sum = Cost(*e.iter_range).Add(Cost(*e.accu_init));
    locals_.push_back({e.accu_var, Size(*e.accu_init), Entries(*e.accu_init), PathOf(*e.accu_init)});
    const std::optional<EntrySize> entries = Entries(*e.iter_range);
    const bool list = entries ? entries->list : KindOf(*e.iter_range) == TypeKind::kList;
    const std::optional<Range> key = entries ? std::optional<Range>(entries->key) : std::nullopt;
    const std::optional<Range> value = entries ? std::optional<Range>(entries->value) : std::nullopt;
    const Path range = PathOf(*e.iter_range);
    if (!e.iter_var2.empty()) {
      locals_.push_back({e.iter_var, key, std::nullopt, Child(range, list ? "@indices" : "@keys")});
      locals_.push_back({e.iter_var2, value, std::nullopt, Child(range, list ? "@items" : "@values")});
    } else {
      locals_.push_back({e.iter_var, list ? value : key, std::nullopt, Child(range, list ? "@items" : "@keys")});
    }
    const Range loop = Cost(*e.loop_condition);
    const Range step = Cost(*e.loop_step);
    locals_.resize(locals_.size() - (e.iter_var2.empty() ? 1 : 2));
    sum = sum.Add(Cost(*e.result));
    locals_.pop_back();
    const Range count = SizeOrUnknown(*e.iter_range);
    sum = sum.Add(count.Mul(step.Add(loop)));
    if (e.accu_init->kind == ExprKind::kConst) {
      if (auto s = Size(*e.accu_init)) sizes_[&e] = *s;
    } else if (e.accu_init->kind == ExprKind::kList || e.accu_init->kind == ExprKind::kMap) {
      sizes_[&e] = count;
      if (auto en = Entries(*e.loop_step)) entry_sizes_[&e] = *en;
    }
    return sum;
  }

  Range CostCall(const Expr& e) {
    if (e.name == "dyn" && e.args.size() == 1 && !e.target) {
      const Range c = Cost(*e.args[0]);
      if (auto s = Size(*e.args[0])) sizes_[&e] = *s;
      if (auto en = Entries(*e.args[0])) entry_sizes_[&e] = *en;
      return Range::Fixed(1).Add(c);
    }
    std::vector<Range> arg_costs;
    for (const auto& a : e.args) arg_costs.push_back(Cost(*a));
    Range sum;
    if (e.target) sum = Cost(*e.target);
    Range arg_sum;
    for (const auto& c : arg_costs) arg_sum = arg_sum.Add(c);

    auto it = checked_.call_overloads.find(&e);
    std::vector<const FunctionDecls::Overload*> overloads;
    if (it != checked_.call_overloads.end()) overloads = it->second;
    if (overloads.empty()) overloads.push_back(nullptr);  // undeclared here: one unknown overload

    Range fn{kMax, 0};
    std::optional<Range> result_size;
    for (const FunctionDecls::Overload* o : overloads) {
      std::optional<Range> size;
      const Range c = FunctionCost(e, o, arg_costs, arg_sum, &size);
      fn = fn.Union(c);
      if (size) result_size = result_size ? result_size->Union(*size) : *size;
      if (e.name == "_[_]" && !e.args.empty()) {
        auto en = Entries(*e.args[0]);
        result_size = en ? std::optional<Range>(en->value) : std::nullopt;
        paths_[&e] = Child(PathOf(*e.args[0]), ParamIs(o, 0, TypeKind::kMap) ? "@values" : "@items");
      }
      if (!result_size) result_size = Size(e);
    }
    if (result_size) sizes_[&e] = *result_size;
    return sum.Add(fn);
  }

  // The receiver (or, for global calls, nothing) and arguments of a call, in order.
  const Expr* Target(const Expr& e) const { return e.target.get(); }

  static bool ParamIs(const FunctionDecls::Overload* o, size_t i, TypeKind k) {
    return o != nullptr && i < o->params.size() && o->params[i]->kind() == k;
  }

  // kube's CostEstimator (library/cost.go), consulted before cel-go's own rules. nullopt: no
  // opinion.
  std::optional<Range> KubeLibraryCost(const Expr& e, std::optional<Range>* result_size) {
    const std::string_view f = e.name;
    const Expr* target = Target(e);
    const auto& args = e.args;
    if (target != nullptr && (f == "isSorted" || f == "sum" || f == "max" || f == "min" || f == "indexOf" ||
                              f == "lastIndexOf" || f == "includes")) {
      const TypeRef* t = TypeOf(*target);
      if (t != nullptr && (*t)->kind() == TypeKind::kList && !(*t)->params().empty()) {
        Range element = Range::Fixed(1);
        const TypeRef& item = (*t)->params()[0];
        if (item->kind() == TypeKind::kString || item->kind() == TypeKind::kBytes) {
          element = element.Add(PathSize(Child(PathOf(*target), "@items")).value_or(Range::Unknown()).Factor(kStringTraversal));
        }
        return SizeOrUnknown(*target).Mul(element);
      }
      return SizeOrUnknown(*target).Factor(kStringTraversal);
    }
    if ((f == "url" || f == "jsonpatch.escapeKey") && args.size() == 1) {
      *result_size = SizeOrUnknown(*args[0]);
      return result_size->value().Factor(kStringTraversal);
    }
    if (target != nullptr && (f == "lowerAscii" || f == "upperAscii" || f == "substring" || f == "trim")) {
      *result_size = SizeOrUnknown(*target);
      return result_size->value().Factor(kStringTraversal);
    }
    if (target != nullptr && f == "replace" && args.size() >= 2) {
      const Range sz = SizeOrUnknown(*target), from = SizeOrUnknown(*args[0]), to = SizeOrUnknown(*args[1]);
      Range count, retained;
      if (from.min == 0) {
        count.max = sz.max < kMax ? sz.max + 1 : sz.max;
        retained.max = sz.max;
      } else if (to.max <= from.min) {
        retained.max = sz.max;
      } else {
        count.max = static_cast<uint64_t>(std::ceil(static_cast<double>(sz.max) / static_cast<double>(from.min)));
      }
      if (from.max == 0) {
        count.min = sz.min < kMax ? sz.min + 1 : sz.min;
        retained.min = sz.min;
      } else if (from.max <= to.min) {
        retained.min = sz.min;
      } else {
        count.min = static_cast<uint64_t>(std::ceil(static_cast<double>(sz.min) / static_cast<double>(from.max)));
      }
      *result_size = count.Mul(to).Add(retained);
      return sz.Factor(2 * kStringTraversal);
    }
    if (target != nullptr && f == "split") {
      const Range sz = SizeOrUnknown(*target);
      uint64_t max = sz.max;
      if (args.size() > 1 && args[1]->kind == ExprKind::kConst && args[1]->constant.kind() == Kind::kInt) {
        max = static_cast<uint64_t>(args[1]->constant.AsInt());
      }
      *result_size = Range{0, max};
      return sz.Factor(2 * kStringTraversal);
    }
    if (target != nullptr && f == "join") {
      Range sz;
      const Range list = SizeOrUnknown(*target);
      if (const TypeRef* t = TypeOf(*target); t != nullptr && !(*t)->params().empty()) {
        sz = list.Mul(PathSize(Child(PathOf(*target), "@items")).value_or(Range::Unknown()));
      }
      if (!args.empty()) {
        const Range separators{list.min > 0 ? list.min - 1 : 0, list.max > 0 ? list.max - 1 : 0};
        sz = sz.Add(SizeOrUnknown(*args[0]).Mul(separators));
      }
      *result_size = sz;
      return sz.Factor(kStringTraversal);
    }
    if (target != nullptr && (f == "find" || f == "findAll") && !args.empty()) {
      const Range sz = SizeOrUnknown(*target);
      const Range str = sz.Add(Range::Fixed(1)).Factor(kStringTraversal);
      const Range regex = SizeOrUnknown(*args[0]).Factor(kRegexLength);
      *result_size = Range{0, sz.max};
      return str.Mul(regex);
    }
    if ((f == "cidr" || f == "isIP" || f == "isCIDR" || f == "quantity" || f == "isQuantity" || f == "semver" ||
         f == "isSemver") &&
        !args.empty()) {
      return SizeOrUnknown(*args[0]).Factor(kStringTraversal);
    }
    if (f == "ip") {
      if (target != nullptr && args.empty()) return Range::Fixed(1);
      if (!args.empty()) return SizeOrUnknown(*args[0]).Factor(kStringTraversal);
    }
    if (f == "ip.isCanonical" && !args.empty()) return SizeOrUnknown(*args[0]).Factor(2 * kStringTraversal);
    if (f == "masked" || f == "prefixLength" || f == "family" || f == "isUnspecified" || f == "isLoopback" ||
        f == "isLinkLocalMulticast" || f == "isLinkLocalUnicast" || f == "isGlobalUnicast" || f == "format.named" ||
        f == "sign" || f == "asInteger" || f == "isInteger" || f == "asApproximateFloat" || f == "isGreaterThan" ||
        f == "isLessThan" || f == "compareTo" || f == "add" || f == "sub" || f == "major" || f == "minor" ||
        f == "patch" || f == "getScheme" || f == "getHostname" || f == "getHost" || f == "getPort" ||
        f == "getEscapedPath" || f == "getQuery") {
      return Range::Fixed(1);
    }
    if ((f == "containsIP" || f == "containsCIDR") && target != nullptr) {
      // A CIDR's textual size is at most that of an IPv6 prefix.
      const Range cidr = Range{4, 43}.Factor(kStringTraversal);
      Range c = Range{8, 86}.Factor(kStringTraversal);
      if (f == "containsCIDR") c = c.Add(cidr).Add(Range::Fixed(1));
      if (!args.empty() && KindOf(*args[0]) == TypeKind::kString) c = c.Add(SizeOrUnknown(*args[0]).Factor(kStringTraversal));
      return c;
    }
    if (f == "validate" && !args.empty()) {
      return SizeOrUnknown(*args[0]).Factor(kStringTraversal).Factor(static_cast<double>(kNameFormatRegexSize) * kRegexLength);
    }
    if (f == "_==_" && args.size() == 2) {
      const TypeRef* l = TypeOf(*args[0]);
      const TypeRef* r = TypeOf(*args[1]);
      if (l != nullptr && r != nullptr && (*l)->kind() == TypeKind::kOpaque && (*r)->kind() == TypeKind::kOpaque &&
          (*l)->name() == (*r)->name()) {
        return Range::Fixed(1);
      }
    }
    return std::nullopt;
  }

  // cel-go's functionCost for one overload `o` (null: undeclared, costed as a plain call).
  Range FunctionCost(const Expr& e, const FunctionDecls::Overload* o, const std::vector<Range>& arg_costs,
                     Range arg_sum, std::optional<Range>* result_size) {
    if (auto c = KubeLibraryCost(e, result_size)) return c->Add(arg_sum);
    const std::string_view f = e.name;
    const Expr* target = Target(e);
    const auto& args = e.args;
    if (f == "_&&_" || f == "_||_") {
      if (arg_costs.size() == 2) return Range{arg_costs[0].min, arg_costs[0].Add(arg_costs[1]).max};
    }
    if (f == "_?_:_" && args.size() == 3) {
      *result_size = SizeOrUnknown(*args[1]).Union(SizeOrUnknown(*args[2]));
      auto a = Entries(*args[1]), b = Entries(*args[2]);
      if (a && b) entry_sizes_[&e] = {a->list, a->key.Union(b->key), a->value.Union(b->value)};
      return arg_costs[0].Add(arg_costs[1].Union(arg_costs[2]));
    }
    if (f == "format" && target != nullptr) return SizeOrUnknown(*target).Factor(kStringTraversal).Add(arg_sum);
    if (f == "bytes" && ParamIs(o, 0, TypeKind::kString) && args.size() == 1) {
      const Range sz = SizeOrUnknown(*args[0]);
      *result_size = Range{sz.min, MulSat(sz.max, 4)};
      return sz.Factor(kStringTraversal).Add(arg_sum);
    }
    if (f == "string" && ParamIs(o, 0, TypeKind::kBytes) && args.size() == 1) {
      const Range sz = SizeOrUnknown(*args[0]);
      *result_size = Range{sz.min / 4, sz.max};
      return sz.Factor(kStringTraversal).Add(arg_sum);
    }
    if (f == "strings.quote" && args.size() == 1) {
      const Range sz = SizeOrUnknown(*args[0]);
      *result_size = Range{AddSat(sz.min, 2), AddSat(MulSat(sz.max, 2), 2)};
      return sz.Factor(kStringTraversal).Add(arg_sum);
    }
    if ((f == "startsWith" || f == "endsWith") && target != nullptr && args.size() == 1) {
      return SizeOrUnknown(*args[0]).Factor(kStringTraversal).Add(arg_sum);
    }
    if (f == "@in" && args.size() == 2 && ParamIs(o, 1, TypeKind::kList)) return SizeOrUnknown(*args[1]).Add(arg_sum);
    if (f == "matches" && target != nullptr && args.size() == 1) {
      const Range str = SizeOrUnknown(*target).Add(Range::Fixed(1)).Factor(kStringTraversal);
      return str.Mul(SizeOrUnknown(*args[0]).Factor(kRegexLength)).Add(arg_sum);
    }
    if (f == "contains" && target != nullptr && args.size() == 1) {
      const Range str = SizeOrUnknown(*target).Factor(kStringTraversal);
      return str.Mul(SizeOrUnknown(*args[0]).Factor(kStringTraversal)).Add(arg_sum);
    }
    const bool add_sized = f == "_+_" && args.size() == 2 &&
                           (ParamIs(o, 0, TypeKind::kString) || ParamIs(o, 0, TypeKind::kBytes) || ParamIs(o, 0, TypeKind::kList));
    if (add_sized) {
      const Range size = SizeOrUnknown(*args[0]).Add(SizeOrUnknown(*args[1]));
      *result_size = size;
      auto a = Entries(*args[0]), b = Entries(*args[1]);
      if (a && b) entry_sizes_[&e] = {a->list, a->key.Union(b->key), a->value.Union(b->value)};
      if (ParamIs(o, 0, TypeKind::kList)) return Range::Fixed(1).Add(arg_sum);
      return size.Factor(kStringTraversal).Add(arg_sum);
    }
    const bool ordered = f == "_<_" || f == "_>_" || f == "_<=_" || f == "_>=_";
    if ((ordered && (ParamIs(o, 0, TypeKind::kString) || ParamIs(o, 0, TypeKind::kBytes))) ||
        ((f == "_==_" || f == "_!=_") && args.size() == 2)) {
      const Range l = SizeOrUnknown(*args[0]), r = SizeOrUnknown(*args[1]);
      const uint64_t smallest = std::min(l.max, r.max);
      return Range{smallest > 0 ? 1u : 0u, smallest}.Factor(kStringTraversal).Add(arg_sum);
    }
    return Range::Fixed(1).Add(arg_sum);
  }

  const TypeCheckResult& checked_;
  const Type* root_;
  std::unordered_map<const Expr*, Path> paths_;
  std::unordered_map<const Expr*, Range> sizes_;
  std::unordered_map<const Expr*, EntrySize> entry_sizes_;
  std::vector<Local> locals_;
};

}  // namespace

CostEstimate EstimateCost(const Expr& root, const TypeCheckResult& checked, const TypeRef& self) {
  Estimator estimator(checked, self.get());
  const auto r = estimator.Cost(root);
  return {r.min, r.max};
}

}  // namespace kube::cel
