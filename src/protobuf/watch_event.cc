// Watch frames in protobuf: each event is a length-prefixed metav1.WatchEvent.
#include <string>

#include "protobuf/protobuf.h"
#include "protobuf/wire.h"

namespace kube::protobuf {

std::string EncodeWatchFrame(std::string_view type, std::string_view object_body) {
  // WatchEvent {1: type, 2: object (RawExtension {1: raw = the object's own protobuf body})}.
  std::string raw_extension;
  wire::PutLen(&raw_extension, 1, object_body);
  std::string event;
  wire::PutLen(&event, 1, type);
  wire::PutLen(&event, 2, raw_extension);
  std::string frame;
  const auto n = static_cast<uint32_t>(event.size());
  frame.push_back(static_cast<char>((n >> 24) & 0xff));
  frame.push_back(static_cast<char>((n >> 16) & 0xff));
  frame.push_back(static_cast<char>((n >> 8) & 0xff));
  frame.push_back(static_cast<char>(n & 0xff));
  return frame + event;
}

}  // namespace kube::protobuf
