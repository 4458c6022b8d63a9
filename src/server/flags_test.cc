#include "server/flags.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/feature_gates.h"
#include "server/kubeconfig.h"

namespace kube::server {

TEST_CASE("flags: --load is repeatable, in order, in both forms") {
  const char* argv[] = {"bin", "--load", "testdata/crds", "--load=testdata/resources", "--load", "x.yaml"};
  auto f = ParseFlags(6, argv);
  REQUIRE(f.ok());
  CHECK(f->options.load == std::vector<std::string>{"testdata/crds", "testdata/resources", "x.yaml"});
  const char* missing[] = {"bin", "--load"};
  CHECK(ParseFlags(2, missing).status().message() == "flag needs an argument: --load");
  CHECK(Usage("bin").find("--load stringArray") != std::string::npos);
}

TEST_CASE("flags: kube-apiserver names, both forms, clear errors") {
  const char* argv[] = {"bin", "--port", "0", "--bind-address=127.0.0.2", "--kubeconfig-out", "/tmp/k",
                        "--data-dir=/tmp/d", "-v", "2"};
  auto f = ParseFlags(9, argv);
  REQUIRE(f.ok());
  CHECK(f->options.port == 0);
  CHECK(f->options.bind_address == "127.0.0.2");
  CHECK(f->options.kubeconfig_out == "/tmp/k");
  CHECK(f->options.data_dir == "/tmp/d");
  CHECK(f->options.verbosity == 2);
  const char* bad[] = {"bin", "--port", "x"};
  CHECK_FALSE(ParseFlags(3, bad).ok());
  const char* unknown[] = {"bin", "--frobnicate"};
  CHECK(ParseFlags(2, unknown).status().message() == "unknown flag: --frobnicate");
  const char* missing[] = {"bin", "--port"};
  CHECK_FALSE(ParseFlags(2, missing).ok());
  const char* help[] = {"bin", "--help"};
  CHECK(ParseFlags(2, help)->help);
  CHECK(Usage("bin").find("--kubeconfig-out") != std::string::npos);
}

TEST_CASE("flags: envtest's kube-apiserver command line parses, ignored flags are collected") {
  const char* argv[] = {"kube-apiserver", "--advertise-address=127.0.0.1", "--allow-privileged=true",
                        "--authorization-mode=RBAC", "--bind-address=127.0.0.1", "--cert-dir=/tmp/c",
                        "--client-ca-file=/tmp/c/client-cert-auth-ca.crt", "--disable-admission-plugins=ServiceAccount",
                        "--enable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook",
                        "--etcd-servers=http://127.0.0.1:2379", "--feature-gates=DynamicResourceAllocation=true",
                        "--max-requests-inflight=400", "--secure-port=6444",
                        "--service-account-issuer=https://127.0.0.1:6444/", "--service-account-key-file=/tmp/c/sa.crt",
                        "--service-account-signing-key-file=/tmp/c/sa.key", "--service-cluster-ip-range=10.0.0.0/24",
                        "--token-auth-file=/tmp/t.csv", "--v=6"};
  auto f = ParseFlags(static_cast<int>(std::size(argv)), argv);
  REQUIRE(f.ok());
  const ServerOptions& o = f->options;
  CHECK(o.secure_port == 6444);
  CHECK(o.secure_port_set);
  CHECK(o.port == -1);
  CHECK(o.authorization_modes == std::vector<std::string>{"RBAC"});
  CHECK(o.client_ca_file == "/tmp/c/client-cert-auth-ca.crt");
  CHECK(o.service_account_issuers == std::vector<std::string>{"https://127.0.0.1:6444/"});
  CHECK(o.service_account_key_files == std::vector<std::string>{"/tmp/c/sa.crt"});
  CHECK(o.enable_admission_plugins == std::vector<std::string>{"MutatingAdmissionWebhook", "ValidatingAdmissionWebhook"});
  CHECK(o.disable_admission_plugins == std::vector<std::string>{"ServiceAccount"});
  CHECK(o.feature_gates.at("DynamicResourceAllocation"));
  CHECK(o.verbosity == 6);
  CHECK(o.ignored_flags == std::vector<std::string>{"--allow-privileged=true", "--etcd-servers=http://127.0.0.1:2379",
                                                    "--max-requests-inflight=400"});
}

TEST_CASE("flags: --k v and --k=v for every kind, bools alone, pflag's errors") {
  const char* spaced[] = {"bin", "--secure-port", "0", "--authorization-mode", "Node,RBAC", "--anonymous-auth", "false",
                          "--api-audiences", "a,b", "--api-audiences=c", "--service-account-issuer", "i1",
                          "--service-account-issuer=i2", "--runtime-config", "api/all=false,batch/v1=true,apps/v1",
                          "--service-node-port-range", "30000-30100", "--etcd-servers", "http://x", "--profiling",
                          "--service-account-max-token-expiration", "1h30m"};
  auto f = ParseFlags(static_cast<int>(std::size(spaced)), spaced);
  REQUIRE(f.ok());
  CHECK(f->options.secure_port == 0);
  CHECK(f->options.authorization_modes == std::vector<std::string>{"Node", "RBAC"});
  CHECK_FALSE(f->options.anonymous_auth);
  CHECK(f->options.api_audiences == std::vector<std::string>{"a", "b", "c"});
  CHECK(f->options.service_account_issuers == std::vector<std::string>{"i1", "i2"});
  CHECK(f->options.runtime_config.size() == 3);
  CHECK(f->options.runtime_config[2] == std::make_pair(std::string("apps/v1"), std::string("true")));
  CHECK(f->options.node_port_max == 30100);
  CHECK(f->options.service_account_max_token_expiration == 5400);
  CHECK(f->options.ignored_flags == std::vector<std::string>{"--etcd-servers=http://x", "--profiling=true"});

  auto error = [](std::vector<const char*> args) {
    args.insert(args.begin(), "bin");
    return ParseFlags(static_cast<int>(args.size()), args.data()).status().message();
  };
  CHECK(error({"--insecure-port=0"}) == "unknown flag: --insecure-port");
  CHECK(error({"--etcd-servers"}) == "flag needs an argument: --etcd-servers");
  CHECK(error({"--anonymous-auth=maybe"}) ==
        "invalid argument \"maybe\" for \"--anonymous-auth\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax");
  CHECK(error({"--authorization-mode=Magic"}) ==
        "authorization-mode \"Magic\" is not a valid mode (AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node)");
  CHECK(error({"--enable-admission-plugins=Bogus"}) == "enable-admission-plugins plugin \"Bogus\" is unknown");
  CHECK(error({"--service-cluster-ip-range=10.0.0.0/99"}).starts_with("invalid argument \"10.0.0.0/99\""));
  CHECK(error({"--bind-address=localhost"}).starts_with("invalid argument \"localhost\" for \"--bind-address\""));
  CHECK(error({"--tls-cert-file=/x"}) == "--tls-cert-file and --tls-private-key-file must both be given, or neither");
  CHECK(error({"stray"}) == "\"kube-apiserver\" does not take any arguments, got [\"stray\"]");
  CHECK(error({"--runtime-config=batch/v1=maybe"}).starts_with("invalid value of batch/v1: maybe"));

  const char* version[] = {"bin", "--version"};
  CHECK(ParseFlags(2, version)->version);
}

TEST_CASE("flags: --feature-gates checked against kube 1.36's gates, with kube's errors") {
  auto run_error = [](std::vector<const char*> argv) {
    argv.insert(argv.begin(), "bin");
    auto f = ParseFlags(static_cast<int>(argv.size()), argv.data());
    REQUIRE(f.ok());
    return f->run_error.message();
  };
  // Known gates, in both flags and with the "kube:" component; a locked gate at its default.
  const char* ok[] = {"bin", "--feature-gates=WatchList=false,AllAlpha=true", "--feature-gates", "kube:AllBeta=false",
                      "--feature-gates=DynamicResourceAllocation=true"};
  auto f = ParseFlags(5, ok);
  REQUIRE(f.ok());
  CHECK(f->run_error.ok());
  CHECK(f->options.feature_gates == std::map<std::string, bool>{
                                       {"AllAlpha", true}, {"AllBeta", false}, {"DynamicResourceAllocation", true},
                                       {"WatchList", false}});
  // Removed in 1.33 (the gates envtest users still append): kube refuses to start.
  CHECK(run_error({"--feature-gates=AggregatedDiscoveryEndpoint=false"}) ==
        "unrecognized feature gate: AggregatedDiscoveryEndpoint");
  CHECK(run_error({"--feature-gates=DynamicResourceAllocation=false"}) ==
        "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true");
  CHECK(run_error({"--feature-gates=WatchList=maybe"}) ==
        "invalid value of WatchList=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax");
  CHECK(run_error({"--feature-gates=wardle:X=true"}) == "component not registered: wardle");
  // A pair without "=" is pflag's error while parsing.
  const char* malformed[] = {"bin", "--feature-gates=WatchList"};
  CHECK(ParseFlags(2, malformed).status().message() ==
        "invalid argument \"WatchList\" for \"--feature-gates\" flag: malformed pair, expect string=string");
  CHECK(FindFeatureGate("AllAlpha") != nullptr);
  CHECK(KnownFeatureGates().size() > 200);
}

TEST_CASE("flags: --help lists the flags and never --insecure-port") {
  const std::string usage = Usage("kube-apiserver");
  CHECK(usage.find("--insecure-port") == std::string::npos);
  for (const char* flag : {"--secure-port", "--client-ca-file", "--token-auth-file", "--authorization-mode",
                           "--etcd-servers", "--allow-privileged", "--service-account-signing-key-file"}) {
    CHECK_MESSAGE(usage.find(flag) != std::string::npos, flag);
  }
}

TEST_CASE("kubeconfig: written atomically with the server URL") {
  auto path = std::filesystem::temp_directory_path() / "kal-kubeconfig-test";
  REQUIRE(WriteKubeconfig(path.string(), "http://127.0.0.1:1234").ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("server: http://127.0.0.1:1234") != std::string::npos);
  CHECK(text.str().find("current-context: kube-apiserver-lite") != std::string::npos);
  CHECK(text.str().find("insecure-skip-tls-verify: true") != std::string::npos);
  REQUIRE(WriteKubeconfig(path.string(), "https://127.0.0.1:1", {"CA", "CERT", "KEY"}).ok());
  std::ifstream secure(path);
  std::stringstream secure_text;
  secure_text << secure.rdbuf();
  CHECK(secure_text.str().find("certificate-authority-data: Q0E=") != std::string::npos);
  CHECK(secure_text.str().find("client-certificate-data: Q0VSVA==") != std::string::npos);
  CHECK(secure_text.str().find("client-key-data: S0VZ") != std::string::npos);
  CHECK(secure_text.str().find("insecure-skip-tls-verify") == std::string::npos);
  std::filesystem::remove(path);
  CHECK_FALSE(WriteKubeconfig("/nonexistent-dir/x/kubeconfig", "http://x").ok());
}

}  // namespace kube::server
