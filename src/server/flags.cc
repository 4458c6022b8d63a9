#include "server/flags.h"

#include <charconv>
#include <string_view>

namespace kube::server {

namespace {

Result<int> ParseInt(std::string_view flag, std::string_view value) {
  int v = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || ptr != value.data() + value.size()) {
    return Status::BadRequest("invalid value \"" + std::string(value) + "\" for flag " + std::string(flag));
  }
  return v;
}

}  // namespace

std::string Usage(const std::string& program) {
  return "Usage: " + program + R"( [flags]

A Kubernetes API server for tests: one binary, in memory by default.

Flags:
  --bind-address ADDR      address to listen on (default 127.0.0.1)
  --port PORT              plain-HTTP port; 0 picks a free port (default 6443)
  --kubeconfig-out FILE    write a kubeconfig for this server to FILE once it is ready
  --data-dir DIR           keep all data in DIR and reload it on restart (default: in memory)
  --authorization-mode M   comma-separated AlwaysAllow, AlwaysDeny, RBAC (default AlwaysAllow)
  -v, --v N                log verbosity; 1 logs every request (default 0)
  -h, --help               show this help
)";
}

Result<ParsedFlags> ParseFlags(int argc, const char* const* argv) {
  ParsedFlags parsed;
  ServerOptions& o = parsed.options;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      parsed.help = true;
      continue;
    }
    std::string name(arg);
    std::string value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos && name.starts_with("-")) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto take = [&]() -> Result<std::string> {
      if (has_value) return value;
      if (i + 1 >= argc) return Status::BadRequest("flag needs an argument: " + name);
      return std::string(argv[++i]);
    };
    if (name == "--bind-address") {
      auto v = take();
      if (!v.ok()) return v.status();
      o.bind_address = *v;
    } else if (name == "--port" || name == "--secure-port") {
      auto v = take();
      if (!v.ok()) return v.status();
      auto port = ParseInt(name, *v);
      if (!port.ok()) return port.status();
      if (*port < 0 || *port > 65535) return Status::BadRequest("--port must be between 0 and 65535");
      o.port = *port;
    } else if (name == "--kubeconfig-out") {
      auto v = take();
      if (!v.ok()) return v.status();
      o.kubeconfig_out = *v;
    } else if (name == "--data-dir") {
      auto v = take();
      if (!v.ok()) return v.status();
      o.data_dir = *v;
    } else if (name == "--authorization-mode") {
      auto v = take();
      if (!v.ok()) return v.status();
      o.authorization_mode = *v;
    } else if (name == "-v" || name == "--v") {
      auto v = take();
      if (!v.ok()) return v.status();
      auto level = ParseInt(name, *v);
      if (!level.ok()) return level.status();
      o.verbosity = *level;
    } else {
      return Status::BadRequest("unknown flag: " + std::string(arg));
    }
  }
  return parsed;
}

}  // namespace kube::server
