#include "registry/kind_strategies.h"

#include <nlohmann/json.hpp>

#include "registry/store.h"
#include "registry/strategy_chain.h"

namespace kube::registry {

namespace {

using storage::Object;

const Object& Member(const Object& obj, const char* key) {
  static const Object kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

std::string MetaString(const Object& obj, const char* key) {
  const Object& v = Member(Member(obj, "metadata"), key);
  return v.is_string() ? v.get<std::string>() : "";
}

Object& EnsureObject(Object* parent, const char* key) {
  Object& v = (*parent)[key];
  if (!v.is_object()) v = Object::object();
  return v;
}

class JobStrategy final : public Strategy {
 public:
  // kube's generateSelector, run once the name and uid are known: labels the template already
  // has are left for validation to judge.
  void PrepareNamedForCreate(Object* obj) const override {
    Object& spec = EnsureObject(obj, "spec");
    if (Member(spec, "manualSelector") == Object(true)) return;
    const std::string name = MetaString(*obj, "name");
    const std::string uid = MetaString(*obj, "uid");
    Object& labels = EnsureObject(&EnsureObject(&EnsureObject(&spec, "template"), "metadata"), "labels");
    for (const char* key : {"job-name", "batch.kubernetes.io/job-name"}) {
      if (!labels.contains(key)) labels[key] = name;
    }
    for (const char* key : {"controller-uid", "batch.kubernetes.io/controller-uid"}) {
      if (!labels.contains(key)) labels[key] = uid;
    }
    Object& match = EnsureObject(&EnsureObject(&spec, "selector"), "matchLabels");
    if (!match.contains("batch.kubernetes.io/controller-uid")) match["batch.kubernetes.io/controller-uid"] = uid;
  }
};

constexpr const char* kTemplateGeneration = "deprecated.daemonset.template.generation";

// The template generation an object's annotation says, 0 when none (or not a number).
int64_t TemplateGeneration(const Object& obj) {
  const Object& v = Member(Member(Member(obj, "metadata"), "annotations"), kTemplateGeneration);
  if (!v.is_string()) return 0;
  const std::string& text = v.get_ref<const std::string&>();
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::stoll(text);
}

class DaemonSetStrategy final : public Strategy {
 public:
  void PrepareForCreate(Object* obj) const override {
    // A generation the creator gave stands (kube raises only a missing one to 1).
    const int64_t given = TemplateGeneration(*obj);
    EnsureObject(&EnsureObject(obj, "metadata"), "annotations")[kTemplateGeneration] =
        std::to_string(given < 1 ? 1 : given);
  }
  void PrepareForUpdate(std::string_view subresource, Object* next, const Object& current) const override {
    if (!subresource.empty()) return;
    int64_t generation = TemplateGeneration(current);
    if (Member(Member(*next, "spec"), "template") != Member(Member(current, "spec"), "template")) ++generation;
    if (generation == 0) return;
    EnsureObject(&EnsureObject(next, "metadata"), "annotations")[kTemplateGeneration] = std::to_string(generation);
  }
};

// kube's ResetObjectMetaForStatus: a subresource write keeps the object's metadata but for
// what the field manager records.
void KeepMetadata(Object* next, const Object& current) {
  Object& meta = EnsureObject(next, "metadata");
  const Object& cur = Member(current, "metadata");
  for (const char* f : {"deletionTimestamp", "generation", "labels", "annotations", "finalizers", "ownerReferences"}) {
    if (cur.contains(f)) {
      meta[f] = cur[f];
    } else {
      meta.erase(f);
    }
  }
}

void BumpGenerationOnSpecChange(Object* next, const Object& current) {
  const int64_t generation = Member(Member(current, "metadata"), "generation").is_number_integer()
                                 ? current["metadata"]["generation"].get<int64_t>()
                                 : 0;
  const bool changed = Member(*next, "spec") != Member(current, "spec");
  (*next)["metadata"]["generation"] = generation + (changed ? 1 : 0);
}

// Copies each container's resources and resizePolicy from `from` into `into` (same containers,
// same order); false when the lists do not line up (validation then refuses the change).
bool TakeResources(const Object& from, Object* into) {
  if (!from.is_array() && !into->is_array()) return true;
  if (!from.is_array() || !into->is_array() || from.size() != into->size()) return false;
  for (size_t i = 0; i < from.size(); ++i) {
    if (Member(from[i], "name") != Member((*into)[i], "name")) return false;
  }
  for (size_t i = 0; i < from.size(); ++i) {
    for (const char* f : {"resources", "resizePolicy"}) {
      if (from[i].contains(f)) {
        (*into)[i][f] = from[i][f];
      } else {
        (*into)[i].erase(f);
      }
    }
  }
  return true;
}

class PodStrategy final : public Strategy {
 public:
  void PrepareForCreate(Object* obj) const override {
    const Object& gates = Member(Member(*obj, "spec"), "schedulingGates");
    if (!gates.is_array() || gates.empty()) return;
    Object& conditions = EnsureObject(obj, "status")["conditions"];
    if (!conditions.is_array()) conditions = Object::array();
    conditions.push_back(Object{{"type", "PodScheduled"},
                                {"status", "False"},
                                {"lastProbeTime", nullptr},
                                {"lastTransitionTime", nullptr},
                                {"reason", "SchedulingGated"},
                                {"message", "Scheduling is blocked due to non-empty scheduling gates"}});
  }

  void PrepareForUpdate(std::string_view subresource, Object* next, const Object& current) const override {
    if (subresource == "status") {
      PrepareStatus(next, current);
      return;
    }
    if (subresource != "ephemeralcontainers" && subresource != "resize") return;
    Object updated = current;
    Object& spec = EnsureObject(&updated, "spec");
    const Object& asked = Member(*next, "spec");
    if (subresource == "ephemeralcontainers") {
      if (asked.contains("ephemeralContainers")) {
        spec["ephemeralContainers"] = asked["ephemeralContainers"];
      } else {
        spec.erase("ephemeralContainers");
      }
    } else {
      // Containers added, removed, reordered or renamed: the spec stays as sent for validation
      // to refuse.
      Object containers = Member(spec, "containers");
      Object init = Member(spec, "initContainers");
      if (TakeResources(Member(asked, "containers"), &containers) && TakeResources(Member(asked, "initContainers"), &init)) {
        if (!containers.is_null()) spec["containers"] = std::move(containers);
        if (!init.is_null()) spec["initContainers"] = std::move(init);
      } else {
        spec = asked;
      }
    }
    // The write keeps its own metadata (resourceVersion, managedFields) but not label or
    // annotation changes.
    Object meta = Member(*next, "metadata");
    updated["metadata"] = meta.is_object() ? meta : Object::object();
    KeepMetadata(&updated, current);
    BumpGenerationOnSpecChange(&updated, current);
    *next = std::move(updated);
  }

 private:
  static void PrepareStatus(Object* next, const Object& current) {
    Object& status = EnsureObject(next, "status");
    const Object& old = Member(current, "status");
    // qosClass is fixed at creation; old kubelets leave it out.
    if (Member(status, "qosClass").is_null() || Member(status, "qosClass") == Object("")) {
      if (Member(old, "qosClass").is_string()) status["qosClass"] = old["qosClass"];
    }
    const Object& observed = Member(status, "observedGeneration");
    if ((observed.is_null() || observed == Object(0)) && Member(old, "observedGeneration").is_number_integer()) {
      status["observedGeneration"] = old["observedGeneration"];
    }
    // Conditions written without observedGeneration keep the one their type had, in order.
    if (!Member(status, "conditions").is_array() || !Member(old, "conditions").is_array()) return;
    std::map<std::string, std::vector<Object>> before;
    for (const auto& c : old["conditions"]) before[c.value("type", "")].push_back(Member(c, "observedGeneration"));
    for (auto& c : status["conditions"]) {
      if (!c.is_object()) continue;
      auto& queue = before[c.value("type", "")];
      Object previous = queue.empty() ? Object() : queue.front();
      if (!queue.empty()) queue.erase(queue.begin());
      const Object& mine = Member(c, "observedGeneration");
      if ((mine.is_null() || mine == Object(0)) && previous.is_number_integer() && previous != Object(0)) {
        c["observedGeneration"] = previous;
      }
    }
  }
};

class NodeStrategy final : public Strategy {
 public:
  void PrepareForCreate(Object* obj) const override {
    if (Member(*obj, "spec").is_object()) (*obj)["spec"].erase("configSource");
    if (Member(*obj, "status").is_object()) (*obj)["status"].erase("config");
  }
  void PrepareForUpdate(std::string_view subresource, Object* next, const Object& current) const override {
    // A config source already there may stay; none may be added.
    if (subresource.empty() && Member(*next, "spec").is_object() &&
        Member(Member(current, "spec"), "configSource").is_null()) {
      (*next)["spec"].erase("configSource");
    }
    if (subresource == "status" && Member(*next, "status").is_object() &&
        Member(Member(current, "status"), "config").is_null()) {
      (*next)["status"].erase("config");
    }
  }
};

class PersistentVolumeStrategy final : public Strategy {
 public:
  void PrepareForCreate(Object* obj) const override {
    EnsureObject(obj, "status")["lastPhaseTransitionTime"] = NowRfc3339();
  }
  void PrepareForUpdate(std::string_view subresource, Object* next, const Object& current) const override {
    if (subresource != "status") return;
    const Object& old = Member(current, "status");
    Object& status = EnsureObject(next, "status");
    // A phase change moves the transition time unless the writer set a new one itself.
    if (Member(status, "phase") != Member(old, "phase") &&
        Member(status, "lastPhaseTransitionTime") == Member(old, "lastPhaseTransitionTime")) {
      status["lastPhaseTransitionTime"] = NowRfc3339();
    }
  }
};

}  // namespace

void AddKindStrategies(RegistryOptions* options) {
  auto add = [&](const std::string& key, std::shared_ptr<const Strategy> strategy) {
    auto& slot = options->strategies[key];
    slot = StrategyChain::Of(slot, std::move(strategy));
  };
  add("batch/jobs", std::make_shared<JobStrategy>());
  add("apps/daemonsets", std::make_shared<DaemonSetStrategy>());
  add("/pods", std::make_shared<PodStrategy>());
  add("/nodes", std::make_shared<NodeStrategy>());
  add("/persistentvolumes", std::make_shared<PersistentVolumeStrategy>());
}

}  // namespace kube::registry
