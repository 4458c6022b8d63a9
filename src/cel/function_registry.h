// The functions a CEL environment knows: each a name with overloads, called either globally
// (`size(x)`, `int(x)`, `_+_`) or receiver-style (`x.size()`, `s.startsWith(p)`). An overload
// declares the kinds of its arguments (the receiver first) and is chosen at run time by the
// kinds of the values it gets — the first overload that matches wins, none is "no such
// overload". Names with a dot (`optional.of`, `math.greatest`) are global functions that read
// like receiver calls on a namespace.
//
// A library registers itself with a function taking the registry:
//
//   void RegisterMyLibrary(FunctionRegistry& r) {
//     r.Add("lowerAscii", {.receiver = true, .params = {Param(Kind::kString)}},
//           [](const Value* args, CallContext&) { return ...; });
//   }
//
// and the environment that wants it calls RegisterMyLibrary (cel.h). Strict functions never see
// error values: the interpreter returns the first error argument instead of calling them.
//
// Thread-safety: built once, then read-only; safe to share between threads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cel/value.h"

namespace re2 {
class RE2;
}

namespace kube::cel {

// What a function may use beyond its arguments: the running cost (for size-proportional costs)
// and a cache of compiled regular expressions.
class CallContext {
 public:
  // Adds to the evaluation's cost.
  void AddCost(uint64_t units) { cost_ += units; }
  uint64_t cost() const { return cost_; }
  // `pattern` compiled as RE2, cached per evaluation; nullptr with *error set when it does not
  // compile (the error worded as cel-go words it).
  const re2::RE2* Regex(const std::string& pattern, std::string* error);
  // The result of conversion `tag` (a static string naming it, such as "url") of string `arg`
  // when it was the last conversion made in this evaluation, else nullptr; and the recording of
  // one. So the usual `isURL(s) && url(s)` parses s once.
  const Value* LastConversion(const char* tag, const Value& arg) const {
    if (tag != conversion_tag_) return nullptr;
    const std::string& a = arg.AsString();
    const std::string& b = conversion_arg_.AsString();
    // The recorded argument is kept alive, so the same text is the same string.
    if (a.data() == b.data() && a.size() == b.size()) return &conversion_result_;
    return a == b ? &conversion_result_ : nullptr;
  }
  const Value& RecordConversion(const char* tag, const Value& arg, Value result) {
    conversion_tag_ = tag;
    conversion_arg_ = arg;
    conversion_result_ = std::move(result);
    return conversion_result_;
  }

  ~CallContext();

 private:
  const char* conversion_tag_ = nullptr;  // null: none recorded
  Value conversion_arg_, conversion_result_;
  uint64_t cost_ = 0;
  std::map<std::string, std::shared_ptr<re2::RE2>, std::less<>> regexes_;  // shared_ptr: RE2 is incomplete here
};

// An argument kind an overload accepts; kAny accepts every kind (but errors never reach a strict
// function). Param::Opaque("net.IP") accepts only opaque values of that type name, so that
// libraries sharing a function name (`isLessThan` on quantities and semvers) coexist.
struct Param {
  static constexpr uint8_t kAny = 0xFF;
  uint8_t kind = kAny;
  std::string_view type_name;  // kOpaque only: of a static string; empty accepts any opaque type
  Param() = default;
  Param(Kind k) : kind(static_cast<uint8_t>(k)) {}  // NOLINT: implicit by design
  // REQUIRES: type_name is a static string.
  static Param Opaque(const char* type_name) {
    Param p(Kind::kOpaque);
    if (type_name != nullptr) p.type_name = type_name;
    return p;
  }
  bool Accepts(const Value& v) const {
    if (kind == kAny) return true;
    if (kind != static_cast<uint8_t>(v.kind())) return false;
    if (type_name.empty()) return true;
    const std::string_view t = v.AsOpaque().TypeName();
    // A library's objects name their type with the array it registered: the same pointer settles
    // it without comparing the text.
    return (t.data() == type_name.data() && t.size() == type_name.size()) || t == type_name;
  }
};

// args[0] is the receiver of a receiver-style call.
using FunctionImpl = std::function<Value(const Value* args, CallContext& ctx)>;

struct OverloadSignature {
  bool receiver = false;
  std::vector<Param> params;  // the receiver first
};

class FunctionRegistry {
 public:
  // Adds an overload of `name`.
  void Add(std::string_view name, OverloadSignature signature, FunctionImpl impl);

  struct Overload {
    OverloadSignature signature;
    FunctionImpl impl;
  };
  struct Function {
    std::string name;
    std::vector<Overload> overloads;
    bool has_global = false, has_receiver = false;
  };

  // The id of a function, or -1.
  int32_t Find(std::string_view name) const;
  const Function& Get(int32_t id) const { return functions_[id]; }

  // Calls the first overload of function `id` that accepts `args` (n of them, the receiver
  // first when `receiver`); an error value when none does.
  Value Call(int32_t id, bool receiver, const Value* args, size_t n, CallContext& ctx) const;

 private:
  std::vector<Function> functions_;
  std::map<std::string, int32_t, std::less<>> ids_;
};

// The error value of a call no overload accepts, as cel-go words it.
Value NoSuchOverload(std::string_view function);

}  // namespace kube::cel
