#include "apiextensions/crd_defaults.h"

#include <cctype>
#include <string>

#include "apiextensions/crd_internal.h"

namespace kube::apiextensions {

using namespace json_access;

namespace {

// The object member `key`, created as {} when absent or null; nullptr when it holds another type.
nlohmann::json* Child(nlohmann::json* obj, const char* key) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  nlohmann::json& v = (*obj)[key];
  if (v.is_null()) v = nlohmann::json::object();
  return v.is_object() ? &v : nullptr;
}

std::string StorageVersion(const nlohmann::json& crd) {
  if (const nlohmann::json* versions = Arr(Obj(&crd, "spec"), "versions")) {
    for (const auto& v : *versions) {
      if (Bool(&v, "storage")) return Str(&v, "name");
    }
  }
  return "";
}

bool HasStorageVersionRecorded(const nlohmann::json& crd, const std::string& version) {
  for (const auto& v : Strings(Obj(&crd, "status"), "storedVersions")) {
    if (v == version) return true;
  }
  return false;
}

// Appends the storage version to status.storedVersions unless it is already there.
void RecordStorageVersion(nlohmann::json* crd) {
  const nlohmann::json* versions = Arr(Obj(crd, "spec"), "versions");
  if (versions == nullptr) return;
  for (const auto& v : *versions) {
    if (!Bool(&v, "storage")) continue;
    const std::string name = Str(&v, "name");
    if (!HasStorageVersionRecorded(*crd, name)) {
      nlohmann::json* status = Child(crd, "status");
      if (status == nullptr) return;
      nlohmann::json& stored = (*status)["storedVersions"];
      if (!stored.is_array()) stored = nlohmann::json::array();
      stored.push_back(name);
    }
    return;
  }
}

int64_t Generation(const nlohmann::json& crd) {
  const nlohmann::json* g = Get(Obj(&crd, "metadata"), "generation");
  return g != nullptr && g->is_number_integer() ? g->get<int64_t>() : 0;
}

}  // namespace

void SetDefaults(nlohmann::json* crd) {
  nlohmann::json* spec = Child(crd, "spec");
  if (spec == nullptr) return;
  if (nlohmann::json* names = Child(spec, "names")) {
    const std::string kind = Str(names, "kind");
    if (Str(names, "singular").empty() && !kind.empty()) {
      std::string singular = kind;
      for (char& c : singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      (*names)["singular"] = singular;
    }
    if (Str(names, "listKind").empty() && !kind.empty()) (*names)["listKind"] = kind + "List";
  }
  if (Get(spec, "conversion") == nullptr) {
    (*spec)["conversion"] = {{"strategy", "None"}};
  } else if (nlohmann::json* conversion = Child(spec, "conversion")) {
    nlohmann::json* webhook = conversion->contains("webhook") ? Child(conversion, "webhook") : nullptr;
    nlohmann::json* config = webhook && webhook->contains("clientConfig") ? Child(webhook, "clientConfig") : nullptr;
    nlohmann::json* service = config && config->contains("service") ? Child(config, "service") : nullptr;
    if (service != nullptr && Get(service, "port") == nullptr) (*service)["port"] = 443;
  }
  if (Strings(Obj(crd, "status"), "storedVersions").empty()) {
    const std::string storage = StorageVersion(*crd);
    if (!storage.empty()) {
      if (nlohmann::json* status = Child(crd, "status")) (*status)["storedVersions"] = nlohmann::json::array({storage});
    }
  }
}

void PrepareForCreate(nlohmann::json* crd) {
  if (!crd->is_object()) return;
  (*crd)["status"] = {{"acceptedNames", {{"plural", ""}, {"kind", ""}}}, {"storedVersions", nullptr}};
  RecordStorageVersion(crd);
  if (nlohmann::json* meta = Child(crd, "metadata")) (*meta)["generation"] = 1;
}

void PrepareForUpdate(nlohmann::json* crd, const nlohmann::json& old_crd) {
  if (!crd->is_object()) return;
  const nlohmann::json* old_status = Get(&old_crd, "status");
  if (old_status != nullptr) {
    (*crd)["status"] = *old_status;
  } else {
    crd->erase("status");
  }
  const nlohmann::json* spec = Get(crd, "spec");
  const nlohmann::json* old_spec = Get(&old_crd, "spec");
  const bool spec_changed = (spec == nullptr) != (old_spec == nullptr) || (spec != nullptr && *spec != *old_spec);
  if (nlohmann::json* meta = Child(crd, "metadata")) {
    (*meta)["generation"] = spec_changed ? Generation(old_crd) + 1 : Generation(old_crd);
  }
  RecordStorageVersion(crd);
}

void PrepareForStatusUpdate(nlohmann::json* crd, const nlohmann::json& old_crd) {
  if (!crd->is_object()) return;
  if (const nlohmann::json* old_spec = Get(&old_crd, "spec")) {
    (*crd)["spec"] = *old_spec;
  } else {
    crd->erase("spec");
  }
}

}  // namespace kube::apiextensions
