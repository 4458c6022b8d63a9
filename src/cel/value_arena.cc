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

// Emptied vectors kept for the thread's next arenas, few and small so that a thread keeps at
// most about 36 KB.
constexpr size_t kPooledVectors = 32;
constexpr size_t kPooledCapacity = 16;
struct VectorPool {
  std::vector<ValueList> items;
  std::vector<MapEntries> entries;
};
VectorPool& ThreadPool() {
  thread_local VectorPool pool;
  return pool;
}

template <class V>
V Take(std::vector<V>& pool, size_t capacity) {
  V v;
  if (!pool.empty()) {
    v = std::move(pool.back());
    pool.pop_back();
  }
  v.reserve(capacity);
  return v;
}

template <class V>
void GiveBack(std::vector<V>& pool, V& v) {
  if (v.capacity() == 0 || v.capacity() > kPooledCapacity || pool.size() >= kPooledVectors) return;
  v.clear();
  if (pool.capacity() == 0) pool.reserve(kPooledVectors);
  pool.push_back(std::move(v));
}

void DestroyList(void* p) {
  auto* list = static_cast<ListPayload*>(p);
  GiveBack(ThreadPool().items, list->items);
  list->~ListPayload();
}

void DestroyMap(void* p) {
  auto* entries = static_cast<MapEntries*>(p);
  GiveBack(ThreadPool().entries, *entries);
  entries->~MapEntries();
}

}  // namespace

ValueList ValueArena::NewItems(size_t capacity) { return Take(ThreadPool().items, capacity); }

MapEntries ValueArena::NewEntries(size_t capacity) { return Take(ThreadPool().entries, capacity); }

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
T* ValueArena::Make(T payload, void (*destroy)(void*)) {
  unsigned char* at = static_cast<unsigned char*>(Allocate(RoundUp(sizeof(Header)) + sizeof(T)));
  T* body = new (at + RoundUp(sizeof(Header))) T(std::move(payload));
  last_ = new (at) Header{last_, destroy};
  return body;
}

Value ValueArena::List(ValueList items) {
  return Value(Kind::kList, nullptr, Make(ListPayload{std::move(items)}, DestroyList));
}

Value ValueArena::SetList(ValueList items) {
  return Value(Kind::kList, nullptr, Make(ListPayload{std::move(items), ListSemantics::kSet}, DestroyList));
}

Value ValueArena::MapList(ValueList items, std::vector<std::string> keys) {
  return Value(Kind::kList, nullptr, Make(ListPayload{std::move(items), ListSemantics::kMap, std::move(keys)}, DestroyList));
}

Value ValueArena::SortedMap(MapEntries entries) { return Value(Kind::kMap, nullptr, Make(std::move(entries), DestroyMap)); }

}  // namespace kube::cel
