#include "server/flags.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/kubeconfig.h"

namespace kube::server {

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

TEST_CASE("kubeconfig: written atomically with the server URL") {
  auto path = std::filesystem::temp_directory_path() / "kal-kubeconfig-test";
  REQUIRE(WriteKubeconfig(path.string(), "http://127.0.0.1:1234").ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("server: http://127.0.0.1:1234") != std::string::npos);
  CHECK(text.str().find("current-context: kube-apiserver-lite") != std::string::npos);
  std::filesystem::remove(path);
  CHECK_FALSE(WriteKubeconfig("/nonexistent-dir/x/kubeconfig", "http://x").ok());
}

}  // namespace kube::server
