// StrategyChain: several Strategies acting as one for a resource, so independent behaviours of
// one kind (a Service's allocations and its kind strategy, RBAC's escalation checks and a
// role's own rules) compose instead of replacing each other.
//
// Hooks that change or check the object run every link in order (admission stops at the first
// refusal; field errors are concatenated). Hooks that answer one question (Decorate, DecodeBody,
// Warning, Scale, Printer) take the first link that has an answer.
//
// Thread-safety: immutable after construction, as every Strategy must be.
#pragma once

#include <memory>
#include <vector>

#include "registry/strategy.h"

namespace kube::registry {

class StrategyChain final : public Strategy {
 public:
  explicit StrategyChain(std::vector<std::shared_ptr<const Strategy>> links) : links_(std::move(links)) {}

  // `first` then `second`; either may be null (the other is returned as is).
  static std::shared_ptr<const Strategy> Of(std::shared_ptr<const Strategy> first,
                                            std::shared_ptr<const Strategy> second) {
    if (first == nullptr) return second;
    if (second == nullptr) return first;
    return std::make_shared<StrategyChain>(std::vector<std::shared_ptr<const Strategy>>{std::move(first), std::move(second)});
  }

  Status AdmitCreate(std::string_view name) const override {
    for (const auto& s : links_) KUBE_RETURN_IF_ERROR(s->AdmitCreate(name));
    return Status::OK();
  }
  Status AdmitWrite(std::string_view ns, const storage::Object& obj, const storage::Object* old,
                    const auth::UserInfo& user) const override {
    for (const auto& s : links_) KUBE_RETURN_IF_ERROR(s->AdmitWrite(ns, obj, old, user));
    return Status::OK();
  }
  void PrepareForCreate(storage::Object* obj) const override {
    for (const auto& s : links_) s->PrepareForCreate(obj);
  }
  void PrepareNamedForCreate(storage::Object* obj) const override {
    for (const auto& s : links_) s->PrepareNamedForCreate(obj);
  }
  void PrepareForUpdate(std::string_view subresource, storage::Object* next,
                        const storage::Object& current) const override {
    for (const auto& s : links_) s->PrepareForUpdate(subresource, next, current);
  }
  FieldErrors Validate(const storage::Object& obj) const override {
    FieldErrors all;
    for (const auto& s : links_) {
      FieldErrors e = s->Validate(obj);
      all.insert(all.end(), e.begin(), e.end());
    }
    return all;
  }
  FieldErrors ValidateUpdate(std::string_view subresource, const storage::Object& obj, const storage::Object& old,
                             std::vector<std::string>* warnings) const override {
    FieldErrors all;
    for (const auto& s : links_) {
      FieldErrors e = s->ValidateUpdate(subresource, obj, old, warnings);
      all.insert(all.end(), e.begin(), e.end());
    }
    return all;
  }
  std::vector<std::string> FinalizersOnDelete(const storage::Object& obj) const override {
    std::vector<std::string> all;
    for (const auto& s : links_) {
      auto f = s->FinalizersOnDelete(obj);
      all.insert(all.end(), f.begin(), f.end());
    }
    return all;
  }
  storage::ObjectPtr Decorate(storage::ObjectPtr obj) const override {
    for (const auto& s : links_) obj = s->Decorate(std::move(obj));
    return obj;
  }
  std::optional<std::vector<std::string>> DecodeBody(storage::Object* obj) const override {
    for (const auto& s : links_) {
      if (auto dropped = s->DecodeBody(obj)) return dropped;
    }
    return std::nullopt;
  }
  std::string_view Warning() const override {
    for (const auto& s : links_) {
      if (!s->Warning().empty()) return s->Warning();
    }
    return {};
  }
  const ScalePaths* Scale() const override {
    for (const auto& s : links_) {
      if (const ScalePaths* p = s->Scale()) return p;
    }
    return nullptr;
  }
  const printers::TablePrinter* Printer(std::string_view subresource = "") const override {
    for (const auto& s : links_) {
      if (const printers::TablePrinter* p = s->Printer(subresource)) return p;
    }
    return nullptr;
  }

 private:
  std::vector<std::shared_ptr<const Strategy>> links_;
};

}  // namespace kube::registry
