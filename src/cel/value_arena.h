// ValueArena: payloads for values that live no longer than a scope, such as the values a
// request's validation rules read, built from its body. A list or map made here is not counted:
// copying or destroying a value over it costs nothing, and the payloads are destroyed together
// when the arena is (their items may be counted values, which are released then). The first
// payloads fit in storage inside the arena; more take blocks from the heap. The vectors of items
// and entries can come from a per-thread pool as well (NewItems, NewEntries).
//
//   cel::ValueArena arena;
//   cel::Value spec = arena.SortedMap(std::move(entries));   // valid while `arena` lives
//
// Thread-safety: one thread makes values in an arena. The values themselves are as any Value
// (immutable, readable from several threads) while the arena lives.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cel/value.h"

namespace kube::cel {

class ValueArena {
 public:
  ValueArena() = default;
  ValueArena(const ValueArena&) = delete;
  ValueArena& operator=(const ValueArena&) = delete;
  // Destroys every payload made here, newest first.
  ~ValueArena();

  // As Value::List, SetList, MapList and SortedMap. REQUIRES: the arena outlives the value, all
  // its copies and every value that holds them.
  Value List(ValueList items);
  Value SetList(ValueList items);
  Value MapList(ValueList items, std::vector<std::string> keys);
  // REQUIRES also: `entries` in strictly increasing key order (KeyLess), as Value::SortedMap.
  Value SortedMap(MapEntries entries);

  // Empty vectors with room for `capacity` elements, for the lists and maps made here: their
  // storage comes back when the arena is destroyed and is reused by the thread's next arenas
  // (a few small vectors are kept per thread).
  ValueList NewItems(size_t capacity);
  MapEntries NewEntries(size_t capacity);

 private:
  // Each payload is preceded by a header that chains it for destruction.
  struct Header {
    Header* previous;
    void (*destroy)(void* payload);
  };
  template <class T>
  T* Make(T payload, void (*destroy)(void*));
  void* Allocate(size_t bytes);

  static constexpr size_t kInlineBytes = 2048;
  static constexpr size_t kBlockBytes = 8192;
  alignas(std::max_align_t) unsigned char inline_[kInlineBytes];
  unsigned char* next_ = inline_;
  unsigned char* end_ = inline_ + kInlineBytes;
  std::vector<unsigned char*> blocks_;  // from the heap, freed by the destructor
  Header* last_ = nullptr;              // the newest payload
};

}  // namespace kube::cel
