// kube's URL library (k8s.io/apiserver/pkg/cel/library/urls.go): the opaque type
// `kubernetes.URL`. url(s) accepts what Go's url.ParseRequestURI accepts (an absolute URI or an
// absolute path; no relative references) and keeps url.Parse's reading of it (the fragment
// split off); isURL(s) tells whether url(s) would succeed. Members: getScheme, getHost (with the
// port), getHostname (without port or IPv6 brackets), getPort, getEscapedPath and getQuery (a
// map from each key to its values in order). Two URLs are equal when their Go renderings are.
#include "cel/go_url.h"
#include "cel/lib_internal.h"
#include "util/go_format.h"

namespace kube::cel::internal {

namespace {

constexpr Kind S = Kind::kString;
constexpr char kUrlType[] = "kubernetes.URL";

class UrlObject final : public OpaqueObject {
 public:
  // Parses `raw` as url() does; when that fails, *error is set and the object is not used.
  UrlObject(std::string_view raw, std::string* error) { ParseRequestUriAsUrl(raw, &url_, error); }
  std::string_view TypeName() const override { return kUrlType; }
  // Rendered on demand: equality of URLs is rare next to url() and its getters.
  bool Equals(const OpaqueObject& other) const override {
    return url_.String() == static_cast<const UrlObject&>(other).url_.String();
  }
  std::string DebugString() const override { return "url(" + GoQuote(url_.String()) + ")"; }
  const GoUrl& url() const { return url_; }

 private:
  GoUrl url_;
};

const GoUrl& U(const Value& v) { return static_cast<const UrlObject&>(v.AsOpaque()).url(); }

// url(s) of string `s`; isURL(s) tells whether it succeeds.
Value StringToUrl(const Value& s, CallContext& ctx) {
  return ConvertOnce(ctx, "url", s, [&] {
    // Parsed in place, in the value's block.
    std::string error;
    Value url = Value::MakeOpaque<UrlObject>(s.AsString(), &error);
    if (!error.empty()) return Value::Error("URL parse error during conversion from string: " + error);
    return url;
  });
}

}  // namespace

void RegisterUrlLibrary(FunctionRegistry& r) {
  const Param url = Param::Opaque(kUrlType);
  AddGlobal(r, "url", {S}, [](const Value* a, CallContext& ctx) {
    ctx.AddCost(TraversalCost(a[0].AsString().size()));
    return StringToUrl(a[0], ctx);
  });
  AddGlobal(r, "isURL", {S}, [](const Value* a, CallContext& ctx) {
    const std::string& s = a[0].AsString();
    ctx.AddCost(TraversalCost(s.size()));
    // isURL is url.ParseRequestURI's answer; url() also needs url.Parse's, which can differ only
    // with a fragment or an authority without a scheme (ParseRequestUriAsUrl). Otherwise the
    // conversion is made here, for the url(s) that usually follows.
    if (s.find('#') != std::string::npos || (s.starts_with("//") && !s.starts_with("///"))) {
      return Value::Bool(IsRequestUri(s));
    }
    return Value::Bool(!StringToUrl(a[0], ctx).IsError());
  });
  AddMember(r, "getScheme", {url}, [](const Value* a, CallContext&) { return Value::String(U(a[0]).scheme); });
  AddMember(r, "getHost", {url}, [](const Value* a, CallContext&) { return Value::String(U(a[0]).host); });
  AddMember(r, "getHostname", {url}, [](const Value* a, CallContext&) { return Value::String(U(a[0]).Hostname()); });
  AddMember(r, "getPort", {url}, [](const Value* a, CallContext&) { return Value::String(U(a[0]).Port()); });
  AddMember(r, "getEscapedPath", {url}, [](const Value* a, CallContext&) { return Value::String(U(a[0]).EscapedPath()); });
  AddMember(r, "getQuery", {url}, [](const Value* a, CallContext&) {
    MapEntries entries;
    for (auto& [key, values] : U(a[0]).Query()) {
      ValueList items;
      for (auto& v : values) items.push_back(Value::String(std::move(v)));
      entries.emplace_back(Value::String(key), Value::List(std::move(items)));
    }
    return Value::Map(std::move(entries));
  });
}

}  // namespace kube::cel::internal
