#include "storage/resource_version.h"

#include <charconv>

#include "storage/continue_token.h"

namespace kube::storage {

Result<uint64_t> ParseResourceVersion(std::string_view rv) {
  if (rv.empty() || rv == "0") return uint64_t{0};
  uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), value);
  if (ec != std::errc() || ptr != rv.data() + rv.size()) {
    // kube's versioner reports a field error on resourceVersion around strconv's own text.
    const bool range = ec == std::errc::result_out_of_range && ptr == rv.data() + rv.size();
    const std::string quoted = "\"" + std::string(rv) + "\"";
    return Status::BadRequest("invalid resource version: resourceVersion: Invalid value: " + quoted +
                              ": strconv.ParseUint: parsing " + quoted +
                              (range ? ": value out of range" : ": invalid syntax"));
  }
  return value;
}

Status TooLargeResourceVersion(uint64_t requested, uint64_t current, int retry_after_seconds) {
  return Status::TooLargeResourceVersion("Too large resource version: " + std::to_string(requested) +
                                             ", current: " + std::to_string(current),
                                         retry_after_seconds);
}

Result<ListRead> ValidateListOptions(std::string_view key_prefix, const ListOptions& options) {
  ListRead read;
  const std::string& token = options.predicate.continue_token;
  if (options.recursive && !token.empty()) {
    auto decoded = DecodeContinueToken(token, key_prefix);
    if (!decoded.ok()) {
      return Status::BadRequest("invalid continue token: " + decoded.status().message());
    }
    if (!options.resource_version.empty() && options.resource_version != "0") {
      return Status::BadRequest("specifying resource version is not allowed when using continue");
    }
    read.continue_key = decoded->start_key;
    if (decoded->resource_version > 0) {
      read.exact_revision = decoded->resource_version;
    } else {
      read.continue_at_latest = true;
    }
    return read;
  }
  if (options.resource_version.empty()) return read;
  auto rv = ParseResourceVersion(options.resource_version);
  if (!rv.ok()) return rv.status();
  const std::string& match = options.resource_version_match;
  if (match == kMatchNotOlderThan) {
    read.min_revision = *rv;
  } else if (match == kMatchExact) {
    read.exact_revision = static_cast<int64_t>(*rv);
  } else if (match.empty()) {
    // Legacy: a paged recursive list at a given RV reads exactly there.
    if (options.recursive && options.predicate.limit > 0 && *rv > 0) {
      read.exact_revision = static_cast<int64_t>(*rv);
    } else {
      read.min_revision = *rv;
    }
  } else {
    return Status::BadRequest("unknown ResourceVersionMatch value: " + match);
  }
  return read;
}

}  // namespace kube::storage
