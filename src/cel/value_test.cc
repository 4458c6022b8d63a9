// Value representations chosen for speed: the tagged union with counted payloads (copies,
// moves, release, concurrent copies), borrowed strings, maps built from already-sorted entries,
// and an activation's inline bindings. Each must behave exactly as the plain form.
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cel/cel.h"

namespace kube::cel {
namespace {

TEST_CASE("cel value: a borrowed string reads, compares and keys maps as an owned one") {
  const std::string text = "pvc/data";
  const Value borrowed = Value::BorrowedString(text);
  CHECK(borrowed.kind() == Kind::kString);
  CHECK(&borrowed.AsString() == &text);  // not copied
  CHECK(Equal(borrowed, Value::String("pvc/data")));
  CHECK_FALSE(Equal(borrowed, Value::String("pvc/other")));
  CHECK(DebugString(borrowed) == "\"pvc/data\"");

  // Copies refer to the same text.
  const Value copy = borrowed;
  CHECK(&copy.AsString() == &text);

  // As a map key, found by an owned key of the same text and the other way round.
  const std::string key = "name";
  const Value m = Value::Map({{Value::BorrowedString(key), Value::Int(1)}, {Value::String("a"), Value::Int(2)}});
  REQUIRE(m.FindField("name") != nullptr);
  CHECK(m.FindField("name")->AsInt() == 1);
  REQUIRE(m.Find(Value::String("name")) != nullptr);
  const Value owned = Value::Map({{Value::String("name"), Value::Int(1)}, {Value::String("a"), Value::Int(2)}});
  CHECK(Equal(m, owned));
}

TEST_CASE("cel value: a borrowed string evaluates in programs as an owned one") {
  Environment env({.check_types = false});
  RegisterKubernetesLibraries(env.functions());  // split
  env.DeclareVariable("self");
  auto program = env.Compile("self.startsWith('pvc/') && self.split('/')[1] == 'data' && self + '!' == 'pvc/data!'");
  REQUIRE(program.ok());
  const std::string text = "pvc/data";
  Activation vars;
  vars.Bind("self", Value::BorrowedString(text));
  const EvalResult r = (*program)->Evaluate(vars);
  REQUIRE(r.value.kind() == Kind::kBool);
  CHECK(r.value.AsBool());
}

TEST_CASE("cel value: maps from sorted, unsorted and repeated keys are the same sorted maps") {
  const Value sorted = Value::Map({{Value::String("a"), Value::Int(1)}, {Value::String("b"), Value::Int(2)}});
  const Value unsorted = Value::Map({{Value::String("b"), Value::Int(2)}, {Value::String("a"), Value::Int(1)}});
  CHECK(DebugString(sorted) == "{\"a\": 1, \"b\": 2}");
  CHECK(DebugString(unsorted) == "{\"a\": 1, \"b\": 2}");
  // A repeated key keeps the last entry, sorted input or not.
  const Value repeated = Value::Map({{Value::String("a"), Value::Int(1)}, {Value::String("a"), Value::Int(3)}});
  CHECK(DebugString(repeated) == "{\"a\": 3}");
  // Numerically equal keys of different kinds are one key.
  const Value numeric = Value::Map({{Value::Int(1), Value::Int(1)}, {Value::Uint(1), Value::Int(2)}});
  CHECK(numeric.AsMap().size() == 1);
  // Kinds order before values: bool < numbers < string.
  const Value mixed = Value::Map({{Value::Bool(true), Value::Int(1)}, {Value::Int(0), Value::Int(2)},
                                  {Value::String(""), Value::Int(3)}});
  CHECK(DebugString(mixed) == "{true: 1, 0: 2, \"\": 3}");
}

TEST_CASE("cel value: an activation finds its inline bindings and those beyond them") {
  Activation vars;
  CHECK(vars.Find("self") == nullptr);
  vars.Bind("self", Value::Int(1));
  vars.Bind("oldSelf", Value::Int(2));
  vars.Bind("third", Value::Int(3));
  vars.Bind("fourth", Value::Int(4));
  REQUIRE(vars.Find("self") != nullptr);
  CHECK(vars.Find("self")->AsInt() == 1);
  CHECK(vars.Find("oldSelf")->AsInt() == 2);
  CHECK(vars.Find("third")->AsInt() == 3);
  CHECK(vars.Find("fourth")->AsInt() == 4);
  CHECK(vars.Find("fifth") == nullptr);
}

// An opaque object that counts its destructions, to prove payloads are freed exactly once.
class CountedObject final : public OpaqueObject {
 public:
  explicit CountedObject(std::atomic<int>* destroyed) : destroyed_(destroyed) {}
  ~CountedObject() override { destroyed_->fetch_add(1); }
  std::string_view TypeName() const override { return "test.Counted"; }
  bool Equals(const OpaqueObject& other) const override { return this == &other; }
  std::string DebugString() const override { return "counted()"; }

 private:
  std::atomic<int>* destroyed_;
};

Value CountedValue(std::atomic<int>* destroyed) { return Value::Opaque(std::make_shared<CountedObject>(destroyed)); }

// One value of every kind and representation: inline, counted, borrowed and uncounted.
std::vector<Value> EveryKind(const std::string& borrowed, std::atomic<int>* destroyed) {
  return {Value::Null(), Value::Bool(true), Value::Int(-7), Value::Uint(7), Value::Double(1.5),
          Value::String("a string longer than the small-string buffer"), Value::BorrowedString(borrowed),
          Value::Bytes(std::string("\x01\x02", 2)), Value::List({Value::Int(1), Value::String("x")}),
          Value::SetList({Value::Int(1)}), Value::MapList({Value::Map({{Value::String("k"), Value::Int(1)}})}, {"k"}),
          Value::Map({{Value::String("a"), Value::List({Value::Int(2)})}}),
          Value::OfTimestamp({.seconds = 1700000000, .nanos = 5}), Value::OfDuration({.nanos = -3}),
          Value::Type("int"), Value::Type("test.Custom"), Value::OptionalOf(Value::String("some")),
          Value::OptionalNone(), Value::Error("boom"), CountedValue(destroyed),
          Value::MakeOpaque<CountedObject>(destroyed)};
}

TEST_CASE("cel value: copies, moves and self-assignments of every kind keep the value") {
  const std::string borrowed = "borrowed text";
  std::atomic<int> destroyed{0};
  {
    const std::vector<Value> originals = EveryKind(borrowed, &destroyed);
    for (const Value& original : originals) {
      const std::string want = DebugString(original);
      CAPTURE(want);
      Value copy(original);
      CHECK(copy.kind() == original.kind());
      CHECK(DebugString(copy) == want);
      CHECK(DebugString(original) == want);

      Value& alias = copy;
      copy = alias;  // self-copy
      CHECK(DebugString(copy) == want);
      copy = std::move(alias);  // self-move
      CHECK(DebugString(copy) == want);

      Value moved(std::move(copy));
      CHECK(DebugString(moved) == want);
      CHECK(copy.kind() == Kind::kNull);  // NOLINT(bugprone-use-after-move): moves leave null

      Value assigned = Value::String("overwritten payload, long enough to be on the heap");
      assigned = moved;
      CHECK(DebugString(assigned) == want);
      Value move_assigned = Value::List({Value::Int(9)});
      move_assigned = std::move(moved);
      CHECK(DebugString(move_assigned) == want);
      CHECK(moved.kind() == Kind::kNull);  // NOLINT(bugprone-use-after-move)

      // Over every other kind, in both directions.
      for (const Value& other : originals) {
        Value target = other;
        target = original;
        CHECK(DebugString(target) == want);
        target = other;
        CHECK(DebugString(target) == DebugString(other));
      }
    }
    CHECK(destroyed.load() == 0);
  }
  CHECK(destroyed.load() == 2);  // the shared and the in-block counted objects, once each
}

TEST_CASE("cel value: the last copy frees a payload, once, wherever it is held") {
  std::atomic<int> destroyed{0};
  {
    Value object = CountedValue(&destroyed);
    Value list = Value::List({object, object});
    Value map = Value::Map({{Value::String("o"), object}});
    Value optional = Value::OptionalOf(list);
    object = Value::Null();
    list = Value::Int(1);
    CHECK(destroyed.load() == 0);  // the map and the optional still hold it
    map = Value();
    CHECK(destroyed.load() == 0);
    REQUIRE(optional.OptionalValue() != nullptr);
    const Value item = optional.OptionalValue()->AsList()[1];
    optional = Value::OptionalNone();
    CHECK(optional.OptionalValue() == nullptr);
    CHECK(destroyed.load() == 0);  // `item` still holds it
    CHECK(item.AsOpaque().TypeName() == "test.Counted");
  }
  CHECK(destroyed.load() == 1);

  // Assigning a value an element of what it holds: the element outlives the list it came from.
  destroyed = 0;
  {
    Value v = Value::List({Value::List({CountedValue(&destroyed)})});
    v = v.AsList()[0];
    v = v.AsList()[0];
    CHECK(v.kind() == Kind::kOpaque);
    CHECK(destroyed.load() == 0);
    v = v;
    v = Value::Bool(false);
    CHECK(destroyed.load() == 1);
  }
  CHECK(destroyed.load() == 1);
}

TEST_CASE("cel value: borrowed strings and built-in type names are never counted or freed") {
  const std::string text = "the request body's text";
  std::vector<Value> copies;
  {
    const Value borrowed = Value::BorrowedString(text);
    for (int i = 0; i < 4; ++i) copies.push_back(borrowed);
    Value moved = std::move(copies.back());
    copies.pop_back();
    CHECK(&moved.AsString() == &text);
  }
  for (const Value& v : copies) CHECK(&v.AsString() == &text);
  copies.clear();
  CHECK(text == "the request body's text");

  // Type values: built-in names and others read and compare alike.
  CHECK(Value::Type("int").AsTypeName() == "int");
  CHECK(Value::Type("test.Custom").AsTypeName() == "test.Custom");
  CHECK(Equal(Value::Type("google.protobuf.Duration"), Value::Type(Value::OfDuration({}).TypeName())));
  CHECK_FALSE(Equal(Value::Type("int"), Value::Type("uint")));
  CHECK(Equal(Value::Type("test.Custom"), Value::Type(std::string("test.") + "Custom")));
}

TEST_CASE("cel value: threads copying one shared value at once free its payload exactly once") {
  std::atomic<int> destroyed{0};
  const std::string borrowed = "shared borrowed text";
  {
    const Value shared = Value::List(EveryKind(borrowed, &destroyed));
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&shared] {
        std::vector<Value> held;
        for (int i = 0; i < 20000; ++i) {
          Value copy = shared;
          Value item = copy.AsList()[i % copy.AsList().size()];
          if (i % 7 == 0) held.push_back(std::move(item));
          if (held.size() > 64) held.clear();
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(destroyed.load() == 0);
    CHECK(shared.AsList().size() == 21);
    CHECK(DebugString(shared.AsList()[5]) == "\"a string longer than the small-string buffer\"");
  }
  CHECK(destroyed.load() == 2);  // its two counted objects, once each
}

// An object holding another, as a CIDR holds its address.
class PairObject final : public OpaqueObject {
 public:
  explicit PairObject(std::atomic<int>* destroyed) : inner_(destroyed), destroyed_(destroyed) {}
  ~PairObject() override { destroyed_->fetch_add(1); }
  std::string_view TypeName() const override { return "test.Pair"; }
  bool Equals(const OpaqueObject& other) const override { return this == &other; }
  std::string DebugString() const override { return "pair()"; }
  const CountedObject& inner() const { return inner_; }

 private:
  CountedObject inner_;
  std::atomic<int>* destroyed_;
};

TEST_CASE("cel value: an object made in its value's block, and a part of one, live while a value holds them") {
  std::atomic<int> destroyed{0};
  Value part;
  {
    Value owner = Value::MakeOpaque<PairObject>(&destroyed);
    CHECK(owner.AsOpaque().TypeName() == "test.Pair");
    part = Value::OpaquePart(owner, static_cast<const PairObject&>(owner.AsOpaque()).inner());
    Value copy = owner;
  }
  // The owner's copies are gone; the part keeps the whole object.
  CHECK(destroyed.load() == 0);
  CHECK(part.AsOpaque().TypeName() == "test.Counted");
  CHECK(DebugString(part) == "counted()");
  part = Value();
  CHECK(destroyed.load() == 2);  // the pair and the object inside it, once each
}

}  // namespace
}  // namespace kube::cel
