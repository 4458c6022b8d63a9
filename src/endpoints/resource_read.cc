// GET, LIST and WATCH handlers.
#include <nlohmann/json.hpp>

#include <atomic>
#include <random>

#include "endpoints/api_server.h"
#include "endpoints/encoded_objects.h"
#include "endpoints/render.h"
#include "endpoints/request_options.h"
#include "endpoints/responses.h"
#include "endpoints/scale.h"
#include "protobuf/protobuf.h"
#include "storage/object_codec.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

// Streams one watch as newline-delimited JSON events, flushed one by one.
class WatchBody final : public ResponseStream {
 public:
  WatchBody(storage::WatchStreamPtr stream, registry::StorePtr store, Representation rep,
            std::string include_object, storage::Clock::time_point deadline, EncodedObjects* encoded)
      : store_(std::move(store)), stream_(std::move(stream)), rep_(rep), include_object_(std::move(include_object)),
        deadline_(deadline), encoded_(encoded) {}

  Step Next(std::string* out) override {
    const auto now = storage::Clock::now();
    if (now >= deadline_) return Step::kEnd;  // timeoutSeconds: end the body cleanly
    storage::WatchEvent e;
    // Return at least every half second so disconnects and shutdown are noticed.
    switch (stream_->NextEvent(&e, std::min(deadline_, now + std::chrono::milliseconds(500)))) {
      case storage::WatchStream::Next::kTimeout: return Step::kIdle;
      case storage::WatchStream::Next::kClosed: return Step::kEnd;
      case storage::WatchStream::Next::kEvent: break;
    }
    // The envelope is written around the dumped object: no copy of the object per watcher.
    std::string object;
    if (e.type == storage::WatchEventType::kError) {
      object = Dump(StatusObject(e.error));
    } else if (e.type == storage::WatchEventType::kBookmark && rep_.as == Representation::As::kObject) {
      object = Dump(*store_->AsServed(e.object));
    } else if (rep_.as == Representation::As::kObject) {
      object = *encoded_->Get(store_->AsServed(e.object));
    } else {
      // Bookmarks too take the requested form, as kube's watch handler transforms every event: a
      // PartialObjectMetadata, or a Table with the bookmark's row (clients decode them as such).
      auto rendered = RenderObject(*store_, store_->AsServed(e.object), rep_, include_object_, first_);
      first_ = false;
      if (!rendered.ok()) {
        object = Dump(StatusObject(rendered.status()));
        e.type = storage::WatchEventType::kError;
      } else {
        object = Dump(*rendered);
      }
    }
    if (rep_.protobuf) {
      // Length-prefixed WatchEvent frames carrying the object's own protobuf body.
      const json parsed = json::parse(object, nullptr, /*allow_exceptions=*/false);
      auto encoded = e.type == storage::WatchEventType::kError ? protobuf::EncodeStatus(parsed)
                                                               : protobuf::EncodeObject(parsed);
      if (!encoded.ok()) {
        // Never mix a JSON line into a protobuf stream: report the failure as an ERROR frame.
        encoded = protobuf::EncodeStatus(StatusObject(Status::Internal(encoded.status().message())));
        e.type = storage::WatchEventType::kError;
      }
      if (encoded.ok()) {
        *out = protobuf::EncodeWatchFrame(storage::WatchEventTypeName(e.type), *encoded);
        return Step::kData;
      }
    }
    out->clear();
    out->reserve(object.size() + 32);
    out->append("{\"type\":\"").append(storage::WatchEventTypeName(e.type)).append("\",\"object\":");
    out->append(object).append("}\n");
    return Step::kData;
  }

  void Close() override { stream_->Stop(); }

 private:
  // The store (and so, for a custom resource, its storage) outlives the stream it made.
  registry::StorePtr store_;
  storage::WatchStreamPtr stream_;
  Representation rep_;
  std::string include_object_;
  storage::Clock::time_point deadline_;
  EncodedObjects* encoded_;
  bool first_ = true;  // Table watches send column definitions only with the first event
};

storage::Clock::time_point WatchDeadline(std::optional<int64_t> timeout_seconds) {
  if (timeout_seconds && *timeout_seconds > 0) return storage::Clock::now() + std::chrono::seconds(*timeout_seconds);
  // No timeout given: kube picks a random 30 to 60 minutes.
  thread_local std::mt19937 rng{std::random_device{}()};
  return storage::Clock::now() + std::chrono::seconds(std::uniform_int_distribution<int>(1800, 3599)(rng));
}

}  // namespace

HttpResponse ApiServer::Get(RequestScope& scope) {
  const auto& info = scope.info;
  auto obj = scope.store->Get(info.namespace_, info.name,
                              storage::GetOptions{.resource_version = scope.query.Get("resourceVersion")});
  if (!obj.ok()) return ErrorResponse(obj.status());
  if (info.subresource == "scale") {
    auto scale = RenderScale(*scope.store, ScaleOf(**obj, ScalePathsOf(*scope.store)), scope.representation,
                             scope.query.Get("includeObject"));
    if (!scale.ok()) return ErrorResponse(scale.status());
    return Respond(scope, 200, *scale);
  }
  auto rendered = RenderObject(*scope.store, *obj, scope.representation, scope.query.Get("includeObject"));
  if (!rendered.ok()) return ErrorResponse(rendered.status());
  return Respond(scope, 200, *rendered);
}

HttpResponse ApiServer::List(RequestScope& scope) {
  auto options = ParseListOptions(scope.query, /*watch=*/false);
  if (!options.ok()) return ErrorResponse(options.status());
  const std::string ns = scope.store->info().namespaced ? scope.info.namespace_ : "";
  auto list = scope.store->List(ns, std::move(*options));
  if (!list.ok()) return ErrorResponse(list.status());
  auto rendered = RenderList(*scope.store, *list, scope.representation, scope.query.Get("includeObject"));
  if (!rendered.ok()) return ErrorResponse(rendered.status());
  return Respond(scope, 200, *rendered);
}

HttpResponse ApiServer::Watch(RequestScope& scope) {
  if (scope.representation.yaml) {
    // YAML has no stream framing: kube offers watches as JSON and protobuf only.
    return ErrorResponse(Status(StatusCode::kNotAcceptable,
                                "only the following media types are accepted: application/json, "
                                "application/vnd.kubernetes.protobuf, application/json;stream=watch, "
                                "application/vnd.kubernetes.protobuf;stream=watch"));
  }
  auto options = ParseListOptions(scope.query, /*watch=*/true);
  if (!options.ok()) return ErrorResponse(options.status());
  const auto& info = scope.info;
  if (!info.name.empty()) {
    // A watch on one object is a watch on its collection pinned by name.
    auto pinned = options->predicate.field.RequiresExactMatch("metadata.name");
    if (pinned && *pinned != info.name) {
      return ErrorResponse(Status::BadRequest("fieldSelector metadata.name doesn't match requested name"));
    }
    std::string selector = options->predicate.field.ToString();
    selector = "metadata.name=" + info.name + (selector.empty() ? "" : "," + selector);
    auto field = storage::FieldSelector::Parse(selector);
    if (!field.ok()) return ErrorResponse(field.status());
    options->predicate.field = std::move(*field);
  }
  auto timeout = scope.query.Int("timeoutSeconds");
  if (!timeout.ok()) return ErrorResponse(timeout.status());
  const auto deadline = WatchDeadline(*timeout);
  options->deadline = deadline;
  const std::string ns = scope.store->info().namespaced ? info.namespace_ : "";
  auto stream = scope.store->Watch(ns, std::move(*options));
  if (!stream.ok()) return ErrorResponse(stream.status());
  HttpResponse r;
  if (scope.representation.protobuf) {
    r.content_type = std::string(protobuf::kContentType) + ";stream=watch";
  }
  r.stream = std::make_shared<WatchBody>(std::move(*stream), scope.store, scope.representation,
                                         scope.query.Get("includeObject"), deadline, &encoded_objects_);
  return r;
}

}  // namespace kube::endpoints
