// The HTTP exchange as the endpoints layer sees it, independent of the HTTP library: the server
// layer fills an HttpRequest, calls the API handler and writes the HttpResponse back (streaming
// the body when the response has a stream, as watches do).
//
// Thread-safety: plain values; a ResponseStream is used by the one connection thread serving it.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "auth/user_info.h"

namespace kube::endpoints {

// Header names compare case-insensitively.
struct CaseInsensitiveLess {
  bool operator()(std::string_view a, std::string_view b) const;
  using is_transparent = void;
};
using Headers = std::multimap<std::string, std::string, CaseInsensitiveLess>;

struct HttpRequest {
  std::string method;     // upper case
  std::string path;       // percent-decoded
  std::string raw_query;  // after '?', still encoded
  Headers headers;
  std::string body;
  std::string remote_addr;
  // Who sent it, as the server's authentication established it (impersonation not yet applied).
  auth::UserInfo user;

  std::string Header(std::string_view name) const;
};

// The request's user as the registry's writes carry it (escalation checks read it).
inline std::shared_ptr<const auth::UserInfo> RequestUser(const HttpRequest& request) {
  return std::make_shared<const auth::UserInfo>(request.user);
}

// A body produced piece by piece (watch streams). The server calls Next() repeatedly on the
// connection's thread; each call should return within about a second so shutdown and client
// disconnects are noticed.
class ResponseStream {
 public:
  virtual ~ResponseStream() = default;
  enum class Step { kData, kIdle, kEnd };
  // kData: `out` holds bytes to send now (flushed as one chunk). kIdle: nothing yet, ask again.
  // kEnd: the body is complete.
  virtual Step Next(std::string* out) = 0;
  // Called once when the connection ends, whether the body completed or the client left.
  virtual void Close() = 0;
};

struct HttpResponse {
  int status = 200;
  Headers headers;
  std::string body;
  std::string content_type = "application/json";
  // When set, the body is streamed with chunked encoding instead of `body`.
  std::shared_ptr<ResponseStream> stream;
};

// Handles one request. Must not throw; every failure is a response.
using Handler = std::function<HttpResponse(const HttpRequest&)>;

}  // namespace kube::endpoints
