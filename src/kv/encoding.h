// The on-disk layout of the kv store inside RocksDB (one column family, one-byte key spaces).
//
//   'v' <user key> 0x00 <BE64 revision>  -> record: <flags u8> <BE64 create_rev> <BE64 version>
//                                            <BE64 lease> <value bytes>   (one per key version)
//   'l' <BE64 revision> <BE32 sub>       -> <user key>                    (event log, for watch replay)
//   'm' <name>                           -> <BE64>                        (current / compact revision)
//   'L' <BE64 lease id>                  -> <BE64 expiry, unix ms>        (granted leases)
//
// Integers are big-endian so byte order is numeric order. User keys never contain NUL (the store
// rejects them), so a version key splits unambiguously at its fixed-size suffix.
// DO NOT CHANGE these prefixes or layouts: data directories written by older builds rely on them.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kv/key_index.h"

namespace kube::kv::encoding {

inline constexpr char kVersionPrefix = 'v';
inline constexpr char kLogPrefix = 'l';
inline constexpr char kMetaPrefix = 'm';
inline constexpr char kLeasePrefix = 'L';
inline constexpr std::string_view kMetaCurrentRevision = "mcurrent";
inline constexpr std::string_view kMetaCompactRevision = "mcompact";
inline constexpr std::string_view kMetaNextLease = "mnextlease";

// Keys the store accepts: non-empty, without NUL (kube's keys never contain one).
inline bool ValidUserKey(std::string_view key) {
  return !key.empty() && key.find('\0') == std::string_view::npos;
}

void AppendBE64(std::string* out, uint64_t v);
uint64_t ReadBE64(std::string_view in);  // REQUIRES: in.size() >= 8

std::string VersionKey(std::string_view user_key, int64_t revision);
// Splits a version key into user key and revision; nullopt if malformed.
std::optional<std::pair<std::string_view, int64_t>> ParseVersionKey(std::string_view key);

std::string EncodeRecord(const IndexedRevision& meta, std::string_view value);
// Decodes a record's metadata (revision is not part of the record) and its value; nullopt if
// malformed.
std::optional<IndexedRevision> DecodeRecordMeta(std::string_view record);
std::string_view RecordValue(std::string_view record);  // REQUIRES: a well-formed record

std::string LogKey(int64_t revision, uint32_t sub);
std::string LeaseKey(int64_t id);

// The smallest key greater than every key starting with `prefix` (etcd's prefix range end).
// Empty when no such key exists (prefix of only 0xFF bytes, or empty).
std::string PrefixEnd(std::string_view prefix);

}  // namespace kube::kv::encoding
