#include "server/manifest_loader.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "server/server_instance.h"

namespace kube::server {
namespace {

namespace fs = std::filesystem;

const std::string kTestdata = KUBE_TESTDATA_DIR;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("manifest_loader_test." + std::to_string(::getpid()) + "." +
                                               std::to_string(reinterpret_cast<uintptr_t>(this)));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string Write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

std::string Names(const std::vector<Manifest>& ms) {
  std::string out;
  for (const auto& m : ms) out += (out.empty() ? "" : " ") + m.object["kind"].get<std::string>() + "/" +
                                  m.object["metadata"]["name"].get<std::string>();
  return out;
}

TEST_CASE("ReadManifests splits documents, skips empty ones and expands Lists") {
  TempDir dir;
  const std::string file = dir.Write("a.yaml",
                                     "---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\n"
                                     "--- # trailing comment on the separator\n\n---\n"
                                     "apiVersion: v1\nkind: List\nitems:\n"
                                     "- {apiVersion: v1, kind: Secret, metadata: {name: two}}\n"
                                     "- {apiVersion: v1, kind: Secret, metadata: {name: three}}\n");
  auto ms = ReadManifests({file});
  REQUIRE(ms.ok());
  CHECK(Names(*ms) == "ConfigMap/one Secret/two Secret/three");
  CHECK((*ms)[0].document == 1);
  CHECK((*ms)[0].item == -1);
  CHECK((*ms)[2].document == 2);
  CHECK((*ms)[2].item == 1);
  CHECK((*ms)[2].Where() == "\"" + file + "\" (document 2, items[1])");
}

TEST_CASE("ReadManifests reads a directory's manifests in name order without descending") {
  TempDir dir;
  dir.Write("b.json", R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}})");
  dir.Write("a.yml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
  dir.Write("c.txt", "not a manifest");
  dir.Write("sub/d.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n");
  auto ms = ReadManifests({dir.path.string()});
  REQUIRE(ms.ok());
  CHECK(Names(*ms) == "ConfigMap/a ConfigMap/b");
}

TEST_CASE("ReadManifests names the file and document of what it cannot read") {
  TempDir dir;
  const std::string bad = kTestdata + "/preload-invalid/bad-yaml.yaml";
  auto ms = ReadManifests({bad});
  REQUIRE(!ms.ok());
  CHECK(ms.status().message().starts_with("\"" + bad + "\" (document 2): error converting YAML to JSON"));

  auto missing = ReadManifests({kTestdata + "/preload-invalid/missing-kind.json"});
  REQUIRE(!missing.ok());
  CHECK(missing.status().message().find("(document 1): Object 'Kind' is missing in") != std::string::npos);

  auto absent = ReadManifests({dir.path.string() + "/nope.yaml"});
  REQUIRE(!absent.ok());
  CHECK(absent.status().code() == StatusCode::kNotFound);

  const std::string scalar = dir.Write("scalar.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n42\n");
  auto s = ReadManifests({scalar});
  REQUIRE(!s.ok());
  CHECK(s.status().message() == "\"" + scalar + "\" (document 2): a manifest document must be an object");
}

TEST_CASE("OrderForCreation puts CRDs, then namespaces, then the rest, keeping reading order") {
  auto ms = ReadManifests({kTestdata + "/preload/canary-bundle.yaml"});
  REQUIRE(ms.ok());
  CHECK(Names(*ms) ==
        "Canary/api Canary/web ConfigMap/canary-analysis Namespace/fleet-canary "
        "CustomResourceDefinition/canaries.deploy.fleet.example.com");
  OrderForCreation(&*ms);
  CHECK(Names(*ms) ==
        "CustomResourceDefinition/canaries.deploy.fleet.example.com Namespace/fleet-canary "
        "Canary/api Canary/web ConfigMap/canary-analysis");
}

ServerInstance::Config PlainServer(std::vector<std::string> load) {
  ServerInstance::Config config;
  config.options.port = 0;
  config.options.load = std::move(load);
  return config;
}

TEST_CASE("--load creates every testdata object before the server serves, and a second load changes nothing") {
  const std::vector<std::string> paths = {kTestdata + "/crds", kTestdata + "/resources", kTestdata + "/operator",
                                          kTestdata + "/preload"};
  auto read = ReadManifests(paths);
  REQUIRE(read.ok());
  ServerInstance server(PlainServer(paths));
  REQUIRE(server.Start().ok());
  CHECK(!server.plain_url().empty());
  CHECK(server.loaded_objects() == read->size());
  auto again = server.LoadManifests(paths);
  REQUIRE(again.ok());
  CHECK(again->created == 0);
  CHECK(again->unchanged == read->size());
  CHECK(server.StartSummary().find("loadedObjects=" + std::to_string(read->size())) != std::string::npos);
  CHECK(server.StartSummary().find("store=\"in-memory\"") != std::string::npos);
}

TEST_CASE("a refused manifest stops the start with its file, document and kube's error") {
  SUBCASE("Invalid custom resource") {
    const std::string bad = kTestdata + "/preload-invalid/bad-resource.yaml";
    ServerInstance server(PlainServer({kTestdata + "/crds", bad}));
    REQUIRE(!server.Start().ok());
    CHECK(server.start_error().find("error when creating \"" + bad + "\" (document 2): Error from server (Invalid): ") ==
          0);
    CHECK(server.start_error().find("spec.concurrencyPolicy: Unsupported value: \"Sometimes\"") != std::string::npos);
    CHECK(server.plain_url().empty());
  }
  SUBCASE("unknown field under strict validation") {
    const std::string bad = kTestdata + "/preload-invalid/unknown-field.yaml";
    ServerInstance server(PlainServer({bad}));
    REQUIRE(!server.Start().ok());
    CHECK(server.start_error().find("(document 1): Error from server (BadRequest): ") != std::string::npos);
    CHECK(server.start_error().find("unknown field \"dataa\"") != std::string::npos);
  }
  SUBCASE("unknown kind") {
    const std::string bad = kTestdata + "/preload-invalid/unknown-kind.yaml";
    ServerInstance server(PlainServer({bad}));
    REQUIRE(!server.Start().ok());
    CHECK(server.start_error() == "\"" + bad +
                                      "\" (document 1): no matches for kind \"Gizmo\" in version \"gizmos.example.com/v1\"");
  }
}

}  // namespace
}  // namespace kube::server
