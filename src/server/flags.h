// Command-line parsing for kube-apiserver-lite (kube-apiserver flag names where they mean the
// same; both "--flag value" and "--flag=value" forms).
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "server/options.h"
#include "util/status.h"

namespace kube::server {

struct ParsedFlags {
  ServerOptions options;
  bool help = false;
};

Result<ParsedFlags> ParseFlags(int argc, const char* const* argv);
std::string Usage(const std::string& program);

}  // namespace kube::server
