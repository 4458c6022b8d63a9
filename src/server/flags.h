// Command-line parsing for kube-apiserver-lite: kube-apiserver 1.36's flags, each in both
// "--flag value" and "--flag=value" forms (bools: "--flag", "--flag=false", "--flag false"),
// with pflag's wording for errors ("unknown flag: --x", "flag needs an argument: --x",
// `invalid argument "x" for "--y" flag: ...`). Flags that change nothing here are accepted and
// collected in ServerOptions::ignored_flags (flag_table.h).
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
  bool version = false;
  bool version_raw = false;
  // An error kube-apiserver reports once its command runs rather than while parsing flags (an
  // unknown or locked feature gate): the binary logs it as klog's `"command failed" err="…"` and
  // exits 1; the embedding API returns it from Start.
  Status run_error;
};

Result<ParsedFlags> ParseFlags(int argc, const char* const* argv);
std::string Usage(const std::string& program);

}  // namespace kube::server
