#include "util/status.h"

namespace kube {

std::string_view Status::Reason() const {
  switch (code_) {
    case StatusCode::kOk: return "";
    case StatusCode::kBadRequest: return "BadRequest";
    case StatusCode::kUnauthorized: return "Unauthorized";
    case StatusCode::kForbidden: return "Forbidden";
    case StatusCode::kNotFound: return "NotFound";
    case StatusCode::kMethodNotAllowed: return "MethodNotAllowed";
    case StatusCode::kNotAcceptable: return "NotAcceptable";
    case StatusCode::kAlreadyExists: return "AlreadyExists";
    case StatusCode::kConflict: return "Conflict";
    case StatusCode::kGone: return "Gone";
    case StatusCode::kExpired: return "Expired";
    case StatusCode::kRequestEntityTooLarge: return "RequestEntityTooLarge";
    case StatusCode::kUnsupportedMediaType: return "UnsupportedMediaType";
    case StatusCode::kInvalid: return "Invalid";
    case StatusCode::kTooManyRequests: return "TooManyRequests";
    case StatusCode::kUnknown: return "";
    case StatusCode::kInternalError: return "InternalError";
    case StatusCode::kServerTimeout: return "ServerTimeout";
    case StatusCode::kServiceUnavailable: return "ServiceUnavailable";
    case StatusCode::kTimeout: return "Timeout";
  }
  return "";
}

int Status::HttpCode() const {
  switch (code_) {
    case StatusCode::kOk: return 200;
    case StatusCode::kBadRequest: return 400;
    case StatusCode::kUnauthorized: return 401;
    case StatusCode::kForbidden: return 403;
    case StatusCode::kNotFound: return 404;
    case StatusCode::kMethodNotAllowed: return 405;
    case StatusCode::kNotAcceptable: return 406;
    case StatusCode::kAlreadyExists:
    case StatusCode::kConflict: return 409;
    case StatusCode::kGone:
    case StatusCode::kExpired: return 410;
    case StatusCode::kRequestEntityTooLarge: return 413;
    case StatusCode::kUnsupportedMediaType: return 415;
    case StatusCode::kInvalid: return 422;
    case StatusCode::kTooManyRequests: return 429;
    case StatusCode::kUnknown:
    case StatusCode::kInternalError:
    case StatusCode::kServerTimeout: return 500;
    case StatusCode::kServiceUnavailable: return 503;
    case StatusCode::kTimeout: return 504;
  }
  return 500;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string reason(Reason());
  if (reason.empty()) reason = "Unknown";
  return reason + ": " + message_;
}

}  // namespace kube
