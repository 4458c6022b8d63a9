// Protobuf wire primitives (internal to kube_protobuf): a bounds-checked reader and an appending
// writer. The reader never reads past its buffer; every failure is reported, never thrown.
//
// Thread-safety: value types; one object per thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kube::protobuf::wire {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kStartGroup = 3, kEndGroup = 4,
                           kFixed32 = 5 };

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool done() const { return pos_ >= data_.size(); }
  size_t pos() const { return pos_; }

  // false on truncation or a varint longer than 10 bytes.
  bool Varint(uint64_t* out) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos_ >= data_.size()) return false;
      const auto b = static_cast<uint8_t>(data_[pos_++]);
      if (shift == 63 && b > 1) return false;  // overflows 64 bits
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        *out = v;
        return true;
      }
    }
    return false;
  }
  bool Fixed(int bytes, uint64_t* out) {
    if (data_.size() - pos_ < static_cast<size_t>(bytes)) return false;
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
    pos_ += bytes;
    *out = v;
    return true;
  }
  // A length-delimited payload; false when the length runs past the buffer.
  bool Bytes(std::string_view* out) {
    uint64_t n = 0;
    if (!Varint(&n) || n > data_.size() - pos_) return false;
    *out = data_.substr(pos_, n);
    pos_ += n;
    return true;
  }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

inline void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
inline void PutTag(std::string* out, uint32_t number, WireType type) {
  PutVarint(out, (static_cast<uint64_t>(number) << 3) | type);
}
inline void PutLen(std::string* out, uint32_t number, std::string_view payload) {
  PutTag(out, number, kLen);
  PutVarint(out, payload.size());
  out->append(payload);
}
inline void PutFixed(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace kube::protobuf::wire
