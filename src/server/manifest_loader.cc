#include "server/manifest_loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "server/http_server.h"
#include "yaml/yaml.h"

namespace kube::server {

namespace {

namespace fs = std::filesystem;

bool HasManifestExtension(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

Status ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("the path \"" + path + "\" does not exist or cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  return Status::OK();
}

// kubectl's YAML reader splits on lines that start with "---" followed by nothing or blanks.
std::vector<std::string> SplitYamlDocuments(const std::string& text) {
  std::vector<std::string> docs(1);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + pos, end - pos);
    const bool separator = line.starts_with("---") &&
                           line.find_first_not_of(" \t\r", 3) == std::string_view::npos;
    if (separator) {
      docs.emplace_back();
    } else {
      docs.back().append(line);
      docs.back().push_back('\n');
    }
    pos = end + 1;
  }
  return docs;
}

std::string Place(const std::string& file, int document, int item) {
  std::string s = "\"" + file + "\" (document " + std::to_string(document);
  if (item >= 0) s += ", items[" + std::to_string(item) + "]";
  return s + ")";
}

Status CheckObject(const nlohmann::json& obj, const std::string& where) {
  // kube's decoder words for an object without its type.
  if (!obj.is_object()) return Status::BadRequest(where + ": a manifest document must be an object");
  if (!obj.contains("kind") || !obj["kind"].is_string() || obj["kind"].get<std::string>().empty()) {
    return Status::BadRequest(where + ": Object 'Kind' is missing in '" + obj.dump() + "'");
  }
  if (!obj.contains("apiVersion") || !obj["apiVersion"].is_string() ||
      obj["apiVersion"].get<std::string>().empty()) {
    return Status::BadRequest(where + ": Object 'apiVersion' is missing in '" + obj.dump() + "'");
  }
  return Status::OK();
}

// Adds the document's object, or a List's items, to `out`.
Status AddDocument(const std::string& file, int document, nlohmann::json obj, std::vector<Manifest>* out) {
  const std::string where = Place(file, document, -1);
  KUBE_RETURN_IF_ERROR(CheckObject(obj, where));
  const std::string kind = obj["kind"].get<std::string>();
  if (kind.ends_with("List") && obj.contains("items") && obj["items"].is_array()) {
    int i = 0;
    for (auto& item : obj["items"]) {
      KUBE_RETURN_IF_ERROR(CheckObject(item, Place(file, document, i)));
      out->push_back({file, document, i, std::move(item)});
      ++i;
    }
    return Status::OK();
  }
  out->push_back({file, document, -1, std::move(obj)});
  return Status::OK();
}

Status ReadOneFile(const std::string& file, std::vector<Manifest>* out) {
  std::string text;
  KUBE_RETURN_IF_ERROR(ReadFile(file, &text));
  if (fs::path(file).extension() == ".json") {
    auto obj = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (obj.is_discarded()) return Status::BadRequest(Place(file, 1, -1) + ": invalid JSON");
    return AddDocument(file, 1, std::move(obj), out);
  }
  int document = 0;
  for (const std::string& doc : SplitYamlDocuments(text)) {
    auto obj = yaml::YamlToJsonStrict(doc);
    if (!obj.ok()) return Status::BadRequest(Place(file, document + 1, -1) + ": " + obj.status().message());
    if (obj->is_null()) continue;  // empty document, or comments only
    ++document;
    KUBE_RETURN_IF_ERROR(AddDocument(file, document, std::move(*obj), out));
  }
  return Status::OK();
}

struct Target {
  std::string group, version, kind, resource;
  bool namespaced = false;
};

Result<Target> Resolve(registry::ApiRegistry& registry, const nlohmann::json& obj) {
  const std::string api_version = obj["apiVersion"].get<std::string>();
  const std::string kind = obj["kind"].get<std::string>();
  Target t;
  t.kind = kind;
  if (auto slash = api_version.find('/'); slash != std::string::npos) {
    t.group = api_version.substr(0, slash);
    t.version = api_version.substr(slash + 1);
  } else {
    t.version = api_version;
  }
  if (const catalogue::ResourceInfo* info = registry.catalogue().FindByKind(t.group, t.version, kind)) {
    t.resource = info->resource;
    t.namespaced = info->namespaced;
    return t;
  }
  for (const auto& info : registry.CustomResources()->resources) {
    if (info.group == t.group && info.version == t.version && info.kind == kind) {
      t.resource = info.resource;
      t.namespaced = info.namespaced;
      return t;
    }
  }
  // kubectl's RESTMapper words.
  return Status::NotFound("no matches for kind \"" + kind + "\" in version \"" + api_version + "\"");
}

bool IsCrd(const Manifest& m) {
  return m.object["kind"] == "CustomResourceDefinition" &&
         m.object["apiVersion"].get<std::string>().starts_with("apiextensions.k8s.io/");
}
bool IsNamespace(const Manifest& m) { return m.object["kind"] == "Namespace" && m.object["apiVersion"] == "v1"; }

// The condition `type` of a CRD's status, or null.
const nlohmann::json* Condition(const nlohmann::json& crd, std::string_view type) {
  const auto status = crd.find("status");
  if (status == crd.end() || !status->contains("conditions") || !(*status)["conditions"].is_array()) return nullptr;
  for (const auto& c : (*status)["conditions"]) {
    if (c.is_object() && c.value("type", "") == type) return &c;
  }
  return nullptr;
}

// Waits until the CRD `name` is Established and every served version of it is in the registry.
Status WaitEstablished(registry::ApiRegistry& registry, const Manifest& m, const std::string& name,
                       std::chrono::milliseconds timeout) {
  registry::StorePtr crds = registry.Find("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  if (crds == nullptr) return Status::Internal("customresourcedefinitions are not served");
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string last = "not established yet";
  for (;;) {
    auto crd = crds->Get("", name, {});
    if (crd.ok()) {
      const nlohmann::json& obj = **crd;
      const nlohmann::json* established = Condition(obj, "Established");
      const nlohmann::json* accepted = Condition(obj, "NamesAccepted");
      if (accepted != nullptr && accepted->value("status", "") == "False") {
        return Status::Invalid(m.Where() + ": CustomResourceDefinition \"" + name +
                               "\" names are not accepted: " + accepted->value("message", ""));
      }
      bool served = established != nullptr && established->value("status", "") == "True";
      const auto& spec = obj["spec"];
      if (served && spec.contains("versions") && spec["versions"].is_array()) {
        for (const auto& v : spec["versions"]) {
          if (v.value("served", false) &&
              registry.Find(spec.value("group", ""), v.value("name", ""), spec["names"].value("plural", "")) ==
                  nullptr) {
            served = false;
          }
        }
      }
      if (served) return Status::OK();
      if (established != nullptr) last = established->value("message", last);
    } else {
      last = crd.status().message();
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status::Internal(m.Where() + ": CustomResourceDefinition \"" + name + "\" was not established within " +
                              std::to_string(timeout.count()) + " ms: " + last);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// Creates one object; true when created, false when it already existed.
Result<bool> CreateOne(endpoints::ApiServer& api, registry::ApiRegistry& registry, const Manifest& m) {
  auto target = Resolve(registry, m.object);
  if (!target.ok()) return Status(target.status().code(), m.Where() + ": " + target.status().message());
  std::string path = target->group.empty() ? "/api/" + target->version
                                           : "/apis/" + target->group + "/" + target->version;
  if (target->namespaced) {
    std::string ns = "default";  // kubectl's namespace for objects that name none
    if (m.object.contains("metadata") && m.object["metadata"].is_object()) {
      const auto& meta = m.object["metadata"];
      if (meta.contains("namespace") && meta["namespace"].is_string() && !meta["namespace"].get<std::string>().empty()) {
        ns = meta["namespace"].get<std::string>();
      }
    }
    path += "/namespaces/" + ns;
  }
  path += "/" + target->resource;

  endpoints::HttpRequest request;
  request.method = "POST";
  request.path = path;
  // As `kubectl create` sends it: unknown or duplicate fields are errors.
  request.raw_query = "fieldManager=kube-apiserver-lite&fieldValidation=Strict";
  request.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  request.body = m.object.dump();
  request.remote_addr = "127.0.0.1";
  // The admin, as on the plain-HTTP port: system:masters, so no authorization mode refuses it.
  request.user = InsecurePortUser();
  endpoints::HttpResponse response = api.Handle(request);
  if (response.status < 300) return true;
  auto body = nlohmann::json::parse(response.body, nullptr, false);
  const std::string reason = body.is_object() ? body.value("reason", "") : "";
  if (response.status == 409 && reason == "AlreadyExists") return false;
  std::string message = body.is_object() ? body.value("message", response.body) : response.body;
  if (!reason.empty()) message = "Error from server (" + reason + "): " + message;
  return Status(response.status == 422 ? StatusCode::kInvalid : StatusCode::kBadRequest,
                "error when creating " + m.Where() + ": " + message);
}

}  // namespace

std::string Manifest::Where() const { return Place(file, document, item); }

Result<std::vector<Manifest>> ReadManifests(const std::vector<std::string>& paths) {
  std::vector<Manifest> out;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> files;
      for (const auto& entry : fs::directory_iterator(path, ec)) {
        if (entry.is_regular_file() && HasManifestExtension(entry.path())) files.push_back(entry.path().string());
      }
      if (ec) return Status::BadRequest("cannot read directory \"" + path + "\": " + ec.message());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) KUBE_RETURN_IF_ERROR(ReadOneFile(f, &out));
    } else {
      KUBE_RETURN_IF_ERROR(ReadOneFile(path, &out));
    }
  }
  return out;
}

void OrderForCreation(std::vector<Manifest>* manifests) {
  auto rank = [](const Manifest& m) { return IsCrd(m) ? 0 : IsNamespace(m) ? 1 : 2; };
  std::stable_sort(manifests->begin(), manifests->end(),
                   [&](const Manifest& a, const Manifest& b) { return rank(a) < rank(b); });
}

Result<LoadSummary> CreateManifests(endpoints::ApiServer& api, registry::ApiRegistry& registry,
                                    std::vector<Manifest> manifests, const LoadOptions& options) {
  OrderForCreation(&manifests);
  LoadSummary summary;
  std::vector<const Manifest*> crds;  // created or found, not yet waited for
  auto wait_for_crds = [&]() -> Status {
    for (const Manifest* crd : crds) {
      const auto& meta = crd->object.contains("metadata") ? crd->object["metadata"] : nlohmann::json::object();
      KUBE_RETURN_IF_ERROR(WaitEstablished(registry, *crd, meta.value("name", ""), options.crd_timeout));
    }
    crds.clear();
    return Status::OK();
  };
  for (const Manifest& m : manifests) {
    // Every CRD served before the first object that may be one of its resources.
    if (!IsCrd(m)) KUBE_RETURN_IF_ERROR(wait_for_crds());
    auto created = CreateOne(api, registry, m);
    if (!created.ok()) return created.status();
    ++(*created ? summary.created : summary.unchanged);
    if (IsCrd(m)) crds.push_back(&m);
  }
  KUBE_RETURN_IF_ERROR(wait_for_crds());
  return summary;
}

Result<LoadSummary> LoadManifests(endpoints::ApiServer& api, registry::ApiRegistry& registry,
                                  const std::vector<std::string>& paths, const LoadOptions& options) {
  auto manifests = ReadManifests(paths);
  if (!manifests.ok()) return manifests.status();
  return CreateManifests(api, registry, std::move(*manifests), options);
}

}  // namespace kube::server
