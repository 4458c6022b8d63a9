// Request bodies decoded as kube's handlers decode them: the Content-Type picks the serializer
// (JSON, YAML or protobuf, the three kube accepts for objects and option kinds alike; anything
// else is 415), and the result is the JSON value the rest of the server works with. Every body a
// handler reads goes through here, so a new subresource (Eviction, Binding, TokenRequest) or
// options kind gets all three encodings by calling the same functions.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "endpoints/http.h"
#include "protobuf/protobuf.h"
#include "util/status.h"

namespace kube::endpoints {

// True when the request carries a body to decode (anything but whitespace). Handlers whose
// options may come from the body or the query (DELETE, DELETECOLLECTION) read the query only
// when this is false, as kube does for an empty body.
bool HasBody(const HttpRequest& request);

// The body as a JSON object. `expected` is the kind the handler expects: a protobuf envelope that
// leaves apiVersion or kind empty takes them from it (kube's default GroupVersionKind).
// `duplicates` receives the strict decoder's complaints about repeated keys (JSON and YAML).
// Errors: 415 for a media type kube does not accept, 400 for a malformed body or one that is not
// an object.
Result<nlohmann::json> DecodeObjectBody(const HttpRequest& request, const protobuf::KindDefaults& expected,
                                        std::vector<std::string>* duplicates);

// An options body (`kind` is "DeleteOptions", ...), decoded like an object with meta.k8s.io/v1
// as the default. Options kinds are registered in every group version, so any apiVersion is
// accepted; a body of another kind is 400 with the message kube's options scheme gives.
Result<nlohmann::json> DecodeOptionsBody(const HttpRequest& request, std::string_view kind);

}  // namespace kube::endpoints
