// Helpers shared by the protobuf test files: fixture files, a hand-built envelope (independent of
// the library's writer) and the JSON -> protobuf -> JSON round trip. Test-only.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "protobuf/protobuf.h"

namespace kube::protobuf::testing {

// A file of testdata/ (KUBE_PROTOBUF_TESTDATA when the build defines it).
inline std::string TestData(const std::string& file) {
#ifdef KUBE_PROTOBUF_TESTDATA
  const std::filesystem::path dir = KUBE_PROTOBUF_TESTDATA;
#else
  const std::filesystem::path dir = std::filesystem::path(__FILE__).parent_path() / "testdata";
#endif
  return (dir / file).string();
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  REQUIRE_MESSAGE(f.good(), "cannot open " << path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A length-delimited field, built by hand.
inline std::string LenField(int field, std::string_view payload) {
  std::string out(1, static_cast<char>(field << 3 | 2));
  uint64_t n = payload.size();
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
  return out.append(payload);
}

// The "k8s\0" + runtime.Unknown envelope around an object's own message.
inline std::string Envelope(std::string_view api_version, std::string_view kind, std::string_view raw) {
  return std::string("k8s\0", 4) + LenField(1, LenField(1, api_version) + LenField(2, kind)) +
         LenField(2, raw);
}

inline nlohmann::json RoundTrip(const nlohmann::json& in) {
  auto enc = EncodeObject(in);
  REQUIRE_MESSAGE(enc.ok(), enc.status().ToString());
  auto dec = DecodeObject(*enc);
  REQUIRE_MESSAGE(dec.ok(), dec.status().ToString());
  return *dec;
}

}  // namespace kube::protobuf::testing

#define CHECK_ROUND_TRIP(j)                                                                     \
  do {                                                                                          \
    const nlohmann::json in_ = (j);                                                             \
    const nlohmann::json out_ = ::kube::protobuf::testing::RoundTrip(in_);                      \
    CHECK_MESSAGE(out_ == in_, "got:  " << out_.dump() << "\nwant: " << in_.dump());            \
  } while (0)
