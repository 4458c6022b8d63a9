#include "cel/value_arena.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "cel/cel.h"

namespace kube::cel {
namespace {

// An opaque object that counts its destructions, to see what an arena releases.
class Counted : public OpaqueObject {
 public:
  explicit Counted(int* destroyed) : destroyed_(destroyed) {}
  ~Counted() override { ++*destroyed_; }
  std::string_view TypeName() const override { return "test.Counted"; }
  bool Equals(const OpaqueObject&) const override { return true; }
  std::string DebugString() const override { return "counted"; }

 private:
  int* destroyed_;
};

TEST_CASE("value arena: lists and maps read as the counted ones do") {
  ValueArena arena;
  const std::string a = "a", b = "b";
  Value list = arena.List({Value::Int(1), Value::String("two")});
  Value map = arena.SortedMap({{Value::BorrowedString(a), Value::Int(1)}, {Value::BorrowedString(b), list}});
  CHECK(Equal(list, Value::List({Value::Int(1), Value::String("two")})));
  CHECK(Equal(map, Value::Map({{Value::String("b"), Value::List({Value::Int(1), Value::String("two")})},
                               {Value::String("a"), Value::Int(1)}})));
  REQUIRE(map.FindField("b") != nullptr);
  CHECK(map.FindField("b")->AsList().size() == 2);
  CHECK(DebugString(map) == R"({"a": 1, "b": [1, "two"]})");

  // Kube's list types keep their meaning.
  Value set = arena.SetList({Value::Int(1), Value::Int(2)});
  CHECK(Equal(set, Value::SetList({Value::Int(2), Value::Int(1)})));
  Value keyed = arena.MapList({map}, {"a"});
  CHECK(keyed.AsListPayload().semantics == ListSemantics::kMap);
  CHECK(keyed.AsListPayload().map_keys == std::vector<std::string>{"a"});
}

TEST_CASE("value arena: copies outlive their originals, and the arena releases what its payloads hold") {
  int destroyed = 0;
  {
    ValueArena arena;
    Value copy;
    {
      Value opaque = Value::Opaque(std::make_shared<Counted>(&destroyed));
      Value list = arena.List({opaque, opaque});
      copy = list;  // costs nothing, and stays valid while the arena lives
    }
    CHECK(destroyed == 0);
    CHECK(copy.AsList().size() == 2);
    CHECK(copy.AsList()[0].AsOpaque().TypeName() == "test.Counted");
  }
  CHECK(destroyed == 1);
}

TEST_CASE("value arena: past its inline storage it takes blocks, large payloads included") {
  int destroyed = 0;
  {
    ValueArena arena;
    const Value opaque = Value::Opaque(std::make_shared<Counted>(&destroyed));
    std::vector<Value> lists;
    for (int i = 0; i < 500; ++i) lists.push_back(arena.List({Value::Int(i), opaque}));
    ValueList big(5000, Value::Int(7));
    lists.push_back(arena.List(std::move(big)));
    int64_t sum = 0;
    for (int i = 0; i < 500; ++i) sum += lists[i].AsList()[0].AsInt();
    CHECK(sum == 499 * 500 / 2);
    CHECK(lists.back().AsList().size() == 5000);
  }
  CHECK(destroyed == 1);
}

TEST_CASE("value arena: the vectors of its lists and maps are reused by the thread's next arena") {
  const Value* items_storage = nullptr;
  const std::pair<Value, Value>* entries_storage = nullptr;
  {
    ValueArena arena;
    ValueList items = arena.NewItems(3);
    CHECK(items.empty());
    CHECK(items.capacity() >= 3);
    items.push_back(Value::String("kept until the arena goes"));
    items_storage = items.data();
    MapEntries entries = arena.NewEntries(2);
    entries.emplace_back(Value::String("k"), Value::Int(1));
    entries_storage = entries.data();
    Value list = arena.List(std::move(items));
    Value map = arena.SortedMap(std::move(entries));
    CHECK(list.AsList()[0].AsString() == "kept until the arena goes");
    CHECK(map.FindField("k")->AsInt() == 1);
  }
  ValueArena next;
  ValueList items = next.NewItems(2);
  MapEntries entries = next.NewEntries(1);
  CHECK(items.empty());
  CHECK(entries.empty());
  CHECK(items.data() == items_storage);
  CHECK(entries.data() == entries_storage);
}

TEST_CASE("value arena: rules evaluate over arena values") {
  ValueArena arena;
  const std::string name = "name";
  ValueList items;
  for (const char* n : {"a", "b", "a"}) items.push_back(arena.SortedMap({{Value::BorrowedString(name), Value::String(n)}}));
  Activation vars;
  const Value self = arena.List(std::move(items));
  vars.BindRef("self", &self);
  Environment env;
  env.DeclareVariable("self");
  auto program = env.Compile("self.all(t, self.exists_one(u, u.name == t.name))");
  REQUIRE(program.ok());
  EvalResult r = (*program)->Evaluate(vars);
  REQUIRE(r.value.kind() == Kind::kBool);
  CHECK_FALSE(r.value.AsBool());
  auto mapped = env.Compile("self.map(t, t.name)");
  REQUIRE(mapped.ok());
  // The result holds copies of arena values inside a counted list: valid while the arena lives.
  EvalResult m = (*mapped)->Evaluate(vars);
  CHECK(DebugString(m.value) == R"(["a", "b", "a"])");
}

}  // namespace
}  // namespace kube::cel
