// registry::Store: keys, reads, watches and create.
#include "registry/store.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <random>

#include "conversion/conversion.h"
#include "registry/defaults.h"
#include "registry/errors.h"
#include "registry/namespace_lifecycle.h"
#include "storage/object_codec.h"
#include "util/strings.h"
#include "util/uuid.h"

namespace kube::registry {

using storage::Object;
using storage::ObjectPtr;

namespace {

constexpr int kGenerateNameAttempts = 8;

std::string RandomSuffix() {
  // kube's generateName alphabet (no vowels, no confusable characters), five characters.
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::string out;
  for (int i = 0; i < 5; ++i) out.push_back(kAlphabet[rng() % kAlphabet.size()]);
  return out;
}

// kube's QoS class: Guaranteed when every container limits and requests cpu and memory equally,
// BestEffort when none requests or limits anything, Burstable otherwise.
std::string PodQosClass(const Object& pod) {
  bool any = false, guaranteed = true;
  for (const char* list : {"initContainers", "containers"}) {
    const Object& spec = pod.contains("spec") ? pod["spec"] : Object();
    if (!spec.is_object() || !spec.contains(list) || !spec[list].is_array()) continue;
    for (const auto& c : spec[list]) {
      const Object& res = c.is_object() && c.contains("resources") ? c["resources"] : Object();
      const Object& req = res.is_object() && res.contains("requests") ? res["requests"] : Object();
      const Object& lim = res.is_object() && res.contains("limits") ? res["limits"] : Object();
      if ((req.is_object() && !req.empty()) || (lim.is_object() && !lim.empty())) any = true;
      for (const char* r : {"cpu", "memory"}) {
        if (!lim.is_object() || !lim.contains(r) || !req.is_object() || !req.contains(r) || req[r] != lim[r]) {
          guaranteed = false;
        }
      }
    }
  }
  if (!any) return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}

}  // namespace

std::string NowRfc3339() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Store::Store(const catalogue::ResourceInfo& info, storage::Interface* storage,
             NamespaceLifecycle* namespaces, StoreConfig config)
    : info_(info),
      rules_(config.rules ? std::move(*config.rules) : RulesFor(info.group, info.resource)),
      attrs_(AttrsFor(rules_, info.namespaced)),
      storage_(storage),
      namespaces_(namespaces),
      strategy_(std::move(config.strategy)),
      schema_(config.schema),
      owner_(std::move(config.owner)),
      storage_api_version_(config.storage_api_version.empty() || rules_.custom_resource ? ApiVersion()
                                                                                          : config.storage_api_version) {
  if (!rules_.custom_resource) {
    // The kind's validation runs on the storage version: its group's validator (core Events
    // for events.k8s.io ones).
    const size_t slash = storage_api_version_.find('/');
    const std::string storage_group = slash == std::string::npos ? "" : storage_api_version_.substr(0, slash);
    kind_validator_ = validation::FindKindValidator(storage_group, info_.resource);
    invalid_group_ = storage_group;
    // kube validates an Event by the version it was written in: events.k8s.io adds strict rules
    // to the core legacy ones (its validator runs both), on that version's fields.
    if (storage_group != info_.group) {
      if (const auto* own = validation::FindKindValidator(info_.group, info_.resource)) {
        kind_validator_ = own;
        validate_in_request_version_ = true;
      }
    }
  } else {
    invalid_group_ = info_.group;
  }
  if (schema_ == nullptr) return;
  // What each write path resets, as this Store's update rules do: the main resource keeps the
  // current status when there is a status subresource, /status writes only status, /finalize
  // only the namespace's spec.finalizers.
  FieldManagerConfig main{.schema = schema_, .api_version = ApiVersion(), .kind = info_.kind};
  if (HasSubresource("status")) {
    main.reset_fields = {"status"};
    FieldManagerConfig status = main;
    status.subresource = "status";
    status.reset_fields.clear();
    status.kept_fields = {"status"};
    status_fields_ = std::make_unique<FieldManager>(std::move(status));
  }
  if (HasSubresource("finalize")) {
    FieldManagerConfig finalize = main;
    finalize.subresource = "finalize";
    finalize.reset_fields.clear();
    finalize.kept_fields = {"spec"};
    finalize_fields_ = std::make_unique<FieldManager>(std::move(finalize));
  }
  main_fields_ = std::make_unique<FieldManager>(std::move(main));
}

const FieldManager* Store::field_manager(std::string_view subresource) const {
  if (subresource.empty()) return main_fields_.get();
  if (subresource == "status") return status_fields_.get();
  if (subresource == "finalize") return finalize_fields_.get();
  return nullptr;
}

std::string Store::ApiVersion() const {
  return info_.group.empty() ? info_.version : info_.group + "/" + info_.version;
}

bool Store::HasSubresource(std::string_view name) const { return info_.FindSubresource(name) != nullptr; }

std::string Store::Key(std::string_view ns, std::string_view name) const {
  std::string key = info_.storage_prefix;
  if (info_.namespaced) key += "/" + std::string(ns);
  return key + "/" + std::string(name);
}

Result<std::string> Store::ObjectKey(std::string_view ns, std::string_view name) const {
  if (name.empty()) return Status::BadRequest("Name parameter required.");
  if (auto problems = PathSegmentNameProblems(name); !problems.empty()) {
    return Status::BadRequest("Name parameter invalid: " + GoQuote(name) + ": " + Join(problems, ";"));
  }
  return Key(ns, name);
}

std::string Store::CollectionKey(std::string_view ns) const {
  std::string key = info_.storage_prefix;
  if (info_.namespaced && !ns.empty()) key += "/" + std::string(ns);
  return key;
}

std::string Store::NameOf(const Object& obj) const {
  auto meta = obj.find("metadata");
  return meta != obj.end() && meta->is_object() ? meta->value("name", "") : "";
}

ObjectPtr Store::AsServed(ObjectPtr obj) const {
  if (!obj) return obj;
  const std::string want = ApiVersion();
  auto it = obj->find("apiVersion");
  if (it == obj->end() || !it->is_string() || it->get_ref<const std::string&>() != want) {
    if (!rules_.custom_resource) {
      // Stored objects that cannot be converted (a round-trip annotation that is not kube's
      // JSON) are relabelled rather than hidden.
      if (auto converted = conversion::Convert(*obj, want); converted.ok()) {
        (*converted)["kind"] = info_.kind;
        return std::make_shared<Object>(std::move(*converted));
      }
    }
    auto copy = std::make_shared<Object>(*obj);
    (*copy)["apiVersion"] = want;
    (*copy)["kind"] = info_.kind;
    obj = std::move(copy);
  }
  return strategy_ ? strategy_->Decorate(std::move(obj)) : obj;
}

Result<Object> Store::ForKindValidation(const Object& stored) const {
  if (!validate_in_request_version_) return stored;
  return conversion::Convert(stored, ApiVersion());
}

Result<Object> Store::ToStorage(Object obj) const {
  if (!Converts()) return obj;
  return conversion::Convert(obj, storage_api_version_);
}

ObjectPtr Store::WriteResult(ObjectPtr obj) const {
  // Custom resources answer writes with what was stored, undecorated, as before conversion.
  return Converts() ? AsServed(std::move(obj)) : obj;
}

Result<ObjectPtr> Store::Get(std::string_view ns, std::string_view name,
                             const storage::GetOptions& options) const {
  auto key = ObjectKey(ns, name);
  if (!key.ok()) return key.status();
  auto got = storage_->Get(*key, options);
  if (!got.ok()) return FromStorage(got.status(), info_.group, info_.resource, name);
  if (!*got) return NotFoundError(info_.group, info_.resource, name);
  return AsServed(*got);
}

Result<storage::ListResult> Store::List(std::string_view ns, storage::ListOptions options) const {
  KUBE_RETURN_IF_ERROR(CheckFieldSelector(rules_, info_.namespaced, options.predicate.field));
  options.predicate.get_attrs = attrs_;
  options.recursive = true;
  // A name selector without paging reads the one key (kube's single-object optimisation).
  auto name = options.predicate.MatchesSingleName();
  std::string key = CollectionKey(ns);
  if (name && options.predicate.continue_token.empty() && (!info_.namespaced || !ns.empty())) {
    // Skipped, as in kube, when the name cannot be a key: the list is then simply empty.
    if (auto single = ObjectKey(ns, *name); single.ok()) {
      key = std::move(*single);
      options.recursive = false;
    }
  }
  auto list = storage_->GetList(key, options);
  if (!list.ok()) return FromStorage(list.status(), info_.group, info_.resource, "");
  for (auto& item : list->items) item = AsServed(item);
  return list;
}

Result<storage::WatchStreamPtr> Store::Watch(std::string_view ns, storage::ListOptions options) const {
  KUBE_RETURN_IF_ERROR(CheckFieldSelector(rules_, info_.namespaced, options.predicate.field));
  options.predicate.get_attrs = attrs_;
  options.recursive = true;
  return storage_->Watch(CollectionKey(ns), options);
}

Status Store::CheckCustomResourceTypeMeta(const Object& obj) const {
  // kube's custom resource validator: a body of another kind, or of another group, is Invalid.
  // Another served version of the same group is converted (relabelled) instead.
  FieldErrors errors;
  auto kind = obj.find("kind");
  if (kind != obj.end() && kind->is_string() && !kind->get_ref<const std::string&>().empty() &&
      kind->get_ref<const std::string&>() != info_.kind) {
    errors.push_back({FieldError::Type::kInvalid, "kind", GoQuote(kind->get<std::string>()), "must be " + info_.kind});
  }
  auto api_version = obj.find("apiVersion");
  if (api_version != obj.end() && api_version->is_string() && !api_version->get_ref<const std::string&>().empty() &&
      !api_version->get_ref<const std::string&>().starts_with(info_.group + "/")) {
    errors.push_back({FieldError::Type::kInvalid, "apiVersion", GoQuote(api_version->get<std::string>()),
                      "must be " + ApiVersion()});
  }
  if (errors.empty()) return Status::OK();
  // kube's store names the object by its own kind and group (an unstructured object's GVK).
  std::string group = info_.group, own_kind = info_.kind;
  if (kind != obj.end() && kind->is_string() && !kind->get_ref<const std::string&>().empty()) own_kind = *kind;
  if (api_version != obj.end() && api_version->is_string() && !api_version->get_ref<const std::string&>().empty()) {
    const std::string& av = api_version->get_ref<const std::string&>();
    group = av.find('/') == std::string::npos ? "" : av.substr(0, av.find('/'));
  }
  return InvalidError(group, own_kind, NameOf(obj), errors);
}

Status Store::CheckBodyType(Object* obj) const {
  if (!obj->is_object()) return Status::BadRequest("the body of the request must be a JSON object");
  const std::string want = ApiVersion();
  if (rules_.custom_resource) KUBE_RETURN_IF_ERROR(CheckCustomResourceTypeMeta(*obj));
  auto api_version = obj->find("apiVersion");
  if (api_version != obj->end() && api_version->is_string() && !api_version->get_ref<const std::string&>().empty() &&
      api_version->get_ref<const std::string&>() != want) {
    return Status::BadRequest("the API version in the data (" + api_version->get<std::string>() +
                              ") does not match the expected API version (" + want + ")");
  }
  auto kind = obj->find("kind");
  if (kind != obj->end() && kind->is_string() && !kind->get_ref<const std::string&>().empty() &&
      kind->get_ref<const std::string&>() != info_.kind) {
    // kube decodes the body as the kind it names, then fails to convert it to the expected one:
    // its scheme either has no such kind in that version, or no conversion between the two.
    // (A custom resource's kind was checked above, as Invalid.)
    const std::string& body_kind = kind->get_ref<const std::string&>();
    const std::string prefix = body_kind + " in version \"" + info_.version + "\" cannot be handled as a " + info_.kind + ": ";
    if (catalogue::Catalogue::BuiltIn().KindSchema(info_.group, info_.version, body_kind) == nullptr) {
      return Status::BadRequest(prefix + "no kind \"" + body_kind + "\" is registered for version \"" + want +
                                "\" in scheme \"pkg/runtime/scheme.go:111\"");
    }
    return Status::BadRequest(prefix + "converting (" + info_.version + "." + body_kind + ") to (" +
                              catalogue::InternalGoPackage(info_.group) + "." + info_.kind + "): unknown conversion");
  }
  (*obj)["apiVersion"] = want;
  (*obj)["kind"] = info_.kind;
  auto meta = obj->find("metadata");
  if (meta == obj->end() || meta->is_null()) {
    (*obj)["metadata"] = Object::object();
  } else if (!meta->is_object()) {
    return Status::BadRequest(info_.kind + " in version \"" + info_.version + "\" cannot be handled as a " +
                              info_.kind + ": metadata must be an object");
  }
  return Status::OK();
}

Status Store::PrepareForCreate(std::string_view ns, Object* obj, const WriteOptions& options) const {
  KUBE_RETURN_IF_ERROR(CheckBodyType(obj));
  Object& meta = (*obj)["metadata"];
  if (info_.namespaced) {
    const std::string body_ns = meta.value("namespace", "");
    if (!body_ns.empty() && body_ns != ns) {
      return Status::BadRequest(
          "the namespace of the provided object does not match the namespace sent on the request");
    }
    meta["namespace"] = std::string(ns);
  } else {
    meta.erase("namespace");
  }
  // System fields are the server's: whatever the client sent is dropped (managedFields are the
  // field manager's to judge).
  for (const char* f : {"creationTimestamp", "uid", "deletionTimestamp", "deletionGracePeriodSeconds",
                        "selfLink", "generation"}) {
    meta.erase(f);
  }
  meta["uid"] = NewUuid();
  meta["creationTimestamp"] = NowRfc3339();
  if (rules_.tracks_generation) meta["generation"] = 1;
  // A status subresource owns .status: a create starts from an empty one.
  // (Nodes are the exception: kube takes a Node's status from its creator, the kubelet.)
  if (HasSubresource("status") && !(info_.group.empty() && (info_.resource == "namespaces" || info_.resource == "nodes"))) {
    obj->erase("status");
  }
  if (namespaces_ != nullptr) namespaces_->DefaultNamespaceObject(info_, obj);
  // After the status reset: some defaults live in status (PVC phase, CRD storedVersions).
  ApplyDefaults(info_.group, info_.version, info_.kind, obj);
  // The creator owns what it sent and the defaults; not what the server fills in below.
  if (options.field_manager && main_fields_) main_fields_->Update(Object::object(), obj, *options.field_manager);
  if (namespaces_ != nullptr) namespaces_->PrepareNamespaceObject(info_, obj, nullptr);
  // Everything below (and the validation in Create) sees the storage version.
  auto stored = ToStorage(std::move(*obj));
  if (!stored.ok()) return stored.status();
  *obj = std::move(*stored);
  if (info_.group.empty() && info_.resource == "pods") {
    (*obj)["status"] = Object{{"phase", "Pending"}, {"qosClass", PodQosClass(*obj)}};
  }
  if (strategy_) strategy_->PrepareForCreate(obj);
  return Status::OK();
}

Result<ObjectPtr> Store::Create(std::string_view ns, Object obj, const WriteOptions& options) {
  if (info_.namespaced && ns.empty()) {
    return Status::BadRequest("the server could not find the requested resource: a namespace is required");
  }
  if (strategy_) KUBE_RETURN_IF_ERROR(strategy_->AdmitCreate(NameOf(obj)));
  if (strategy_ && options.user) KUBE_RETURN_IF_ERROR(strategy_->AdmitWrite(ns, obj, nullptr, *options.user));
  KUBE_RETURN_IF_ERROR(PrepareForCreate(ns, &obj, options));
  if (info_.namespaced && namespaces_ != nullptr) {
    KUBE_RETURN_IF_ERROR(namespaces_->Admit(ns, /*create=*/true, info_.group, info_.resource, NameOf(obj)));
  }
  Object& meta = obj["metadata"];
  const std::string generate_name = meta.value("generateName", "");
  const bool generated = meta.value("name", "").empty() && !generate_name.empty();
  for (int attempt = 0;; ++attempt) {
    if (generated) {
      meta["name"] = generate_name.substr(0, 58) + RandomSuffix();
      // A namespace's name label follows the generated name (kube's Canonicalize).
      if (namespaces_ != nullptr) namespaces_->PrepareNamespaceObject(info_, &obj, nullptr);
    }
    if (strategy_) strategy_->PrepareNamedForCreate(&obj);
    // kube validates generateName as a prefix and, separately, the name generated from it.
    FieldErrors errors = generate_name.empty() ? FieldErrors{} : ValidateGenerateName(generate_name, rules_.name_rule);
    FieldErrors meta_errors = ValidateObjectMeta(meta, rules_.name_rule, info_.namespaced);
    errors.insert(errors.end(), meta_errors.begin(), meta_errors.end());
    if (kind_validator_ && kind_validator_->create) {
      auto subject = ForKindValidation(obj);
      if (!subject.ok()) return subject.status();
      FieldErrors kind_errors = kind_validator_->create(*subject);
      errors.insert(errors.end(), kind_errors.begin(), kind_errors.end());
    }
    if (errors.empty() && strategy_) errors = strategy_->Validate(obj);
    if (!errors.empty()) return InvalidError(invalid_group_, info_.kind, NameOf(obj), errors);
    const std::string name = meta["name"];
    if (options.dry_run) {
      // Nothing is stored: the answer has uid and creationTimestamp but no resourceVersion.
      auto existing = storage_->Get(Key(ns, name), storage::GetOptions{.ignore_not_found = true});
      if (existing.ok() && *existing) return AlreadyExistsError(info_.group, info_.resource, name);
      return WriteResult(std::make_shared<Object>(std::move(obj)));
    }
    auto created = storage_->Create(Key(ns, name), obj, 0);
    if (created.ok()) return WriteResult(*created);
    if (!created.status().IsAlreadyExists()) return FromStorage(created.status(), info_.group, info_.resource, name);
    if (!generated) return AlreadyExistsError(info_.group, info_.resource, name);
    if (attempt + 1 >= kGenerateNameAttempts) {
      Status s = AlreadyExistsError(info_.group, info_.resource, name);
      s.set_message(s.message() + ", the server was not able to generate a unique name for the object");
      return s.set_retry_after_seconds(1);
    }
  }
}

}  // namespace kube::registry
