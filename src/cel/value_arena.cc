#include "cel/value_arena.h"

#include <memory>
#include <new>
#include <utility>

namespace kube::cel {

namespace {

constexpr size_t RoundUp(size_t n) {
  constexpr size_t a = alignof(std::max_align_t);
  return (n + a - 1) / a * a;
}

}  // namespace

ValueArena::~ValueArena() {
  for (Header* h = last_; h != nullptr;) {
    Header* previous = h->previous;
    h->destroy(reinterpret_cast<unsigned char*>(h) + RoundUp(sizeof(Header)));
    h = previous;
  }
  for (unsigned char* block : blocks_) delete[] block;
}

void* ValueArena::Allocate(size_t bytes) {
  bytes = RoundUp(bytes);
  if (static_cast<size_t>(end_ - next_) < bytes) {
    const size_t size = bytes > kBlockBytes ? bytes : kBlockBytes;
    // new[] of unsigned char is aligned for any fundamental type.
    blocks_.push_back(new unsigned char[size]);
    next_ = blocks_.back();
    end_ = next_ + size;
  }
  void* out = next_;
  next_ += bytes;
  return out;
}

template <class T>
T* ValueArena::Make(T payload) {
  unsigned char* at = static_cast<unsigned char*>(Allocate(RoundUp(sizeof(Header)) + sizeof(T)));
  T* body = new (at + RoundUp(sizeof(Header))) T(std::move(payload));
  last_ = new (at) Header{last_, [](void* p) { static_cast<T*>(p)->~T(); }};
  return body;
}

Value ValueArena::List(ValueList items) { return Value(Kind::kList, nullptr, Make(ListPayload{std::move(items)})); }

Value ValueArena::SetList(ValueList items) {
  return Value(Kind::kList, nullptr, Make(ListPayload{std::move(items), ListSemantics::kSet}));
}

Value ValueArena::MapList(ValueList items, std::vector<std::string> keys) {
  return Value(Kind::kList, nullptr, Make(ListPayload{std::move(items), ListSemantics::kMap, std::move(keys)}));
}

Value ValueArena::SortedMap(MapEntries entries) { return Value(Kind::kMap, nullptr, Make(std::move(entries))); }

}  // namespace kube::cel
