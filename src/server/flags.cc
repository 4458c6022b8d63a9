#include "server/flags.h"

#include "server/feature_gates.h"

#include <arpa/inet.h>

#include <charconv>
#include <functional>
#include <string_view>

#include "auth/authorization_modes.h"
#include "server/flag_table.h"

namespace kube::server {

namespace {

Status FlagError(std::string message) { return Status::BadRequest(std::move(message)); }

Status InvalidArgument(std::string_view value, std::string_view flag, std::string_view why) {
  return FlagError("invalid argument \"" + std::string(value) + "\" for \"--" + std::string(flag) + "\" flag: " +
                   std::string(why));
}

Result<int64_t> ParseInt(std::string_view flag, std::string_view value) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || ptr != value.data() + value.size()) {
    return InvalidArgument(value, flag, "strconv.ParseInt: parsing \"" + std::string(value) + "\": invalid syntax");
  }
  return v;
}

// strconv.ParseBool, which pflag uses.
Result<bool> ParseBool(std::string_view flag, std::string_view v) {
  if (v == "1" || v == "t" || v == "T" || v == "true" || v == "TRUE" || v == "True") return true;
  if (v == "0" || v == "f" || v == "F" || v == "false" || v == "FALSE" || v == "False") return false;
  return InvalidArgument(v, flag, "strconv.ParseBool: parsing \"" + std::string(v) + "\": invalid syntax");
}

bool LooksLikeBool(std::string_view v) {
  return v == "true" || v == "false" || v == "True" || v == "False" || v == "TRUE" || v == "FALSE" || v == "1" ||
         v == "0" || v == "t" || v == "f";
}

std::vector<std::string> SplitComma(std::string_view v) {
  std::vector<std::string> out;
  if (v.empty()) return out;
  size_t start = 0;
  while (true) {
    const size_t comma = v.find(',', start);
    out.emplace_back(v.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

// Go's time.ParseDuration for the forms flags use ("1h", "30m", "3600s", "1h30m").
Result<int64_t> ParseDurationSeconds(std::string_view flag, std::string_view v) {
  if (v == "0") return 0;
  int64_t total = 0;
  size_t i = 0;
  if (v.empty()) return InvalidArgument(v, flag, "time: invalid duration \"\"");
  while (i < v.size()) {
    size_t j = i;
    while (j < v.size() && v[j] >= '0' && v[j] <= '9') ++j;
    if (j == i) return InvalidArgument(v, flag, "time: invalid duration \"" + std::string(v) + "\"");
    const int64_t n = std::stoll(std::string(v.substr(i, j - i)));
    size_t k = j;
    while (k < v.size() && (v[k] < '0' || v[k] > '9')) ++k;
    const std::string_view unit = v.substr(j, k - j);
    if (unit == "h") total += n * 3600;
    else if (unit == "m") total += n * 60;
    else if (unit == "s") total += n;
    else return InvalidArgument(v, flag, "time: unknown unit \"" + std::string(unit) + "\" in duration \"" + std::string(v) + "\"");
    i = k;
  }
  return total;
}

Status ParseCidr(std::string_view flag, const std::string& v) {
  for (const auto& cidr : SplitComma(v)) {
    const size_t slash = cidr.find('/');
    unsigned char buf[16];
    if (slash == std::string::npos) return InvalidArgument(v, flag, "invalid CIDR address: " + cidr);
    const std::string ip = cidr.substr(0, slash);
    const bool v4 = inet_pton(AF_INET, ip.c_str(), buf) == 1;
    const bool v6 = !v4 && inet_pton(AF_INET6, ip.c_str(), buf) == 1;
    auto bits = ParseInt(flag, cidr.substr(slash + 1));
    if ((!v4 && !v6) || !bits.ok() || *bits < 0 || *bits > (v4 ? 32 : 128)) {
      return InvalidArgument(v, flag, "invalid CIDR address: " + cidr);
    }
  }
  return Status::OK();
}

struct Parser {
  ParsedFlags parsed;
  ServerOptions& o = parsed.options;

  // Applies one implemented flag; false when `name` is not one.
  Result<bool> Apply(const std::string& name, const std::string& v) {
    auto set_int = [&](int* out, int lo, int hi) -> Status {
      auto n = ParseInt(name, v);
      if (!n.ok()) return n.status();
      if (*n < lo || *n > hi) return FlagError("--" + name + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", inclusive");
      *out = static_cast<int>(*n);
      return Status::OK();
    };
    auto set_bool = [&](bool* out) -> Status {
      auto b = ParseBool(name, v);
      if (!b.ok()) return b.status();
      *out = *b;
      return Status::OK();
    };
    if (name == "bind-address" || name == "advertise-address") {
      unsigned char buf[16];
      if (inet_pton(AF_INET, v.c_str(), buf) != 1 && inet_pton(AF_INET6, v.c_str(), buf) != 1) {
        return InvalidArgument(v, name, "failed to parse IP: \"" + v + "\"");
      }
      (name == "bind-address" ? o.bind_address : o.advertise_address) = v;
    } else if (name == "port") {
      KUBE_RETURN_IF_ERROR(set_int(&o.port, 0, 65535));
    } else if (name == "secure-port") {
      KUBE_RETURN_IF_ERROR(set_int(&o.secure_port, 0, 65535));
      o.secure_port_set = true;
    } else if (name == "kubeconfig-out") {
      o.kubeconfig_out = v;
    } else if (name == "data-dir") {
      o.data_dir = v;
    } else if (name == "load") {
      o.load.push_back(v);
    } else if (name == "v") {
      KUBE_RETURN_IF_ERROR(set_int(&o.verbosity, 0, 1 << 30));
    } else if (name == "tls-cert-file") {
      o.tls_cert_file = v;
    } else if (name == "tls-private-key-file") {
      o.tls_private_key_file = v;
    } else if (name == "cert-dir") {
      o.cert_dir = v;
    } else if (name == "client-ca-file") {
      o.client_ca_file = v;
    } else if (name == "token-auth-file") {
      o.token_auth_file = v;
    } else if (name == "anonymous-auth") {
      KUBE_RETURN_IF_ERROR(set_bool(&o.anonymous_auth));
    } else if (name == "service-account-lookup") {
      KUBE_RETURN_IF_ERROR(set_bool(&o.service_account_lookup));
    } else if (name == "service-account-key-file") {
      o.service_account_key_files.push_back(v);
    } else if (name == "service-account-signing-key-file") {
      o.service_account_signing_key_file = v;
    } else if (name == "service-account-issuer") {
      o.service_account_issuers.push_back(v);
    } else if (name == "api-audiences") {
      for (auto& a : SplitComma(v)) o.api_audiences.push_back(std::move(a));
    } else if (name == "service-account-max-token-expiration") {
      auto d = ParseDurationSeconds(name, v);
      if (!d.ok()) return d.status();
      o.service_account_max_token_expiration = *d;
    } else if (name == "authorization-mode") {
      if (!authorization_mode_set_) o.authorization_modes.clear();
      authorization_mode_set_ = true;
      for (auto& m : SplitComma(v)) o.authorization_modes.push_back(std::move(m));
    } else if (name == "runtime-config") {
      for (const auto& kv : SplitComma(v)) {
        if (kv.empty()) continue;
        const size_t eq = kv.find('=');
        o.runtime_config.emplace_back(kv.substr(0, eq), eq == std::string::npos ? "true" : kv.substr(eq + 1));
      }
    } else if (name == "service-cluster-ip-range") {
      KUBE_RETURN_IF_ERROR(ParseCidr(name, v));
      o.service_cluster_ip_range = v;
    } else if (name == "service-node-port-range") {
      const size_t dash = v.find('-');
      auto lo = ParseInt(name, v.substr(0, dash));
      auto hi = dash == std::string::npos ? lo : ParseInt(name, v.substr(dash + 1));
      if (!lo.ok() || !hi.ok() || *lo < 0 || *hi > 65535 || *lo > *hi) {
        return InvalidArgument(v, name, "unable to parse port range: " + v);
      }
      o.node_port_min = static_cast<int>(*lo);
      o.node_port_max = static_cast<int>(*hi);
    } else if (name == "enable-admission-plugins" || name == "disable-admission-plugins") {
      auto& list = name == "enable-admission-plugins" ? o.enable_admission_plugins : o.disable_admission_plugins;
      for (auto& p : SplitComma(v)) {
        if (p.empty()) continue;
        if (!IsKnownAdmissionPlugin(p)) return FlagError(name + " plugin \"" + p + "\" is unknown");
        list.push_back(std::move(p));
      }
    } else if (name == "feature-gates") {
      // pflag only collects the pairs (a pair needs its "="); kube checks them against its gates
      // when the command runs (ResolveFeatureGates).
      for (const auto& kv : SplitComma(v)) {
        if (!kv.empty() && kv.find('=') == std::string::npos) {
          return InvalidArgument(v, name, "malformed pair, expect string=string");
        }
      }
      o.feature_gate_values.push_back(v);
    } else {
      return false;
    }
    return true;
  }

  bool authorization_mode_set_ = false;
};

// Implemented flags that take no value (pflag bools).
bool IsBoolFlag(std::string_view name) {
  if (name == "anonymous-auth" || name == "service-account-lookup" || name == "help" || name == "version") return true;
  const IgnoredFlag* f = FindIgnoredFlag(name);
  return f != nullptr && f->is_bool;
}

}  // namespace

std::string Usage(const std::string& program) {
  std::string out = "Usage: " + program + R"( [flags]

kube-apiserver-lite: a Kubernetes API server for tests, one binary with an embedded store. It takes
kube-apiserver's flags; those below act, the rest are accepted and ignored (listed at the end).
Invoked as "etcd" it is a stand-in etcd for envtest (see "etcd --help").

Serving:
      --secure-port int                 HTTPS port; 0 picks a free one (default 6443). Served unless only --port is given.
      --port int                        plain-HTTP port, no credentials needed (requests act as system:masters); 0 picks a free one
      --bind-address ip                 address to listen on (default 127.0.0.1)
      --advertise-address ip            address clients reach the server at (added to the serving certificate)
      --tls-cert-file string            serving certificate (PEM, intermediates after it)
      --tls-private-key-file string     its RSA or ECDSA key
      --cert-dir string                 without --tls-cert-file: apiserver.crt/.key here, else generated and written here
      --kubeconfig-out string           write a kubeconfig for this server once it is ready (admin client certificate for HTTPS)
      --data-dir string                 keep all data in this directory and reload it on restart (default: in memory)
      --load stringArray                create the objects of these manifest files or directories (.yaml, .yml, .json) before ready
  -v, --v int                           log verbosity; 1 logs every request (default 0)

Authentication:
      --client-ca-file string           CA bundle for client certificates (CN = user, O = groups)
      --token-auth-file string          static bearer tokens, CSV: token,user,uid,"group1,group2"
      --anonymous-auth                  allow anonymous requests as system:anonymous (default true)
      --service-account-key-file stringArray   PEM public keys, private keys or certificates verifying service-account tokens
      --service-account-signing-key-file string   private key signing TokenRequest tokens
      --service-account-issuer stringArray     token issuer ("iss"); the first one signs
      --api-audiences strings           audiences tokens must carry (default: the first issuer)
      --service-account-max-token-expiration duration   longest TokenRequest validity
      --service-account-lookup          check that a token's service account still exists (default true)

Authorization and API:
      --authorization-mode strings      ordered authorizers: AlwaysAllow, AlwaysDeny, RBAC (default AlwaysAllow)
      --runtime-config mapStringString  enable or disable API versions: api/all=false, batch/v1=false, ...
      --enable-admission-plugins strings    admission plugins to enable (kube's names)
      --disable-admission-plugins strings   admission plugins to disable
      --service-cluster-ip-range string CIDR for Service cluster IPs (default 10.0.0.0/24)
      --service-node-port-range portRange   NodePort range (default 30000-32767)
      --feature-gates mapStringBool     accepted and validated
  -h, --help                            show this help
      --version                         print the version and exit

Accepted and ignored (they have no meaning for this server):
)";
  for (const IgnoredFlag* f = IgnoredFlagsBegin(); f != IgnoredFlagsEnd(); ++f) {
    out += "      --" + std::string(f->name);
    if (!f->note.empty()) out += "    (" + std::string(f->note) + ")";
    out += "\n";
  }
  return out;
}

Result<ParsedFlags> ParseFlags(int argc, const char* const* argv) {
  Parser p;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (!arg.starts_with("-") || arg == "-") {
      return FlagError("\"kube-apiserver\" does not take any arguments, got [\"" + std::string(arg) + "\"]");
    }
    // pflag: "--name", and the shorthands -h and -v.
    std::string_view body = arg.starts_with("--") ? arg.substr(2) : arg.substr(1);
    std::string name(body), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (!arg.starts_with("--")) {
      if (name == "h") name = "help";
      else if (name != "v") return FlagError("unknown shorthand flag: '" + name.substr(0, 1) + "' in " + std::string(arg));
    }
    if (name.empty()) return FlagError("bad flag syntax: " + std::string(arg));
    const IgnoredFlag* ignored = FindIgnoredFlag(name);
    static const char* kImplemented[] = {
        "bind-address", "advertise-address", "port", "secure-port", "kubeconfig-out", "data-dir", "load", "v",
        "tls-cert-file", "tls-private-key-file", "cert-dir", "client-ca-file", "token-auth-file", "anonymous-auth",
        "service-account-lookup", "service-account-key-file", "service-account-signing-key-file",
        "service-account-issuer", "api-audiences", "service-account-max-token-expiration", "authorization-mode",
        "runtime-config", "service-cluster-ip-range", "service-node-port-range", "enable-admission-plugins",
        "disable-admission-plugins", "feature-gates", "help", "version"};
    bool known = ignored != nullptr;
    for (const char* k : kImplemented) known = known || name == k;
    if (!known) return FlagError("unknown flag: " + std::string(arg.substr(0, arg.find('='))));
    if (!has_value) {
      if (IsBoolFlag(name)) {
        // pflag takes "--flag" alone as true; "--flag false" is accepted here too.
        if (i + 1 < argc && LooksLikeBool(argv[i + 1])) value = argv[++i];
        else value = "true";
      } else {
        if (i + 1 >= argc) return FlagError("flag needs an argument: " + std::string(arg));
        value = argv[++i];
      }
    }
    if (name == "help" || name == "version") {
      auto b = ParseBool(name, value);
      // --version=raw prints the version as JSON in kube; any other value is the plain form.
      const bool on = b.ok() ? *b : true;
      (name == "help" ? p.parsed.help : p.parsed.version) = on;
      if (name == "version" && value == "raw") p.parsed.version_raw = true;
      continue;
    }
    if (ignored != nullptr) {
      if (ignored->is_bool) {
        if (auto b = ParseBool(name, value); !b.ok()) return b.status();
      }
      p.o.ignored_flags.push_back("--" + name + "=" + value);
      continue;
    }
    auto applied = p.Apply(name, value);
    if (!applied.ok()) return applied.status();
  }
  ServerOptions& o = p.o;
  auto modes = auth::ParseAuthorizationModes([&] {
    std::string joined;
    for (const auto& m : o.authorization_modes) joined += (joined.empty() ? "" : ",") + m;
    return joined;
  }());
  if (!modes.ok()) return modes.status();
  o.authorization_modes = *modes;
  if (o.tls_cert_file.empty() != o.tls_private_key_file.empty()) {
    return FlagError("--tls-cert-file and --tls-private-key-file must both be given, or neither");
  }
  if (!o.service_account_signing_key_file.empty() && o.service_account_issuers.empty()) {
    return FlagError("service-account-issuer is a required flag when --service-account-signing-key-file is given");
  }
  for (const auto& [key, value] : o.runtime_config) {
    if (auto b = ParseBool("runtime-config", value); !b.ok()) {
      return FlagError("invalid value of " + key + ": " + value + ", err: strconv.ParseBool: parsing \"" + value +
                       "\": invalid syntax");
    }
  }
  p.parsed.run_error = SetFeatureGates(o.feature_gate_values, o.feature_gates);
  return p.parsed;
}

}  // namespace kube::server
