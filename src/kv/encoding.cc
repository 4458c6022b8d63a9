#include "kv/encoding.h"

namespace kube::kv::encoding {

namespace {
constexpr size_t kVersionSuffix = 1 + 8;  // NUL separator + revision
constexpr size_t kRecordHeader = 1 + 8 + 8 + 8;
constexpr uint8_t kFlagTombstone = 1;
}  // namespace

void AppendBE64(std::string* out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xff));
}

uint64_t ReadBE64(std::string_view in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

std::string VersionKey(std::string_view user_key, int64_t revision) {
  std::string k;
  k.reserve(1 + user_key.size() + kVersionSuffix);
  k.push_back(kVersionPrefix);
  k.append(user_key);
  k.push_back('\0');
  AppendBE64(&k, static_cast<uint64_t>(revision));
  return k;
}

std::optional<std::pair<std::string_view, int64_t>> ParseVersionKey(std::string_view key) {
  if (key.size() < 1 + kVersionSuffix || key[0] != kVersionPrefix) return std::nullopt;
  size_t sep = key.size() - kVersionSuffix;
  if (key[sep] != '\0') return std::nullopt;
  return std::make_pair(key.substr(1, sep - 1),
                        static_cast<int64_t>(ReadBE64(key.substr(sep + 1))));
}

std::string EncodeRecord(const IndexedRevision& meta, std::string_view value) {
  std::string r;
  r.reserve(kRecordHeader + value.size());
  r.push_back(static_cast<char>(meta.tombstone ? kFlagTombstone : 0));
  AppendBE64(&r, static_cast<uint64_t>(meta.create_revision));
  AppendBE64(&r, static_cast<uint64_t>(meta.version));
  AppendBE64(&r, static_cast<uint64_t>(meta.lease));
  r.append(value);
  return r;
}

std::optional<IndexedRevision> DecodeRecordMeta(std::string_view record) {
  if (record.size() < kRecordHeader) return std::nullopt;
  IndexedRevision m;
  m.tombstone = (static_cast<uint8_t>(record[0]) & kFlagTombstone) != 0;
  m.create_revision = static_cast<int64_t>(ReadBE64(record.substr(1)));
  m.version = static_cast<int64_t>(ReadBE64(record.substr(9)));
  m.lease = static_cast<int64_t>(ReadBE64(record.substr(17)));
  return m;
}

std::string_view RecordValue(std::string_view record) { return record.substr(kRecordHeader); }

std::string LogKey(int64_t revision, uint32_t sub) {
  std::string k(1, kLogPrefix);
  AppendBE64(&k, static_cast<uint64_t>(revision));
  for (int shift = 24; shift >= 0; shift -= 8) k.push_back(static_cast<char>((sub >> shift) & 0xff));
  return k;
}

std::string LeaseKey(int64_t id) {
  std::string k(1, kLeasePrefix);
  AppendBE64(&k, static_cast<uint64_t>(id));
  return k;
}

std::string PrefixEnd(std::string_view prefix) {
  std::string end(prefix);
  while (!end.empty()) {
    auto last = static_cast<uint8_t>(end.back());
    if (last != 0xff) {
      end.back() = static_cast<char>(last + 1);
      return end;
    }
    end.pop_back();
  }
  return end;
}

}  // namespace kube::kv::encoding
