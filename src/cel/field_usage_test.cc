#include <doctest/doctest.h>

#include "cel/cel.h"
#include "cel/field_usage.h"

namespace kube::cel {
namespace {

// The use `src` makes of `self`, rendered: "*" whole, "{a:*,b:{c:*}}" by field, "-" unused.
std::string Use(std::string_view src, std::string_view variable = "self") {
  Environment env({.check_types = false});
  RegisterKubernetesLibraries(env.functions());
  env.DeclareVariable("self");
  env.DeclareVariable("oldSelf");
  auto program = env.Compile(src);
  REQUIRE(program.ok());
  std::function<std::string(const FieldUse&)> render = [&](const FieldUse& u) -> std::string {
    if (u.whole) return "*";
    if (u.fields.empty()) return "-";
    std::string out = "{";
    for (const auto& [name, f] : u.fields) out += (out.size() > 1 ? "," : "") + name + ":" + render(f);
    return out + "}";
  };
  return render(VariableFieldUse((*program)->expr(), variable));
}

TEST_CASE("field usage: selections along chains, whole values elsewhere") {
  CHECK(Use("self.spec.replicas <= self.spec.max") == "{spec:{max:*,replicas:*}}");
  CHECK(Use("has(self.spec.paused) && self.metadata.name != ''") == "{metadata:{name:*},spec:{paused:*}}");
  CHECK(Use("self.?status.phase.orValue('') == 'x'") == "{status:{phase:*}}");
  CHECK(Use("self['a-b'] == 1 && self[?'c'].hasValue()") == "{a-b:*,c:*}");
  // A value passed on, iterated, compared or indexed by a variable is used whole.
  CHECK(Use("self.spec.items.all(i, i > 0)") == "{spec:{items:*}}");
  CHECK(Use("self.spec.size() > 0 && self.spec.a == 1") == "{spec:*}");
  CHECK(Use("self == oldSelf") == "*");
  CHECK(Use("self.items[self.index] > 0") == "{index:*,items:*}");
  CHECK(Use("1 == 1") == "-");
  // Comprehension variables of the same name shadow the variable.
  CHECK(Use("[1].all(self, self > 0)") == "-");
  CHECK(Use("[1].all(self, self > 0) && self.a") == "{a:*}");
  CHECK(Use("oldSelf.spec.x == self.spec.x", "oldSelf") == "{spec:{x:*}}");
}

TEST_CASE("field usage: merging keeps the larger use") {
  FieldUse a, b;
  a.fields["x"].whole = true;
  b.fields["x"].fields["y"].whole = true;
  b.fields["z"].whole = true;
  a.Merge(b);
  CHECK(a.fields.size() == 2);
  CHECK(a.fields["x"].whole);
  FieldUse whole;
  whole.whole = true;
  a.Merge(whole);
  CHECK(a.whole);
  CHECK(a.fields.empty());
}

}  // namespace
}  // namespace kube::cel
