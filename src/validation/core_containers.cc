// Containers of a pod spec: kube's validateContainers, validateInitContainers,
// validateEphemeralContainers and what they share (validateContainerCommon: name, image, ports,
// env, mounts, pull policy, resources, security context; probes and lifecycle handlers).
#include <algorithm>

#include "validation/core_internal.h"
#include "validation/primitives.h"

namespace kube::validation::core {

namespace {

const std::vector<std::string> kEnvFieldPaths = {
    "metadata.name", "metadata.namespace", "metadata.uid",  "spec.nodeName", "spec.serviceAccountName",
    "status.hostIP", "status.hostIPs",     "status.podIP",  "status.podIPs"};
const std::vector<std::string> kResourceFieldPaths = {"limits.cpu",   "limits.ephemeral-storage",   "limits.memory",
                                                      "requests.cpu", "requests.ephemeral-storage", "requests.memory"};

// podshelper.ConvertDownwardAPIFieldLabel's v1 labels.
const std::set<std::string> kConvertibleLabels = {
    "metadata.annotations", "metadata.labels", "metadata.name",  "metadata.namespace", "metadata.uid",
    "spec.nodeName",        "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
    "status.phase",         "status.hostIP",   "status.hostIPs", "status.podIP",       "status.podIPs"};

// fieldpath.SplitMaybeSubscriptedPath: "metadata.labels['key']".
bool SplitSubscript(const std::string& path, std::string* head, std::string* subscript) {
  if (!path.ends_with("']")) return false;
  const size_t open = path.find("['");
  if (open == std::string::npos) return false;
  *head = path.substr(0, open);
  *subscript = path.substr(open + 2, path.size() - open - 4);
  return true;
}

}  // namespace

// validateObjectFieldSelector, shared with downward API volume files.
FieldErrors ValidateObjectFieldSelector(const Json& fs, const std::vector<std::string>& expressions,
                                        const std::string& path) {
  FieldErrors errors;
  const std::string api_version = Str(fs, "apiVersion");
  std::string field_path = Str(fs, "fieldPath");
  if (api_version.empty()) return {Required(Child(path, "apiVersion"))};
  if (field_path.empty()) return {Required(Child(path, "fieldPath"))};
  std::string head, subscript;
  const bool subscripted = SplitSubscript(field_path, &head, &subscript);
  std::string convert_error;
  if (api_version != "v1") {
    convert_error = "unsupported pod version: " + api_version;
  } else if (subscripted && head != "metadata.annotations" && head != "metadata.labels") {
    convert_error = "field label does not support subscript: " + field_path;
  } else if (!subscripted && field_path == "spec.host") {
    field_path = "spec.nodeName";
  } else if (!subscripted && !kConvertibleLabels.contains(field_path)) {
    convert_error = "field label not supported: " + field_path;
  }
  if (!convert_error.empty()) {
    return {Invalid(Child(path, "fieldPath"), Str(fs, "fieldPath"), "error converting fieldPath: " + convert_error)};
  }
  if (subscripted) {
    if (head == "metadata.annotations") {
      std::string lower = subscript;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      Append(&errors, ValidateQualifiedName(lower, path));
    } else {
      Append(&errors, ValidateQualifiedName(subscript, path));
    }
  } else if (std::find(expressions.begin(), expressions.end(), field_path) == expressions.end()) {
    errors.push_back(NotSupported(Child(path, "fieldPath"), field_path, expressions));
  }
  return errors;
}

// validateContainerResourceFieldSelector (divisor values are not checked).
FieldErrors ValidateResourceFieldSelector(const Json& fs, const std::string& path, bool volume) {
  const std::string resource = Str(fs, "resource");
  if (volume && Str(fs, "containerName").empty()) return {Required(Child(path, "containerName"))};
  if (resource.empty()) return {Required(Child(path, "resource"))};
  const bool known = std::find(kResourceFieldPaths.begin(), kResourceFieldPaths.end(), resource) != kResourceFieldPaths.end();
  if (!known && !resource.starts_with("requests.hugepages-") && !resource.starts_with("limits.hugepages-")) {
    return {NotSupported(Child(path, "resource"), resource, kResourceFieldPaths)};
  }
  return {};
}

namespace {

void ValidateKeySelector(const Json& s, const std::string& path, FieldErrors* errors) {
  const std::string name = Str(s, "name");
  AppendProblems(errors, Child(path, "name"), name, NameIsDnsSubdomain(name, false));
  const std::string key = Str(s, "key");
  if (key.empty()) {
    errors->push_back(Required(Child(path, "key")));
  } else {
    AppendProblems(errors, Child(path, "key"), key, IsConfigMapKey(key));
  }
}

FieldErrors ValidateEnv(const Json& env, const std::string& path) {
  FieldErrors errors;
  for (size_t i = 0; i < env.size(); ++i) {
    const Json& ev = env[i];
    const std::string idx = Index(path, i);
    const std::string name = Str(ev, "name");
    if (name.empty()) {
      errors.push_back(Required(Child(idx, "name")));
    } else {
      AppendProblems(&errors, Child(idx, "name"), name, IsRelaxedEnvVarName(name));
    }
    const Json* from = Field(ev, "valueFrom");
    if (from == nullptr) continue;
    const std::string from_path = Child(idx, "valueFrom");
    int sources = 0;
    if (const Json* f = Field(*from, "fieldRef")) {
      ++sources;
      Append(&errors, ValidateObjectFieldSelector(*f, kEnvFieldPaths, Child(from_path, "fieldRef")));
    }
    if (const Json* f = Field(*from, "resourceFieldRef")) {
      ++sources;
      Append(&errors, ValidateResourceFieldSelector(*f, Child(from_path, "resourceFieldRef"), false));
    }
    if (const Json* f = Field(*from, "configMapKeyRef")) {
      ++sources;
      ValidateKeySelector(*f, Child(from_path, "configMapKeyRef"), &errors);
    }
    if (const Json* f = Field(*from, "secretKeyRef")) {
      ++sources;
      ValidateKeySelector(*f, Child(from_path, "secretKeyRef"), &errors);
    }
    if (sources == 0) {
      errors.push_back(Invalid(from_path, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
    } else if (!Str(ev, "value").empty()) {
      errors.push_back(Invalid(from_path, "", "may not be specified when `value` is not empty"));
    } else if (sources > 1) {
      errors.push_back(Invalid(from_path, "", "may not have more than one field specified at a time"));
    }
  }
  return errors;
}

FieldErrors ValidateEnvFrom(const Json& env_from, const std::string& path) {
  FieldErrors errors;
  for (size_t i = 0; i < env_from.size(); ++i) {
    const Json& ev = env_from[i];
    const std::string idx = Index(path, i);
    if (const std::string prefix = Str(ev, "prefix"); !prefix.empty()) {
      AppendProblems(&errors, Child(idx, "prefix"), prefix, IsRelaxedEnvVarName(prefix));
    }
    int sources = 0;
    for (const char* ref : {"configMapRef", "secretRef"}) {
      const Json* r = Field(ev, ref);
      if (r == nullptr) continue;
      ++sources;
      const std::string name = Str(*r, "name");
      const std::string name_path = Child(Child(idx, ref), "name");
      if (name.empty()) {
        errors.push_back(Required(name_path));
      } else {
        AppendProblems(&errors, name_path, name, NameIsDnsSubdomain(name, true));
      }
    }
    if (sources == 0) {
      errors.push_back(Invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"));
    } else if (sources > 1) {
      errors.push_back(Invalid(path, "", "may not have more than one field specified at a time"));
    }
  }
  return errors;
}

FieldErrors ValidateContainerPorts(const Json& ports, const std::string& path) {
  FieldErrors errors;
  std::set<std::string> names;
  for (size_t i = 0; i < ports.size(); ++i) {
    const Json& port = ports[i];
    const std::string idx = Index(path, i);
    if (const std::string name = Str(port, "name"); !name.empty()) {
      auto problems = IsValidPortName(name);
      if (!problems.empty()) {
        AppendProblems(&errors, Child(idx, "name"), name, problems);
      } else if (!names.insert(name).second) {
        errors.push_back(Duplicate(Child(idx, "name"), name));
      }
    }
    const int64_t container_port = IntField(port, "containerPort").value_or(0);
    if (container_port == 0) {
      errors.push_back(Required(Child(idx, "containerPort")));
    } else {
      AppendProblems(&errors, Child(idx, "containerPort"), container_port, IsValidPortNum(container_port));
    }
    if (const int64_t host_port = IntField(port, "hostPort").value_or(0); host_port != 0) {
      AppendProblems(&errors, Child(idx, "hostPort"), host_port, IsValidPortNum(host_port));
    }
    const std::string protocol = Str(port, "protocol");
    if (protocol.empty()) {
      errors.push_back(Required(Child(idx, "protocol")));
    } else if (std::find(kPortProtocols.begin(), kPortProtocols.end(), protocol) == kPortProtocols.end()) {
      errors.push_back(NotSupported(Child(idx, "protocol"), protocol, kPortProtocols));
    }
  }
  return errors;
}

FieldErrors ValidateVolumeMounts(const Json& c, const std::map<std::string, const Json*>& volumes, const std::string& path) {
  FieldErrors errors;
  const Json& mounts = ArrayField(c, "volumeMounts");
  std::map<std::string, std::string> devices;
  for (const Json& d : ArrayField(c, "volumeDevices")) devices[Str(d, "name")] = Str(d, "devicePath");
  std::set<std::string> mount_points;
  const Json* sc = Field(c, "securityContext");
  const bool privileged = sc != nullptr && BoolField(*sc, "privileged");
  for (size_t i = 0; i < mounts.size(); ++i) {
    const Json& m = mounts[i];
    const std::string idx = Index(path, i);
    const std::string name = Str(m, "name");
    const std::string mount_path = Str(m, "mountPath");
    if (name.empty()) errors.push_back(Required(Child(idx, "name")));
    auto volume = volumes.find(name);
    if (volume == volumes.end()) errors.push_back(NotFound(Child(idx, "name"), name));
    if (mount_path.empty()) errors.push_back(Required(Child(idx, "mountPath")));
    if (!mount_points.insert(mount_path).second) errors.push_back(Invalid(Child(idx, "mountPath"), mount_path, "must be unique"));
    if (devices.contains(name)) errors.push_back(Invalid(Child(idx, "name"), name, "must not already exist in volumeDevices"));
    for (const auto& [_, device_path] : devices) {
      if (device_path == mount_path) {
        errors.push_back(Invalid(Child(idx, "mountPath"), mount_path, "must not already exist as a path in volumeDevices"));
        break;
      }
    }
    const std::string sub_path = Str(m, "subPath");
    const std::string sub_path_expr = Str(m, "subPathExpr");
    if (volume != volumes.end() && Has(*volume->second, "image")) {
      if (!sub_path.empty()) errors.push_back(Invalid(Child(idx, "subPath"), sub_path, "not allowed in image volume sources"));
      if (!sub_path_expr.empty()) {
        errors.push_back(Invalid(Child(idx, "subPathExpr"), sub_path_expr, "not allowed in image volume sources"));
      }
    }
    // kube reports the sub paths at the list's path, without the index.
    if (!sub_path.empty()) Append(&errors, ValidateLocalDescendingPath(sub_path, Child(path, "subPath")));
    if (!sub_path_expr.empty()) {
      if (!sub_path.empty()) {
        errors.push_back(Invalid(Child(idx, "subPathExpr"), sub_path_expr, "subPathExpr and subPath are mutually exclusive"));
      }
      Append(&errors, ValidateLocalDescendingPath(sub_path_expr, Child(path, "subPathExpr")));
    }
    const std::string propagation_path = Child(path, "mountPropagation");
    if (const Json* p = Field(m, "mountPropagation")) {
      const std::string mode = p->is_string() ? p->get<std::string>() : "";
      if (mode != "Bidirectional" && mode != "HostToContainer" && mode != "None") {
        errors.push_back(NotSupported(propagation_path, mode, {"Bidirectional", "HostToContainer", "None"}));
      }
      if (mode == "Bidirectional" && !privileged) {
        errors.push_back(Forbidden(propagation_path, "Bidirectional mount propagation is available only to privileged containers"));
      }
    }
    if (const Json* rro = Field(m, "recursiveReadOnly")) {
      const std::string mode = rro->is_string() ? rro->get<std::string>() : "";
      const std::string rro_path = Child(path, "recursiveReadOnly");
      if (mode == "Enabled" || mode == "IfPossible") {
        if (!BoolField(m, "readOnly")) errors.push_back(Forbidden(rro_path, "may only be specified when readOnly is true"));
        const std::string propagation = Str(m, "mountPropagation");
        if (!propagation.empty() && propagation != "None") {
          errors.push_back(Forbidden(rro_path, "may only be specified when mountPropagation is None or not specified"));
        }
      } else if (mode != "Disabled") {
        errors.push_back(NotSupported(rro_path, mode, {"Disabled", "Enabled", "IfPossible"}));
      }
    }
  }
  return errors;
}

FieldErrors ValidateVolumeDevices(const Json& c, const std::map<std::string, const Json*>& volumes, const std::string& path) {
  FieldErrors errors;
  std::map<std::string, std::string> mounts;
  for (const Json& m : ArrayField(c, "volumeMounts")) mounts[Str(m, "name")] = Str(m, "mountPath");
  std::set<std::string> names, paths;
  const Json& devices = ArrayField(c, "volumeDevices");
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::string idx = Index(path, i);
    const std::string name = Str(devices[i], "name");
    const std::string device_path = Str(devices[i], "devicePath");
    auto volume = volumes.find(name);
    const bool is_pvc = volume != volumes.end() && (Has(*volume->second, "persistentVolumeClaim") || Has(*volume->second, "ephemeral"));
    if (name.empty()) errors.push_back(Required(Child(idx, "name")));
    if (names.contains(name)) errors.push_back(Invalid(Child(idx, "name"), name, "must be unique"));
    if (volume != volumes.end() && !is_pvc) {
      errors.push_back(Invalid(Child(idx, "name"), name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"));
    }
    if (volume == volumes.end()) errors.push_back(NotFound(Child(idx, "name"), name));
    if (device_path.empty()) errors.push_back(Required(Child(idx, "devicePath")));
    if (paths.contains(device_path)) errors.push_back(Invalid(Child(idx, "devicePath"), device_path, "must be unique"));
    if (!device_path.empty() && !ValidatePathNoBacksteps(device_path, "").empty()) {
      errors.push_back(Invalid(Child(idx, "devicePath"), device_path, "can not contain backsteps ('..')"));
    } else {
      paths.insert(device_path);
    }
    if (mounts.contains(name)) errors.push_back(Invalid(Child(idx, "name"), name, "must not already exist in volumeMounts"));
    for (const auto& [_, mount_path] : mounts) {
      if (mount_path == device_path) {
        errors.push_back(Invalid(Child(idx, "devicePath"), device_path, "must not already exist as a path in volumeMounts"));
        break;
      }
    }
    if (!name.empty()) names.insert(name);
  }
  return errors;
}

// validateHandler: exactly one handler; `grace` is the pod's terminationGracePeriodSeconds.
FieldErrors ValidateHandler(const Json& h, bool lifecycle, std::optional<int64_t> grace, const std::string& path) {
  FieldErrors errors;
  int handlers = 0;
  auto one = [&](const char* name) -> const Json* {
    const Json* v = Field(h, name);
    if (v == nullptr) return nullptr;
    if (handlers++ > 0) {
      errors.push_back(Forbidden(Child(path, name), "may not specify more than 1 handler type"));
      return nullptr;
    }
    return v;
  };
  if (const Json* exec = one("exec"); exec && ArrayField(*exec, "command").empty()) {
    errors.push_back(Required(Child(Child(path, "exec"), "command")));
  }
  if (const Json* http = one("httpGet")) {
    const std::string p = Child(path, "httpGet");
    if (Str(*http, "path").empty()) errors.push_back(Required(Child(p, "path")));
    Append(&errors, ValidatePortNumOrName(http->value("port", Json()), Child(p, "port")));
    const std::string scheme = Str(*http, "scheme");
    if (scheme != "HTTP" && scheme != "HTTPS") errors.push_back(NotSupported(Child(p, "scheme"), scheme, {"HTTP", "HTTPS"}));
    for (const Json& header : ArrayField(*http, "httpHeaders")) {
      const std::string name = Str(header, "name");
      AppendProblems(&errors, Child(p, "httpHeaders"), name, IsHttpHeaderName(name));
    }
  }
  if (const Json* tcp = one("tcpSocket")) {
    Append(&errors, ValidatePortNumOrName(tcp->value("port", Json()), Child(Child(path, "tcpSocket"), "port")));
  }
  if (!lifecycle) {
    if (const Json* grpc = one("grpc")) {
      const int64_t port = IntField(*grpc, "port").value_or(0);
      AppendProblems(&errors, Child(Child(path, "grpc"), "port"), port, IsValidPortNum(port));
    }
  } else if (const Json* sleep = one("sleep")) {
    const int64_t seconds = IntField(*sleep, "seconds").value_or(0);
    if (grace && (seconds < 0 || seconds > *grace)) {
      errors.push_back(Invalid(Child(path, "sleep"), seconds,
                               "must be non-negative and less than terminationGracePeriodSeconds (" + std::to_string(*grace) + ")"));
    }
  }
  if (handlers == 0) errors.push_back(Required(path, "must specify a handler type"));
  return errors;
}

// validateProbe plus the per-kind rule: liveness and startup need successThreshold 1, readiness
// may not set a termination grace period.
FieldErrors ValidateProbe(const Json* probe, const char* kind, std::optional<int64_t> grace, const std::string& path) {
  if (probe == nullptr) return {};
  FieldErrors errors = ValidateHandler(*probe, false, grace, path);
  for (const char* f : {"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"}) {
    Append(&errors, ValidateNonnegativeField(IntField(*probe, f).value_or(0), Child(path, f)));
  }
  const std::optional<int64_t> tgp = IntField(*probe, "terminationGracePeriodSeconds");
  if (tgp && *tgp <= 0) errors.push_back(Invalid(Child(path, "terminationGracePeriodSeconds"), *tgp, "must be greater than 0"));
  const std::string k = kind;
  if (k != "readinessProbe" && IntField(*probe, "successThreshold").value_or(0) != 1) {
    errors.push_back(Invalid(Child(path, "successThreshold"), IntField(*probe, "successThreshold").value_or(0), "must be 1"));
  }
  if (k == "readinessProbe" && tgp) {
    errors.push_back(Invalid(Child(path, "terminationGracePeriodSeconds"), *tgp, "must not be set for readinessProbes"));
  }
  return errors;
}

FieldErrors ValidateProbesAndLifecycle(const Json& c, std::optional<int64_t> grace, const std::string& path) {
  FieldErrors errors;
  if (const Json* lifecycle = Field(c, "lifecycle")) {
    for (const char* hook : {"postStart", "preStop"}) {
      if (const Json* h = Field(*lifecycle, hook)) Append(&errors, ValidateHandler(*h, true, grace, Child(Child(path, "lifecycle"), hook)));
    }
  }
  for (const char* kind : {"livenessProbe", "readinessProbe", "startupProbe"}) {
    Append(&errors, ValidateProbe(Field(c, kind), kind, grace, Child(path, kind)));
  }
  return errors;
}

FieldErrors ValidateResizePolicy(const Json& policies, const std::string& restart_policy, const std::string& path) {
  FieldErrors errors;
  std::set<std::string> seen;
  for (size_t i = 0; i < policies.size(); ++i) {
    const std::string resource = Str(policies[i], "resourceName");
    const std::string policy = Str(policies[i], "restartPolicy");
    if (!seen.insert(resource).second) errors.push_back(Duplicate(Index(path, i), resource));
    if (resource.empty()) {
      errors.push_back(Required(path));
    } else if (resource != "cpu" && resource != "memory") {
      errors.push_back(NotSupported(path, resource, {"cpu", "memory"}));
    }
    if (policy.empty()) {
      errors.push_back(Required(path));
    } else if (policy != "NotRequired" && policy != "RestartContainer") {
      errors.push_back(NotSupported(path, policy, {"NotRequired", "RestartContainer"}));
    }
    if (restart_policy == "Never" && policy != "NotRequired") {
      errors.push_back(Invalid(path, policy, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  }
  return errors;
}

// validateContainerCommon.
FieldErrors ValidateContainerCommon(const Json& c, const Json& spec, const std::map<std::string, const Json*>& volumes,
                                    const std::set<std::string>& pod_claims, const std::string& path) {
  FieldErrors errors;
  const std::string name = Str(c, "name");
  if (name.empty()) {
    errors.push_back(Required(Child(path, "name")));
  } else {
    Append(&errors, ValidateDns1123Label(name, Child(path, "name")));
  }
  if (Str(c, "image").empty()) errors.push_back(Required(Child(path, "image")));
  const std::string tmp = Str(c, "terminationMessagePolicy");
  if (tmp.empty()) {
    errors.push_back(Required(Child(path, "terminationMessagePolicy")));
  } else if (tmp != "File" && tmp != "FallbackToLogsOnError") {
    errors.push_back(NotSupported(Child(path, "terminationMessagePolicy"), tmp, {"File", "FallbackToLogsOnError"}));
  }
  Append(&errors, ValidateContainerPorts(ArrayField(c, "ports"), Child(path, "ports")));
  Append(&errors, ValidateEnv(ArrayField(c, "env"), Child(path, "env")));
  Append(&errors, ValidateEnvFrom(ArrayField(c, "envFrom"), Child(path, "envFrom")));
  Append(&errors, ValidateVolumeMounts(c, volumes, Child(path, "volumeMounts")));
  Append(&errors, ValidateVolumeDevices(c, volumes, Child(path, "volumeDevices")));
  const std::string pull = Str(c, "imagePullPolicy");
  if (pull.empty()) {
    errors.push_back(Required(Child(path, "imagePullPolicy")));
  } else if (pull != "Always" && pull != "IfNotPresent" && pull != "Never") {
    errors.push_back(NotSupported(Child(path, "imagePullPolicy"), pull, {"Always", "IfNotPresent", "Never"}));
  }
  if (const Json* resources = Field(c, "resources")) {
    Append(&errors, ValidateContainerResources(*resources, pod_claims, Child(path, "resources")));
  }
  Append(&errors, ValidateResizePolicy(ArrayField(c, "resizePolicy"), Str(spec, "restartPolicy"), Child(path, "resizePolicy")));
  const Json* pod_sc = Field(spec, "securityContext");
  const Json* host_users = pod_sc ? Field(*pod_sc, "hostUsers") : nullptr;
  const bool uses_host_users = host_users == nullptr || !host_users->is_boolean() || host_users->get<bool>();
  if (const Json* sc = Field(c, "securityContext")) {
    Append(&errors, ValidateSecurityContext(*sc, Child(path, "securityContext"), uses_host_users));
  }
  return errors;
}

// checkHostPortConflicts: one protocol/hostIP/hostPort once across `containers`.
void CheckHostPorts(const std::vector<const Json*>& containers, const std::vector<std::string>& paths,
                    FieldErrors* errors) {
  std::set<std::string> seen;
  for (size_t ci = 0; ci < containers.size(); ++ci) {
    const Json& ports = ArrayField(*containers[ci], "ports");
    for (size_t pi = 0; pi < ports.size(); ++pi) {
      const int64_t host_port = IntField(ports[pi], "hostPort").value_or(0);
      if (host_port == 0) continue;
      const std::string key = Str(ports[pi], "protocol") + "/" + Str(ports[pi], "hostIP") + "/" + std::to_string(host_port);
      if (!seen.insert(key).second) errors->push_back(Duplicate(Child(Index(Child(paths[ci], "ports"), pi), "hostPort"), key));
    }
  }
}

}  // namespace

FieldErrors ValidatePortNumOrName(const Json& port, const std::string& field) {
  if (port.is_number()) {
    const int64_t n = port.is_number_integer() ? port.get<int64_t>() : static_cast<int64_t>(port.get<double>());
    FieldErrors errors;
    AppendProblems(&errors, field, n, IsValidPortNum(n));
    return errors;
  }
  const std::string name = port.is_string() ? port.get<std::string>() : "";
  FieldErrors errors;
  AppendProblems(&errors, field, name, IsValidPortName(name));
  return errors;
}

FieldErrors ValidateContainers(const Json& spec, const std::map<std::string, const Json*>& volumes,
                               const std::set<std::string>& pod_claims, const std::string& path) {
  FieldErrors errors;
  const std::optional<int64_t> grace = IntField(spec, "terminationGracePeriodSeconds");
  const std::string containers_path = Child(path, "containers");
  const Json& containers = ArrayField(spec, "containers");
  std::set<std::string> names;
  if (containers.empty()) {
    errors.push_back(Required(containers_path));
  } else {
    std::vector<const Json*> all;
    std::vector<std::string> paths;
    for (size_t i = 0; i < containers.size(); ++i) {
      const Json& c = containers[i];
      const std::string idx = Index(containers_path, i);
      Append(&errors, ValidateContainerCommon(c, spec, volumes, pod_claims, idx));
      if (!names.insert(Str(c, "name")).second) errors.push_back(Duplicate(Child(idx, "name"), Str(c, "name")));
      Append(&errors, ValidateProbesAndLifecycle(c, grace, idx));
      if (Has(c, "restartPolicy")) errors.push_back(Forbidden(Child(idx, "restartPolicy"), "may not be set for non-init containers"));
      all.push_back(&c);
      paths.push_back(idx);
    }
    CheckHostPorts(all, paths, &errors);
  }

  const std::string init_path = Child(path, "initContainers");
  const Json& inits = ArrayField(spec, "initContainers");
  for (size_t i = 0; i < inits.size(); ++i) {
    const Json& c = inits[i];
    const std::string idx = Index(init_path, i);
    Append(&errors, ValidateContainerCommon(c, spec, volumes, pod_claims, idx));
    bool restart_always = false;
    if (const Json* rp = Field(c, "restartPolicy")) {
      const std::string policy = rp->is_string() ? rp->get<std::string>() : "";
      restart_always = policy == "Always";
      if (!restart_always) errors.push_back(NotSupported(Child(idx, "restartPolicy"), policy, {"Always"}));
    }
    const std::string name = Str(c, "name");
    if (names.contains(name)) {
      errors.push_back(Duplicate(Child(idx, "name"), name));
    } else if (!name.empty()) {
      names.insert(name);
    }
    CheckHostPorts({&c}, {idx}, &errors);
    if (restart_always) {
      Append(&errors, ValidateProbesAndLifecycle(c, grace, idx));
    } else {
      for (const char* f : {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"}) {
        if (Has(c, f)) errors.push_back(Forbidden(Child(idx, f), "may not be set for init containers without restartPolicy=Always"));
      }
    }
  }

  const std::string eph_path = Child(path, "ephemeralContainers");
  const Json& ephemeral = ArrayField(spec, "ephemeralContainers");
  std::set<std::string> others = names;
  for (size_t i = 0; i < ephemeral.size(); ++i) {
    const Json& c = ephemeral[i];
    const std::string idx = Index(eph_path, i);
    Append(&errors, ValidateContainerCommon(c, spec, volumes, pod_claims, idx));
    const std::string name = Str(c, "name");
    if (!names.insert(name).second) errors.push_back(Duplicate(Child(idx, "name"), name));
    const std::string target = Str(c, "targetContainerName");
    if (!target.empty() && !others.contains(target)) errors.push_back(NotFound(Child(idx, "targetContainerName"), target));
    for (const char* f : {"ports", "resources", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle",
                          "resizePolicy", "restartPolicy"}) {
      const Json* v = Field(c, f);
      const bool set = v != nullptr && !(v->is_object() && v->empty()) && !(v->is_array() && v->empty());
      if (set) errors.push_back(Forbidden(Child(idx, f), "cannot be set for an Ephemeral Container"));
    }
    const Json& mounts = ArrayField(c, "volumeMounts");
    for (size_t m = 0; m < mounts.size(); ++m) {
      for (const char* f : {"subPath", "subPathExpr"}) {
        if (!Str(mounts[m], f).empty()) {
          errors.push_back(Forbidden(Child(Index(Child(idx, "volumeMounts"), m), f), "cannot be set for an Ephemeral Container"));
        }
      }
    }
  }
  return errors;
}

}  // namespace kube::validation::core
