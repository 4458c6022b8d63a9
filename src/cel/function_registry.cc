#include "cel/function_registry.h"

#include <re2/re2.h>

namespace kube::cel {

CallContext::~CallContext() = default;

const re2::RE2* CallContext::Regex(const std::string& pattern, std::string* error) {
  auto it = regexes_.find(pattern);
  if (it == regexes_.end()) {
    re2::RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_shared<re2::RE2>(pattern, options);
    it = regexes_.emplace(pattern, std::move(re)).first;
  }
  if (!it->second->ok()) {
    *error = "error parsing regexp: " + it->second->error();
    return nullptr;
  }
  return it->second.get();
}

void FunctionRegistry::Add(std::string_view name, OverloadSignature signature, FunctionImpl impl) {
  auto it = ids_.find(name);
  if (it == ids_.end()) {
    it = ids_.emplace(std::string(name), static_cast<int32_t>(functions_.size())).first;
    functions_.push_back(Function{std::string(name), {}, false, false});
  }
  Function& f = functions_[it->second];
  (signature.receiver ? f.has_receiver : f.has_global) = true;
  f.overloads.push_back(Overload{std::move(signature), std::move(impl)});
}

int32_t FunctionRegistry::Find(std::string_view name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? -1 : it->second;
}

Value FunctionRegistry::Call(int32_t id, bool receiver, const Value* args, size_t n, CallContext& ctx) const {
  const Function& f = functions_[id];
  for (const auto& o : f.overloads) {
    if (o.signature.receiver != receiver || o.signature.params.size() != n) continue;
    bool match = true;
    for (size_t i = 0; i < n && match; ++i) match = o.signature.params[i].Accepts(args[i]);
    if (match) return o.impl(args, ctx);
  }
  return NoSuchOverload(f.name);
}

Value NoSuchOverload(std::string_view function) {
  return Value::Error("no such overload: " + std::string(function));
}

}  // namespace kube::cel
