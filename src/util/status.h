// Status and Result<T>: the error type every layer returns instead of throwing.
//
// A Status is either OK or carries one of Kubernetes' metav1.StatusReason values, so the HTTP
// layer can turn any error into a wire `Status` object with a single mapping (Reason() gives the
// reason string, HttpCode() the HTTP code). Errors that have extra wire fields (Retry-After, a
// cause, a fresh continue token on a 410) carry them here as well.
//
// Thread-safety: a Status is a value type. Distinct objects may be used from different threads
// without synchronisation; a single object needs external synchronisation for mutation.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace kube {

// The reasons kube-apiserver emits (k8s.io/apimachinery metav1.StatusReason), plus kOk.
// The numeric values are not part of any wire format.
enum class StatusCode : uint8_t {
  kOk = 0,
  kBadRequest,             // 400
  kUnauthorized,           // 401
  kForbidden,              // 403
  kNotFound,               // 404
  kMethodNotAllowed,       // 405
  kNotAcceptable,          // 406
  kAlreadyExists,          // 409
  kConflict,               // 409
  kGone,                   // 410
  kExpired,                // 410: resourceVersion or continue token too old (compacted)
  kRequestEntityTooLarge,  // 413
  kUnsupportedMediaType,   // 415
  kInvalid,                // 422
  kTooManyRequests,        // 429
  kUnknown,                // 500 without a reason (kube's "unknown" errors)
  kInternalError,          // 500
  kServerTimeout,          // 500 (storage unreachable / retry)
  kServiceUnavailable,     // 503
  kTimeout,                // 504 (incl. "Too large resource version")
};

// The cause type kube puts in details.causes[0] for a too-large resourceVersion.
inline constexpr std::string_view kCauseResourceVersionTooLarge = "ResourceVersionTooLarge";

// One entry of metav1.StatusDetails.causes (serialised with the type under the key "reason").
struct StatusCause {
  std::string type;  // FieldValueInvalid, FieldValueRequired, ResourceVersionTooLarge, ...
  std::string message;
  std::string field;
};

// metav1.StatusDetails without retryAfterSeconds (kept on the Status itself).
struct StatusDetails {
  std::string name;
  std::string group;
  std::string kind;  // the resource (plural) for most errors, the Kind for 422 Invalid
  std::string uid;
  std::vector<StatusCause> causes;
};

class [[nodiscard]] Status {
 public:
  // OK.
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  static Status BadRequest(std::string m) { return {StatusCode::kBadRequest, std::move(m)}; }
  static Status Forbidden(std::string m) { return {StatusCode::kForbidden, std::move(m)}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status Conflict(std::string m) { return {StatusCode::kConflict, std::move(m)}; }
  static Status Expired(std::string m) { return {StatusCode::kExpired, std::move(m)}; }
  static Status Invalid(std::string m) { return {StatusCode::kInvalid, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternalError, std::move(m)}; }
  static Status Unknown(std::string m) { return {StatusCode::kUnknown, std::move(m)}; }
  static Status TooManyRequests(std::string m, int retry_after_seconds) {
    Status s(StatusCode::kTooManyRequests, std::move(m));
    s.retry_after_seconds_ = retry_after_seconds;
    return s;
  }
  // 504 Timeout with cause ResourceVersionTooLarge, as both etcd3 and the cacher report it.
  static Status TooLargeResourceVersion(std::string m, int retry_after_seconds) {
    Status s(StatusCode::kTimeout, std::move(m));
    s.retry_after_seconds_ = retry_after_seconds;
    s.details_.causes.push_back(
        StatusCause{std::string(kCauseResourceVersionTooLarge), "Too large resource version", ""});
    return s;
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  bool IsNotFound() const { return code_ == StatusCode::kNotFound; }
  bool IsAlreadyExists() const { return code_ == StatusCode::kAlreadyExists; }
  bool IsConflict() const { return code_ == StatusCode::kConflict; }
  bool IsExpired() const { return code_ == StatusCode::kExpired; }
  bool IsTooLargeResourceVersion() const {
    return code_ == StatusCode::kTimeout && cause() == kCauseResourceVersionTooLarge;
  }

  // details.retryAfterSeconds and the Retry-After header; 0 means "not set".
  int retry_after_seconds() const { return retry_after_seconds_; }
  Status& set_retry_after_seconds(int seconds) {
    retry_after_seconds_ = seconds;
    return *this;
  }
  // details.causes[0].type, empty when there is none.
  std::string_view cause() const {
    return details_.causes.empty() ? std::string_view() : std::string_view(details_.causes[0].type);
  }
  const StatusDetails& details() const { return details_; }
  StatusDetails& mutable_details() { return details_; }
  Status& set_message(std::string message) {
    message_ = std::move(message);
    return *this;
  }
  // metadata.continue of the Status (a fresh rv=-1 token on a 410 for a compacted continue).
  const std::string& continue_token() const { return continue_token_; }
  Status& set_continue_token(std::string token) {
    continue_token_ = std::move(token);
    return *this;
  }

  // metav1.StatusReason string ("" for OK and kUnknown, as kube leaves it empty).
  std::string_view Reason() const;
  int HttpCode() const;
  // "NotFound: message", for logs and test failures.
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  int retry_after_seconds_ = 0;
  std::string message_;
  StatusDetails details_;
  std::string continue_token_;
};

// Either a value or a non-OK Status (in the shape of absl::StatusOr).
// REQUIRES: a Result is never constructed from an OK Status.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}   // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(v_); }
  // The error, or OK when a value is held.
  Status status() const { return ok() ? Status() : std::get<Status>(v_); }

  // REQUIRES: ok().
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace kube

// Propagates a non-OK Status out of the enclosing function.
#define KUBE_RETURN_IF_ERROR(expr)            \
  do {                                        \
    ::kube::Status kube_status_ = (expr);     \
    if (!kube_status_.ok()) return kube_status_; \
  } while (0)
