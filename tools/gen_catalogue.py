#!/usr/bin/env python3
"""Generates src/catalogue/data/catalogue.json from the Kubernetes OpenAPI v2 document.

Origin: the input is the OpenAPI v2 document of Kubernetes 1.36 (openapi-v2.json, from the
Kubernetes project, Apache License 2.0; see NOTICE). The input is NOT part of this repository and
must never be copied into it; only the derived catalogue below is committed. Every "description"
(the prose) is dropped; what is kept is listed in NOTICE and in the format below.

Usage (from the repository root; standard library only):
    tools/gen_catalogue.py [OPENAPI_JSON] [-o OUTPUT] [--check] [--go-tags TSV [--print-omit-empty]]
OPENAPI_JSON defaults to ../shared/kubernetes-api/v1.36/openapi-v2.json, OUTPUT to
src/catalogue/data/catalogue.json (both relative to the repository root). --check writes nothing
and exits 1 when the committed file differs from what would be generated. --go-tags derives the
omit-empty table (below) from a TSV of Go struct fields (tools/go_struct_tags.py) instead of the
embedded OMIT_EMPTY; --print-omit-empty prints that table as the literal to embed.

Output format (one JSON object; one group / resource / definition per line so diffs stay small):
  "format": 1
  "source": {"project", "license", "document"}           where the data came from
  "groups": [{"name": "" for core, "versions": [preferred first, kube's version priority
             order: GA > beta > alpha, higher numbers first], "preferred": "v1"}]
  "resources": one object per group/version/resource, sorted by group, version priority, resource:
      "g" group ("" = core)        "v" version          "r" resource (plural)
      "s" singular (lower-case kind)                    "k" kind
      "lk" list kind ("" when the resource cannot be listed)
      "ns" namespaced (bool)       "verbs" discovery verbs, sorted
      "short" shortNames           "cat" categories     (omitted when empty; hand table below)
      "sp" storage prefix, the etcd key prefix under /registry ("" = not stored, e.g. reviews)
      "sub" [{"n" name, "g", "v", "k" group/version/kind of the subresource, "verbs"}]
  "special": {definition name: "int-or-string" | "quantity" | "time" | "any"} definitions whose
      wire form is not what their OpenAPI type says (IntOrString, Quantity, Time, RawExtension ...)
  "omitempty": {definition name: [property names]} the properties whose empty value Go's JSON
      encoder leaves out (`omitempty` on a slice, a map, or a non-pointer string/number/bool):
      [] / {} / "" / 0 / false there is what kube never stores or returns. See OMIT_EMPTY.
  "definitions": {definition name: schema}, the OpenAPI v2 schema vocabulary kept verbatim (so a
      definition can be served as OpenAPI as is) but only these keys: type, format, properties,
      required, items, additionalProperties, $ref ("#/definitions/<name>"), enum,
      x-kubernetes-group-version-kind, -list-type, -list-map-keys, -patch-strategy,
      -patch-merge-key, -int-or-string, -preserve-unknown-fields, -map-type, -embedded-resource.
"""

import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_INPUT = os.path.join(REPO, "..", "shared", "kubernetes-api", "v1.36", "openapi-v2.json")
DEFAULT_OUTPUT = os.path.join(REPO, "src", "catalogue", "data", "catalogue.json")

SOURCE = {
    "project": "Kubernetes (https://kubernetes.io), The Kubernetes Authors",
    "license": "Apache-2.0",
    "document": "Kubernetes 1.36 OpenAPI v2 (openapi-v2.json)",
}

# shortNames and categories are not in the OpenAPI document; these are kube-apiserver's values
# (its ShortNames()/Categories() providers, as served in discovery). Key: (group, resource).
SHORT_NAMES_AND_CATEGORIES = {
    ("", "componentstatuses"): (["cs"], []),
    ("", "configmaps"): (["cm"], []),
    ("", "endpoints"): (["ep"], []),
    ("", "events"): (["ev"], []),
    ("", "limitranges"): (["limits"], []),
    ("", "namespaces"): (["ns"], []),
    ("", "nodes"): (["no"], []),
    ("", "persistentvolumeclaims"): (["pvc"], []),
    ("", "persistentvolumes"): (["pv"], []),
    ("", "pods"): (["po"], ["all"]),
    ("", "replicationcontrollers"): (["rc"], ["all"]),
    ("", "resourcequotas"): (["quota"], []),
    ("", "serviceaccounts"): (["sa"], []),
    ("", "services"): (["svc"], ["all"]),
    ("admissionregistration.k8s.io", "mutatingadmissionpolicies"): ([], ["api-extensions"]),
    ("admissionregistration.k8s.io", "mutatingadmissionpolicybindings"): ([], ["api-extensions"]),
    ("admissionregistration.k8s.io", "mutatingwebhookconfigurations"): ([], ["api-extensions"]),
    ("admissionregistration.k8s.io", "validatingadmissionpolicies"): ([], ["api-extensions"]),
    ("admissionregistration.k8s.io", "validatingadmissionpolicybindings"): ([], ["api-extensions"]),
    ("admissionregistration.k8s.io", "validatingwebhookconfigurations"): ([], ["api-extensions"]),
    ("apiextensions.k8s.io", "customresourcedefinitions"): (["crd", "crds"], ["api-extensions"]),
    ("apiregistration.k8s.io", "apiservices"): ([], ["api-extensions"]),
    ("apps", "daemonsets"): (["ds"], ["all"]),
    ("apps", "deployments"): (["deploy"], ["all"]),
    ("apps", "replicasets"): (["rs"], ["all"]),
    ("apps", "statefulsets"): (["sts"], ["all"]),
    ("autoscaling", "horizontalpodautoscalers"): (["hpa"], ["all"]),
    ("batch", "cronjobs"): (["cj"], ["all"]),
    ("batch", "jobs"): ([], ["all"]),
    ("certificates.k8s.io", "certificatesigningrequests"): (["csr"], []),
    ("events.k8s.io", "events"): (["ev"], []),
    ("extensions", "ingresses"): (["ing"], []),
    ("networking.k8s.io", "ingresses"): (["ing"], []),
    ("networking.k8s.io", "ipaddresses"): (["ip"], []),
    ("networking.k8s.io", "networkpolicies"): (["netpol"], []),
    ("policy", "poddisruptionbudgets"): (["pdb"], []),
    ("scheduling.k8s.io", "priorityclasses"): (["pc"], []),
    ("storage.k8s.io", "storageclasses"): (["sc"], []),
    ("storage.k8s.io", "volumeattributesclasses"): (["vac"], []),
}

# kube-apiserver's etcd layout is /registry/<resource>/[<namespace>/]<name>, except these.
STORAGE_PREFIX_EXCEPTIONS = {
    ("", "replicationcontrollers"): "/controllers",
    ("", "endpoints"): "/services/endpoints",
    ("", "services"): "/services/specs",
    ("", "nodes"): "/minions",
    ("networking.k8s.io", "ingresses"): "/ingress",
    ("extensions", "ingresses"): "/ingress",
    ("apiextensions.k8s.io", "customresourcedefinitions"):
        "/apiextensions.k8s.io/customresourcedefinitions",
    ("apiregistration.k8s.io", "apiservices"): "/apiregistration.k8s.io/apiservices",
}
# Served but never stored: create-only reviews/bindings, and componentstatuses (computed per GET).
NOT_STORED = {
    ("", "bindings"), ("", "componentstatuses"),
    ("authentication.k8s.io", "tokenreviews"), ("authentication.k8s.io", "selfsubjectreviews"),
    ("authorization.k8s.io", "localsubjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectrulesreviews"),
    ("authorization.k8s.io", "subjectaccessreviews"),
}

# Definitions whose wire form is not their OpenAPI type (or that have no structure).
SPECIAL = {
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": "int-or-string",
    "io.k8s.apimachinery.pkg.api.resource.Quantity": "quantity",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time": "time",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": "time",
    "io.k8s.apimachinery.pkg.runtime.RawExtension": "any",
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1": "any",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Patch": "any",
}

# x-kubernetes-action -> discovery verb; "connect" maps per HTTP method (HEAD/OPTIONS: none).
ACTION_VERBS = {"get": "get", "list": "list", "watch": "watch", "watchlist": "watch",
                "post": "create", "put": "update", "patch": "patch", "delete": "delete",
                "deletecollection": "deletecollection"}
CONNECT_VERBS = {"get": "get", "post": "create", "put": "update", "delete": "delete",
                 "patch": "patch"}
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}

SCHEMA_KEYS = {"type", "format", "properties", "required", "items", "additionalProperties", "$ref",
               "enum", "x-kubernetes-group-version-kind", "x-kubernetes-list-type",
               "x-kubernetes-list-map-keys", "x-kubernetes-patch-strategy",
               "x-kubernetes-patch-merge-key", "x-kubernetes-int-or-string",
               "x-kubernetes-preserve-unknown-fields", "x-kubernetes-map-type",
               "x-kubernetes-embedded-resource"}

PATH_RE = re.compile(r"^/(?:api/(v1)|apis/([^/]+)/([^/]+))/(.+)$")
VERSION_RE = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")


def version_priority(version):
    """Sort key in kube's version priority order: v2 < v1 < v1beta2 < v1beta1 < v1alpha1 < other."""
    m = VERSION_RE.match(version)
    if not m:
        return (3, 0, 0, version)
    stage = {None: 0, "beta": 1, "alpha": 2}[m.group(2)]
    return (stage, -int(m.group(1)), -int(m.group(3) or 0), version)


def fail(message):
    sys.exit("gen_catalogue: " + message)


def parse_path(path):
    """-> (group, version, resource, subresource or None, namespaced path?) or None."""
    m = PATH_RE.match(path)
    if not m:
        return None
    group, version = (m.group(2), m.group(3)) if m.group(2) else ("", m.group(1))
    segs = [s for s in m.group(4).split("/") if s]
    if segs and segs[0] == "watch":
        segs = segs[1:]
    namespaced = len(segs) >= 3 and segs[0] == "namespaces" and segs[1] == "{namespace}"
    if namespaced:
        segs = segs[2:]
    if not segs or segs[0].startswith("{"):
        return None
    if len(segs) >= 2 and segs[1] != "{name}":
        fail("unexpected path shape " + path)
    return group, version, segs[0], (segs[2] if len(segs) >= 3 else None), namespaced


def derive_resources(doc):
    res = {}  # (g, v, r) -> dict
    for path, ops in sorted(doc["paths"].items()):
        parsed = parse_path(path)
        if parsed is None:
            continue
        group, version, resource, sub, namespaced = parsed
        for method, op in ops.items():
            if method not in HTTP_METHODS or "x-kubernetes-action" not in op:
                continue
            action = op["x-kubernetes-action"]
            gvk = op.get("x-kubernetes-group-version-kind")
            if gvk is None:
                fail(f"{method} {path}: action without x-kubernetes-group-version-kind")
            verb = CONNECT_VERBS.get(method) if action == "connect" else ACTION_VERBS.get(action)
            if verb is None and action != "connect":
                fail(f"{method} {path}: unknown action {action}")
            r = res.setdefault((group, version, resource), {
                "kinds": set(), "verbs": set(), "ns": False, "lk": "", "sub": {}})
            r["ns"] = r["ns"] or namespaced
            target = r
            if sub is not None:
                target = r["sub"].setdefault(sub, {"kinds": set(), "verbs": set()})
            target["kinds"].add((gvk["group"], gvk["version"], gvk["kind"]))
            if verb:
                target["verbs"].add(verb)
            if sub is None and action == "list":
                ref = op["responses"]["200"]["schema"]["$ref"]
                r["lk"] = ref.rsplit(".", 1)[1]
    out = []
    for (group, version, resource), r in res.items():
        if len(r["kinds"]) != 1:
            fail(f"{group}/{version}/{resource}: kinds {sorted(r['kinds'])}")
        (kg, kv, kind), = r["kinds"]
        if (kg, kv) != (group, version):
            fail(f"{group}/{version}/{resource}: kind from {kg}/{kv}")
        key = (group, resource)
        if key in NOT_STORED:
            prefix = ""
        else:
            if "get" not in r["verbs"]:
                fail(f"{group}/{version}/{resource} has no get: add it to NOT_STORED if kube "
                     "does not store it")
            prefix = STORAGE_PREFIX_EXCEPTIONS.get(key, "/" + resource)
        short, cat = SHORT_NAMES_AND_CATEGORIES.get(key, ([], []))
        entry = {"g": group, "v": version, "r": resource, "s": kind.lower(), "k": kind,
                 "lk": r["lk"], "ns": r["ns"], "verbs": sorted(r["verbs"])}
        if short:
            entry["short"] = short
        if cat:
            entry["cat"] = cat
        entry["sp"] = prefix
        subs = []
        for name, s in sorted(r["sub"].items()):
            if len(s["kinds"]) != 1:
                fail(f"{group}/{version}/{resource}/{name}: kinds {sorted(s['kinds'])}")
            (sg, sv, sk), = s["kinds"]
            subs.append({"n": name, "g": sg, "v": sv, "k": sk, "verbs": sorted(s["verbs"])})
        if subs:
            entry["sub"] = subs
        out.append(entry)
    out.sort(key=lambda e: (e["g"], version_priority(e["v"]), e["r"]))
    return out


def derive_groups(resources):
    versions = defaultdict(set)
    for r in resources:
        versions[r["g"]].add(r["v"])
    groups = []
    for name in sorted(versions):
        vs = sorted(versions[name], key=version_priority)
        groups.append({"name": name, "versions": vs, "preferred": vs[0]})
    return groups


def compact_schema(schema, dropped):
    if isinstance(schema, bool):
        return schema
    out = {}
    for key, value in schema.items():
        if key not in SCHEMA_KEYS:
            dropped[key] += 1
            continue
        if key == "properties":
            value = {n: compact_schema(p, dropped) for n, p in value.items()}
        elif key in ("items", "additionalProperties"):
            value = compact_schema(value, dropped)
        out[key] = value
    return out


def derive_definitions(doc):
    dropped = Counter()
    defs = {name: compact_schema(s, dropped) for name, s in doc["definitions"].items()}
    special = {}
    for name, s in defs.items():
        if name in SPECIAL:
            special[name] = SPECIAL[name]
        elif "type" not in s and "properties" not in s:
            special[name] = "any"  # apiextensions JSON, JSONSchemaPropsOr*: free-form
    missing = set(SPECIAL) - set(defs)
    if missing:
        fail("special definitions missing from the document: " + ", ".join(sorted(missing)))

    def check_refs(s, where):  # walks schemas, not maps: JSONSchemaProps has a "$ref" field
        if not isinstance(s, dict):
            return
        ref = s.get("$ref")
        if ref is not None and ref.removeprefix("#/definitions/") not in defs:
            fail(f"{where}: dangling $ref {ref}")
        for p in s.get("properties", {}).values():
            check_refs(p, where)
        check_refs(s.get("items"), where)
        check_refs(s.get("additionalProperties"), where)
    for name, s in defs.items():
        check_refs(s, name)
    return defs, special, dropped


# Omit-empty properties. Go's JSON encoder leaves out a field tagged `omitempty` when its value is
# empty: an empty slice or map, or the zero value of a non-pointer string, number or bool (a
# pointer is left out only when nil, a struct never). kube decodes every request body into its Go
# types and encodes from them, so such empty values are never stored or returned. OMIT_EMPTY was
# derived from the Go struct tags (json name, pointer?, omitempty?) of k8s.io/api,
# k8s.io/apimachinery and k8s.io/apiextensions-apiserver v0.36 (release-1.36; The Kubernetes
# Authors, Apache-2.0; see NOTICE) and the OpenAPI type of each property. Only names are kept,
# never Go source. Definitions without Go tags here (apiregistration.k8s.io) omit nothing.
# Regenerate with `--go-tags FILE --print-omit-empty` (FILE from tools/go_struct_tags.py).
OMIT_EMPTY = {
    "io.k8s.api.admissionregistration.v1.ApplyConfiguration": "expression",
    "io.k8s.api.admissionregistration.v1.JSONPatch": "expression",
    "io.k8s.api.admissionregistration.v1.MatchResources": "excludeResourceRules resourceRules",
    "io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicy": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBinding": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBindingList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBindingSpec": "policyName",
    "io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec": "matchConditions mutations reinvocationPolicy variables",
    "io.k8s.api.admissionregistration.v1.MutatingWebhook": "matchConditions rules",
    "io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration": "apiVersion kind webhooks",
    "io.k8s.api.admissionregistration.v1.MutatingWebhookConfigurationList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.NamedRuleWithOperations": "apiGroups apiVersions operations resourceNames resources",
    "io.k8s.api.admissionregistration.v1.ParamKind": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.ParamRef": "name namespace",
    "io.k8s.api.admissionregistration.v1.RuleWithOperations": "apiGroups apiVersions operations resources",
    "io.k8s.api.admissionregistration.v1.TypeChecking": "expressionWarnings",
    "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec": "policyName validationActions",
    "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec": "auditAnnotations matchConditions validations variables",
    "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus": "conditions observedGeneration",
    "io.k8s.api.admissionregistration.v1.ValidatingWebhook": "matchConditions rules",
    "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration": "apiVersion kind webhooks",
    "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfigurationList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1.Validation": "message messageExpression",
    "io.k8s.api.admissionregistration.v1.WebhookClientConfig": "caBundle",
    "io.k8s.api.admissionregistration.v1alpha1.ApplyConfiguration": "expression",
    "io.k8s.api.admissionregistration.v1alpha1.JSONPatch": "expression",
    "io.k8s.api.admissionregistration.v1alpha1.MatchResources": "excludeResourceRules resourceRules",
    "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicy": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBinding": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingSpec": "policyName",
    "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec": "matchConditions mutations reinvocationPolicy variables",
    "io.k8s.api.admissionregistration.v1alpha1.NamedRuleWithOperations": "apiGroups apiVersions operations resourceNames resources",
    "io.k8s.api.admissionregistration.v1alpha1.ParamKind": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1alpha1.ParamRef": "name namespace",
    "io.k8s.api.admissionregistration.v1beta1.ApplyConfiguration": "expression",
    "io.k8s.api.admissionregistration.v1beta1.JSONPatch": "expression",
    "io.k8s.api.admissionregistration.v1beta1.MatchResources": "excludeResourceRules resourceRules",
    "io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicy": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBinding": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBindingList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBindingSpec": "policyName",
    "io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicyList": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicySpec": "matchConditions mutations reinvocationPolicy variables",
    "io.k8s.api.admissionregistration.v1beta1.NamedRuleWithOperations": "apiGroups apiVersions operations resourceNames resources",
    "io.k8s.api.admissionregistration.v1beta1.ParamKind": "apiVersion kind",
    "io.k8s.api.admissionregistration.v1beta1.ParamRef": "name namespace",
    "io.k8s.api.apiserverinternal.v1alpha1.ServerStorageVersion": "apiServerID decodableVersions encodingVersion servedVersions",
    "io.k8s.api.apiserverinternal.v1alpha1.StorageVersion": "apiVersion kind",
    "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionCondition": "message observedGeneration",
    "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionList": "apiVersion kind",
    "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionStatus": "conditions storageVersions",
    "io.k8s.api.apps.v1.ControllerRevision": "apiVersion kind",
    "io.k8s.api.apps.v1.ControllerRevisionList": "apiVersion kind",
    "io.k8s.api.apps.v1.DaemonSet": "apiVersion kind",
    "io.k8s.api.apps.v1.DaemonSetCondition": "message reason",
    "io.k8s.api.apps.v1.DaemonSetList": "apiVersion kind",
    "io.k8s.api.apps.v1.DaemonSetSpec": "minReadySeconds",
    "io.k8s.api.apps.v1.DaemonSetStatus": "conditions numberAvailable numberUnavailable observedGeneration updatedNumberScheduled",
    "io.k8s.api.apps.v1.DaemonSetUpdateStrategy": "type",
    "io.k8s.api.apps.v1.Deployment": "apiVersion kind",
    "io.k8s.api.apps.v1.DeploymentCondition": "message reason",
    "io.k8s.api.apps.v1.DeploymentList": "apiVersion kind",
    "io.k8s.api.apps.v1.DeploymentSpec": "minReadySeconds paused",
    "io.k8s.api.apps.v1.DeploymentStatus": "availableReplicas conditions observedGeneration readyReplicas replicas unavailableReplicas updatedReplicas",
    "io.k8s.api.apps.v1.DeploymentStrategy": "type",
    "io.k8s.api.apps.v1.ReplicaSet": "apiVersion kind",
    "io.k8s.api.apps.v1.ReplicaSetCondition": "message reason",
    "io.k8s.api.apps.v1.ReplicaSetList": "apiVersion kind",
    "io.k8s.api.apps.v1.ReplicaSetSpec": "minReadySeconds",
    "io.k8s.api.apps.v1.ReplicaSetStatus": "availableReplicas conditions fullyLabeledReplicas observedGeneration readyReplicas",
    "io.k8s.api.apps.v1.StatefulSet": "apiVersion kind",
    "io.k8s.api.apps.v1.StatefulSetCondition": "message reason",
    "io.k8s.api.apps.v1.StatefulSetList": "apiVersion kind",
    "io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy": "whenDeleted whenScaled",
    "io.k8s.api.apps.v1.StatefulSetSpec": "minReadySeconds podManagementPolicy volumeClaimTemplates",
    "io.k8s.api.apps.v1.StatefulSetStatus": "conditions currentReplicas currentRevision observedGeneration readyReplicas updateRevision updatedReplicas",
    "io.k8s.api.apps.v1.StatefulSetUpdateStrategy": "type",
    "io.k8s.api.authentication.v1.BoundObjectReference": "apiVersion kind name uid",
    "io.k8s.api.authentication.v1.SelfSubjectReview": "apiVersion kind",
    "io.k8s.api.authentication.v1.TokenRequest": "apiVersion kind",
    "io.k8s.api.authentication.v1.TokenReview": "apiVersion kind",
    "io.k8s.api.authentication.v1.TokenReviewSpec": "audiences token",
    "io.k8s.api.authentication.v1.TokenReviewStatus": "audiences authenticated error",
    "io.k8s.api.authentication.v1.UserInfo": "extra groups uid username",
    "io.k8s.api.authorization.v1.FieldSelectorAttributes": "rawSelector requirements",
    "io.k8s.api.authorization.v1.LabelSelectorAttributes": "rawSelector requirements",
    "io.k8s.api.authorization.v1.LocalSubjectAccessReview": "apiVersion kind",
    "io.k8s.api.authorization.v1.NonResourceAttributes": "path verb",
    "io.k8s.api.authorization.v1.NonResourceRule": "nonResourceURLs",
    "io.k8s.api.authorization.v1.ResourceAttributes": "group name namespace resource subresource verb version",
    "io.k8s.api.authorization.v1.ResourceRule": "apiGroups resourceNames resources",
    "io.k8s.api.authorization.v1.SelfSubjectAccessReview": "apiVersion kind",
    "io.k8s.api.authorization.v1.SelfSubjectRulesReview": "apiVersion kind",
    "io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec": "namespace",
    "io.k8s.api.authorization.v1.SubjectAccessReview": "apiVersion kind",
    "io.k8s.api.authorization.v1.SubjectAccessReviewSpec": "extra groups uid user",
    "io.k8s.api.authorization.v1.SubjectAccessReviewStatus": "denied evaluationError reason",
    "io.k8s.api.authorization.v1.SubjectRulesReviewStatus": "evaluationError",
    "io.k8s.api.autoscaling.v1.CrossVersionObjectReference": "apiVersion",
    "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler": "apiVersion kind",
    "io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerList": "apiVersion kind",
    "io.k8s.api.autoscaling.v1.Scale": "apiVersion kind",
    "io.k8s.api.autoscaling.v1.ScaleSpec": "replicas",
    "io.k8s.api.autoscaling.v1.ScaleStatus": "selector",
    "io.k8s.api.autoscaling.v2.CrossVersionObjectReference": "apiVersion",
    "io.k8s.api.autoscaling.v2.HPAScalingRules": "policies",
    "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler": "apiVersion kind",
    "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition": "message reason",
    "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerList": "apiVersion kind",
    "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec": "metrics",
    "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus": "conditions currentReplicas",
    "io.k8s.api.batch.v1.CronJob": "apiVersion kind",
    "io.k8s.api.batch.v1.CronJobList": "apiVersion kind",
    "io.k8s.api.batch.v1.CronJobSpec": "concurrencyPolicy",
    "io.k8s.api.batch.v1.CronJobStatus": "active",
    "io.k8s.api.batch.v1.Job": "apiVersion kind",
    "io.k8s.api.batch.v1.JobCondition": "message reason",
    "io.k8s.api.batch.v1.JobList": "apiVersion kind",
    "io.k8s.api.batch.v1.JobStatus": "active completedIndexes conditions failed succeeded",
    "io.k8s.api.batch.v1.PodFailurePolicyRule": "onPodConditions",
    "io.k8s.api.batch.v1.UncountedTerminatedPods": "failed succeeded",
    "io.k8s.api.certificates.v1.CertificateSigningRequest": "apiVersion kind",
    "io.k8s.api.certificates.v1.CertificateSigningRequestCondition": "message reason",
    "io.k8s.api.certificates.v1.CertificateSigningRequestList": "apiVersion kind",
    "io.k8s.api.certificates.v1.CertificateSigningRequestSpec": "extra groups uid usages username",
    "io.k8s.api.certificates.v1.CertificateSigningRequestStatus": "certificate conditions",
    "io.k8s.api.certificates.v1alpha1.ClusterTrustBundle": "apiVersion kind",
    "io.k8s.api.certificates.v1alpha1.ClusterTrustBundleList": "apiVersion kind",
    "io.k8s.api.certificates.v1alpha1.ClusterTrustBundleSpec": "signerName",
    "io.k8s.api.certificates.v1beta1.ClusterTrustBundle": "apiVersion kind",
    "io.k8s.api.certificates.v1beta1.ClusterTrustBundleList": "apiVersion kind",
    "io.k8s.api.certificates.v1beta1.ClusterTrustBundleSpec": "signerName",
    "io.k8s.api.certificates.v1beta1.PodCertificateRequest": "apiVersion kind",
    "io.k8s.api.certificates.v1beta1.PodCertificateRequestList": "apiVersion kind",
    "io.k8s.api.certificates.v1beta1.PodCertificateRequestSpec": "unverifiedUserAnnotations",
    "io.k8s.api.certificates.v1beta1.PodCertificateRequestStatus": "certificateChain conditions",
    "io.k8s.api.coordination.v1.Lease": "apiVersion kind",
    "io.k8s.api.coordination.v1.LeaseList": "apiVersion kind",
    "io.k8s.api.coordination.v1alpha2.LeaseCandidate": "apiVersion kind",
    "io.k8s.api.coordination.v1alpha2.LeaseCandidateList": "apiVersion kind",
    "io.k8s.api.coordination.v1alpha2.LeaseCandidateSpec": "emulationVersion strategy",
    "io.k8s.api.coordination.v1beta1.LeaseCandidate": "apiVersion kind",
    "io.k8s.api.coordination.v1beta1.LeaseCandidateList": "apiVersion kind",
    "io.k8s.api.coordination.v1beta1.LeaseCandidateSpec": "emulationVersion strategy",
    "io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource": "fsType partition readOnly",
    "io.k8s.api.core.v1.AzureFilePersistentVolumeSource": "readOnly",
    "io.k8s.api.core.v1.AzureFileVolumeSource": "readOnly",
    "io.k8s.api.core.v1.Binding": "apiVersion kind",
    "io.k8s.api.core.v1.CSIPersistentVolumeSource": "fsType readOnly volumeAttributes",
    "io.k8s.api.core.v1.CSIVolumeSource": "volumeAttributes",
    "io.k8s.api.core.v1.Capabilities": "add drop",
    "io.k8s.api.core.v1.CephFSPersistentVolumeSource": "path readOnly secretFile user",
    "io.k8s.api.core.v1.CephFSVolumeSource": "path readOnly secretFile user",
    "io.k8s.api.core.v1.CinderPersistentVolumeSource": "fsType readOnly",
    "io.k8s.api.core.v1.CinderVolumeSource": "fsType readOnly",
    "io.k8s.api.core.v1.ComponentCondition": "error message",
    "io.k8s.api.core.v1.ComponentStatus": "apiVersion conditions kind",
    "io.k8s.api.core.v1.ComponentStatusList": "apiVersion kind",
    "io.k8s.api.core.v1.ConfigMap": "apiVersion binaryData data kind",
    "io.k8s.api.core.v1.ConfigMapEnvSource": "name",
    "io.k8s.api.core.v1.ConfigMapKeySelector": "name",
    "io.k8s.api.core.v1.ConfigMapList": "apiVersion kind",
    "io.k8s.api.core.v1.ConfigMapNodeConfigSource": "resourceVersion uid",
    "io.k8s.api.core.v1.ConfigMapProjection": "items name",
    "io.k8s.api.core.v1.ConfigMapVolumeSource": "items name",
    "io.k8s.api.core.v1.Container": "args command env envFrom image imagePullPolicy ports resizePolicy restartPolicyRules stdin stdinOnce terminationMessagePath terminationMessagePolicy tty volumeDevices volumeMounts workingDir",
    "io.k8s.api.core.v1.ContainerImage": "sizeBytes",
    "io.k8s.api.core.v1.ContainerPort": "hostIP hostPort name protocol",
    "io.k8s.api.core.v1.ContainerRestartRule": "action",
    "io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes": "operator values",
    "io.k8s.api.core.v1.ContainerStateTerminated": "containerID message reason signal",
    "io.k8s.api.core.v1.ContainerStateWaiting": "message reason",
    "io.k8s.api.core.v1.ContainerStatus": "allocatedResources allocatedResourcesStatus containerID volumeMounts",
    "io.k8s.api.core.v1.DownwardAPIProjection": "items",
    "io.k8s.api.core.v1.DownwardAPIVolumeSource": "items",
    "io.k8s.api.core.v1.EmptyDirVolumeSource": "medium",
    "io.k8s.api.core.v1.EndpointAddress": "hostname",
    "io.k8s.api.core.v1.EndpointPort": "name protocol",
    "io.k8s.api.core.v1.EndpointSubset": "addresses notReadyAddresses ports",
    "io.k8s.api.core.v1.Endpoints": "apiVersion kind subsets",
    "io.k8s.api.core.v1.EndpointsList": "apiVersion kind",
    "io.k8s.api.core.v1.EnvFromSource": "prefix",
    "io.k8s.api.core.v1.EnvVar": "value",
    "io.k8s.api.core.v1.EphemeralContainer": "args command env envFrom image imagePullPolicy ports resizePolicy restartPolicyRules stdin stdinOnce targetContainerName terminationMessagePath terminationMessagePolicy tty volumeDevices volumeMounts workingDir",
    "io.k8s.api.core.v1.Event": "action apiVersion count kind message reason type",
    "io.k8s.api.core.v1.EventList": "apiVersion kind",
    "io.k8s.api.core.v1.EventSeries": "count",
    "io.k8s.api.core.v1.EventSource": "component host",
    "io.k8s.api.core.v1.ExecAction": "command",
    "io.k8s.api.core.v1.FCVolumeSource": "fsType readOnly targetWWNs wwids",
    "io.k8s.api.core.v1.FlexPersistentVolumeSource": "fsType options readOnly",
    "io.k8s.api.core.v1.FlexVolumeSource": "fsType options readOnly",
    "io.k8s.api.core.v1.FlockerVolumeSource": "datasetName datasetUUID",
    "io.k8s.api.core.v1.GCEPersistentDiskVolumeSource": "fsType partition readOnly",
    "io.k8s.api.core.v1.GitRepoVolumeSource": "directory revision",
    "io.k8s.api.core.v1.GlusterfsPersistentVolumeSource": "readOnly",
    "io.k8s.api.core.v1.GlusterfsVolumeSource": "readOnly",
    "io.k8s.api.core.v1.HTTPGetAction": "host httpHeaders path scheme",
    "io.k8s.api.core.v1.HostAlias": "hostnames",
    "io.k8s.api.core.v1.ISCSIPersistentVolumeSource": "chapAuthDiscovery chapAuthSession fsType iscsiInterface portals readOnly",
    "io.k8s.api.core.v1.ISCSIVolumeSource": "chapAuthDiscovery chapAuthSession fsType iscsiInterface portals readOnly",
    "io.k8s.api.core.v1.ImageVolumeSource": "pullPolicy reference",
    "io.k8s.api.core.v1.ImageVolumeStatus": "imageRef",
    "io.k8s.api.core.v1.LimitRange": "apiVersion kind",
    "io.k8s.api.core.v1.LimitRangeItem": "default defaultRequest max maxLimitRequestRatio min",
    "io.k8s.api.core.v1.LimitRangeList": "apiVersion kind",
    "io.k8s.api.core.v1.LinuxContainerUser": "supplementalGroups",
    "io.k8s.api.core.v1.LoadBalancerIngress": "hostname ip ports",
    "io.k8s.api.core.v1.LoadBalancerStatus": "ingress",
    "io.k8s.api.core.v1.LocalObjectReference": "name",
    "io.k8s.api.core.v1.ModifyVolumeStatus": "targetVolumeAttributesClassName",
    "io.k8s.api.core.v1.NFSVolumeSource": "readOnly",
    "io.k8s.api.core.v1.Namespace": "apiVersion kind",
    "io.k8s.api.core.v1.NamespaceCondition": "message reason",
    "io.k8s.api.core.v1.NamespaceList": "apiVersion kind",
    "io.k8s.api.core.v1.NamespaceSpec": "finalizers",
    "io.k8s.api.core.v1.NamespaceStatus": "conditions phase",
    "io.k8s.api.core.v1.Node": "apiVersion kind",
    "io.k8s.api.core.v1.NodeAffinity": "preferredDuringSchedulingIgnoredDuringExecution",
    "io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus": "containers",
    "io.k8s.api.core.v1.NodeCondition": "message reason",
    "io.k8s.api.core.v1.NodeConfigStatus": "error",
    "io.k8s.api.core.v1.NodeList": "apiVersion kind",
    "io.k8s.api.core.v1.NodeSelectorRequirement": "values",
    "io.k8s.api.core.v1.NodeSelectorTerm": "matchExpressions matchFields",
    "io.k8s.api.core.v1.NodeSpec": "externalID podCIDR podCIDRs providerID taints unschedulable",
    "io.k8s.api.core.v1.NodeStatus": "addresses allocatable capacity conditions declaredFeatures images phase runtimeHandlers volumesAttached volumesInUse",
    "io.k8s.api.core.v1.ObjectFieldSelector": "apiVersion",
    "io.k8s.api.core.v1.ObjectReference": "apiVersion fieldPath kind name namespace resourceVersion uid",
    "io.k8s.api.core.v1.PersistentVolume": "apiVersion kind",
    "io.k8s.api.core.v1.PersistentVolumeClaim": "apiVersion kind",
    "io.k8s.api.core.v1.PersistentVolumeClaimCondition": "message reason",
    "io.k8s.api.core.v1.PersistentVolumeClaimList": "apiVersion kind",
    "io.k8s.api.core.v1.PersistentVolumeClaimSpec": "accessModes volumeName",
    "io.k8s.api.core.v1.PersistentVolumeClaimStatus": "accessModes allocatedResourceStatuses allocatedResources capacity conditions phase",
    "io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource": "readOnly",
    "io.k8s.api.core.v1.PersistentVolumeList": "apiVersion kind",
    "io.k8s.api.core.v1.PersistentVolumeSpec": "accessModes capacity mountOptions persistentVolumeReclaimPolicy storageClassName",
    "io.k8s.api.core.v1.PersistentVolumeStatus": "message phase reason",
    "io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource": "fsType",
    "io.k8s.api.core.v1.Pod": "apiVersion kind",
    "io.k8s.api.core.v1.PodAffinity": "preferredDuringSchedulingIgnoredDuringExecution requiredDuringSchedulingIgnoredDuringExecution",
    "io.k8s.api.core.v1.PodAffinityTerm": "matchLabelKeys mismatchLabelKeys namespaces",
    "io.k8s.api.core.v1.PodAntiAffinity": "preferredDuringSchedulingIgnoredDuringExecution requiredDuringSchedulingIgnoredDuringExecution",
    "io.k8s.api.core.v1.PodCertificateProjection": "certificateChainPath credentialBundlePath keyPath keyType signerName userAnnotations",
    "io.k8s.api.core.v1.PodCondition": "message observedGeneration reason",
    "io.k8s.api.core.v1.PodDNSConfig": "nameservers options searches",
    "io.k8s.api.core.v1.PodDNSConfigOption": "name",
    "io.k8s.api.core.v1.PodList": "apiVersion kind",
    "io.k8s.api.core.v1.PodSecurityContext": "supplementalGroups sysctls",
    "io.k8s.api.core.v1.PodSpec": "dnsPolicy ephemeralContainers hostAliases hostIPC hostNetwork hostPID hostname imagePullSecrets initContainers nodeName nodeSelector overhead priorityClassName readinessGates resourceClaims restartPolicy schedulerName schedulingGates serviceAccount serviceAccountName subdomain tolerations topologySpreadConstraints volumes",
    "io.k8s.api.core.v1.PodStatus": "allocatedResources conditions containerStatuses ephemeralContainerStatuses hostIP hostIPs initContainerStatuses message nodeAllocatableResourceClaimStatuses nominatedNodeName observedGeneration phase podIP podIPs qosClass reason resize resourceClaimStatuses",
    "io.k8s.api.core.v1.PodTemplate": "apiVersion kind",
    "io.k8s.api.core.v1.PodTemplateList": "apiVersion kind",
    "io.k8s.api.core.v1.PortworxVolumeSource": "fsType readOnly",
    "io.k8s.api.core.v1.Probe": "failureThreshold initialDelaySeconds periodSeconds successThreshold timeoutSeconds",
    "io.k8s.api.core.v1.QuobyteVolumeSource": "group readOnly tenant user",
    "io.k8s.api.core.v1.RBDPersistentVolumeSource": "fsType keyring pool readOnly user",
    "io.k8s.api.core.v1.RBDVolumeSource": "fsType keyring pool readOnly user",
    "io.k8s.api.core.v1.ReplicationController": "apiVersion kind",
    "io.k8s.api.core.v1.ReplicationControllerCondition": "message reason",
    "io.k8s.api.core.v1.ReplicationControllerList": "apiVersion kind",
    "io.k8s.api.core.v1.ReplicationControllerSpec": "minReadySeconds selector",
    "io.k8s.api.core.v1.ReplicationControllerStatus": "availableReplicas conditions fullyLabeledReplicas observedGeneration readyReplicas",
    "io.k8s.api.core.v1.ResourceClaim": "request",
    "io.k8s.api.core.v1.ResourceFieldSelector": "containerName",
    "io.k8s.api.core.v1.ResourceHealth": "health",
    "io.k8s.api.core.v1.ResourceQuota": "apiVersion kind",
    "io.k8s.api.core.v1.ResourceQuotaList": "apiVersion kind",
    "io.k8s.api.core.v1.ResourceQuotaSpec": "hard scopes",
    "io.k8s.api.core.v1.ResourceQuotaStatus": "hard used",
    "io.k8s.api.core.v1.ResourceRequirements": "claims limits requests",
    "io.k8s.api.core.v1.ResourceStatus": "resources",
    "io.k8s.api.core.v1.SELinuxOptions": "level role type user",
    "io.k8s.api.core.v1.ScaleIOPersistentVolumeSource": "fsType protectionDomain readOnly sslEnabled storageMode storagePool volumeName",
    "io.k8s.api.core.v1.ScaleIOVolumeSource": "fsType protectionDomain readOnly sslEnabled storageMode storagePool volumeName",
    "io.k8s.api.core.v1.ScopeSelector": "matchExpressions",
    "io.k8s.api.core.v1.ScopedResourceSelectorRequirement": "values",
    "io.k8s.api.core.v1.Secret": "apiVersion data kind stringData type",
    "io.k8s.api.core.v1.SecretEnvSource": "name",
    "io.k8s.api.core.v1.SecretKeySelector": "name",
    "io.k8s.api.core.v1.SecretList": "apiVersion kind",
    "io.k8s.api.core.v1.SecretProjection": "items name",
    "io.k8s.api.core.v1.SecretReference": "name namespace",
    "io.k8s.api.core.v1.SecretVolumeSource": "items secretName",
    "io.k8s.api.core.v1.Service": "apiVersion kind",
    "io.k8s.api.core.v1.ServiceAccount": "apiVersion imagePullSecrets kind secrets",
    "io.k8s.api.core.v1.ServiceAccountList": "apiVersion kind",
    "io.k8s.api.core.v1.ServiceAccountTokenProjection": "audience",
    "io.k8s.api.core.v1.ServiceList": "apiVersion kind",
    "io.k8s.api.core.v1.ServicePort": "name nodePort protocol",
    "io.k8s.api.core.v1.ServiceSpec": "clusterIP clusterIPs externalIPs externalName externalTrafficPolicy healthCheckNodePort ipFamilies loadBalancerIP loadBalancerSourceRanges ports publishNotReadyAddresses selector sessionAffinity type",
    "io.k8s.api.core.v1.ServiceStatus": "conditions",
    "io.k8s.api.core.v1.StorageOSPersistentVolumeSource": "fsType readOnly volumeName volumeNamespace",
    "io.k8s.api.core.v1.StorageOSVolumeSource": "fsType readOnly volumeName volumeNamespace",
    "io.k8s.api.core.v1.TCPSocketAction": "host",
    "io.k8s.api.core.v1.Taint": "value",
    "io.k8s.api.core.v1.Toleration": "effect key operator value",
    "io.k8s.api.core.v1.TopologySelectorTerm": "matchLabelExpressions",
    "io.k8s.api.core.v1.TopologySpreadConstraint": "matchLabelKeys",
    "io.k8s.api.core.v1.VolumeMount": "readOnly subPath subPathExpr",
    "io.k8s.api.core.v1.VolumeMountStatus": "readOnly",
    "io.k8s.api.core.v1.VolumeResourceRequirements": "limits requests",
    "io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource": "fsType storagePolicyID storagePolicyName",
    "io.k8s.api.discovery.v1.Endpoint": "deprecatedTopology",
    "io.k8s.api.discovery.v1.EndpointHints": "forNodes forZones",
    "io.k8s.api.discovery.v1.EndpointSlice": "apiVersion kind",
    "io.k8s.api.discovery.v1.EndpointSliceList": "apiVersion kind",
    "io.k8s.api.events.v1.Event": "action apiVersion deprecatedCount kind note reason reportingController reportingInstance type",
    "io.k8s.api.events.v1.EventList": "apiVersion kind",
    "io.k8s.api.flowcontrol.v1.FlowSchema": "apiVersion kind",
    "io.k8s.api.flowcontrol.v1.FlowSchemaCondition": "message reason status type",
    "io.k8s.api.flowcontrol.v1.FlowSchemaList": "apiVersion kind",
    "io.k8s.api.flowcontrol.v1.FlowSchemaSpec": "rules",
    "io.k8s.api.flowcontrol.v1.FlowSchemaStatus": "conditions",
    "io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects": "nonResourceRules resourceRules",
    "io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration": "apiVersion kind",
    "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationCondition": "message reason status type",
    "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationList": "apiVersion kind",
    "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus": "conditions",
    "io.k8s.api.flowcontrol.v1.ResourcePolicyRule": "clusterScope",
    "io.k8s.api.networking.v1.HTTPIngressPath": "path",
    "io.k8s.api.networking.v1.IPAddress": "apiVersion kind",
    "io.k8s.api.networking.v1.IPAddressList": "apiVersion kind",
    "io.k8s.api.networking.v1.IPBlock": "except",
    "io.k8s.api.networking.v1.Ingress": "apiVersion kind",
    "io.k8s.api.networking.v1.IngressClass": "apiVersion kind",
    "io.k8s.api.networking.v1.IngressClassList": "apiVersion kind",
    "io.k8s.api.networking.v1.IngressClassSpec": "controller",
    "io.k8s.api.networking.v1.IngressList": "apiVersion kind",
    "io.k8s.api.networking.v1.IngressLoadBalancerIngress": "hostname ip ports",
    "io.k8s.api.networking.v1.IngressLoadBalancerStatus": "ingress",
    "io.k8s.api.networking.v1.IngressRule": "host",
    "io.k8s.api.networking.v1.IngressSpec": "rules tls",
    "io.k8s.api.networking.v1.IngressTLS": "hosts secretName",
    "io.k8s.api.networking.v1.NetworkPolicy": "apiVersion kind",
    "io.k8s.api.networking.v1.NetworkPolicyEgressRule": "ports to",
    "io.k8s.api.networking.v1.NetworkPolicyIngressRule": "from ports",
    "io.k8s.api.networking.v1.NetworkPolicyList": "apiVersion kind",
    "io.k8s.api.networking.v1.NetworkPolicySpec": "egress ingress policyTypes",
    "io.k8s.api.networking.v1.ParentReference": "group name namespace resource",
    "io.k8s.api.networking.v1.ServiceBackendPort": "name number",
    "io.k8s.api.networking.v1.ServiceCIDR": "apiVersion kind",
    "io.k8s.api.networking.v1.ServiceCIDRList": "apiVersion kind",
    "io.k8s.api.networking.v1.ServiceCIDRSpec": "cidrs",
    "io.k8s.api.networking.v1.ServiceCIDRStatus": "conditions",
    "io.k8s.api.networking.v1beta1.IPAddress": "apiVersion kind",
    "io.k8s.api.networking.v1beta1.IPAddressList": "apiVersion kind",
    "io.k8s.api.networking.v1beta1.ParentReference": "group name namespace resource",
    "io.k8s.api.networking.v1beta1.ServiceCIDR": "apiVersion kind",
    "io.k8s.api.networking.v1beta1.ServiceCIDRList": "apiVersion kind",
    "io.k8s.api.networking.v1beta1.ServiceCIDRSpec": "cidrs",
    "io.k8s.api.networking.v1beta1.ServiceCIDRStatus": "conditions",
    "io.k8s.api.node.v1.Overhead": "podFixed",
    "io.k8s.api.node.v1.RuntimeClass": "apiVersion kind",
    "io.k8s.api.node.v1.RuntimeClassList": "apiVersion kind",
    "io.k8s.api.node.v1.Scheduling": "nodeSelector tolerations",
    "io.k8s.api.policy.v1.Eviction": "apiVersion kind",
    "io.k8s.api.policy.v1.PodDisruptionBudget": "apiVersion kind",
    "io.k8s.api.policy.v1.PodDisruptionBudgetList": "apiVersion kind",
    "io.k8s.api.policy.v1.PodDisruptionBudgetStatus": "conditions disruptedPods observedGeneration",
    "io.k8s.api.rbac.v1.AggregationRule": "clusterRoleSelectors",
    "io.k8s.api.rbac.v1.ClusterRole": "apiVersion kind",
    "io.k8s.api.rbac.v1.ClusterRoleBinding": "apiVersion kind subjects",
    "io.k8s.api.rbac.v1.ClusterRoleBindingList": "apiVersion kind",
    "io.k8s.api.rbac.v1.ClusterRoleList": "apiVersion kind",
    "io.k8s.api.rbac.v1.PolicyRule": "apiGroups nonResourceURLs resourceNames resources",
    "io.k8s.api.rbac.v1.Role": "apiVersion kind",
    "io.k8s.api.rbac.v1.RoleBinding": "apiVersion kind subjects",
    "io.k8s.api.rbac.v1.RoleBindingList": "apiVersion kind",
    "io.k8s.api.rbac.v1.RoleList": "apiVersion kind",
    "io.k8s.api.rbac.v1.Subject": "apiGroup namespace",
    "io.k8s.api.resource.v1.CapacityRequestPolicy": "validValues",
    "io.k8s.api.resource.v1.CapacityRequirements": "requests",
    "io.k8s.api.resource.v1.CounterSet": "counters",
    "io.k8s.api.resource.v1.Device": "attributes bindingConditions bindingFailureConditions capacity consumesCounters nodeAllocatableResourceMappings taints",
    "io.k8s.api.resource.v1.DeviceAllocationConfiguration": "requests",
    "io.k8s.api.resource.v1.DeviceAllocationResult": "config results",
    "io.k8s.api.resource.v1.DeviceAttribute": "bools ints strings versions",
    "io.k8s.api.resource.v1.DeviceClaim": "config constraints",
    "io.k8s.api.resource.v1.DeviceClaimConfiguration": "requests",
    "io.k8s.api.resource.v1.DeviceClass": "apiVersion kind",
    "io.k8s.api.resource.v1.DeviceClassList": "apiVersion kind",
    "io.k8s.api.resource.v1.DeviceClassSpec": "config selectors",
    "io.k8s.api.resource.v1.DeviceConstraint": "requests",
    "io.k8s.api.resource.v1.DeviceCounterConsumption": "counters",
    "io.k8s.api.resource.v1.DeviceRequest": "firstAvailable",
    "io.k8s.api.resource.v1.DeviceRequestAllocationResult": "bindingConditions bindingFailureConditions consumedCapacity tolerations",
    "io.k8s.api.resource.v1.DeviceSubRequest": "allocationMode count selectors tolerations",
    "io.k8s.api.resource.v1.DeviceTaint": "value",
    "io.k8s.api.resource.v1.DeviceToleration": "effect key operator value",
    "io.k8s.api.resource.v1.ExactDeviceRequest": "allocationMode count selectors tolerations",
    "io.k8s.api.resource.v1.NetworkDeviceData": "hardwareAddress interfaceName ips",
    "io.k8s.api.resource.v1.ResourceClaim": "apiVersion kind",
    "io.k8s.api.resource.v1.ResourceClaimConsumerReference": "apiGroup",
    "io.k8s.api.resource.v1.ResourceClaimList": "apiVersion kind",
    "io.k8s.api.resource.v1.ResourceClaimStatus": "devices reservedFor",
    "io.k8s.api.resource.v1.ResourceClaimTemplate": "apiVersion kind",
    "io.k8s.api.resource.v1.ResourceClaimTemplateList": "apiVersion kind",
    "io.k8s.api.resource.v1.ResourceSlice": "apiVersion kind",
    "io.k8s.api.resource.v1.ResourceSliceList": "apiVersion kind",
    "io.k8s.api.resource.v1.ResourceSliceSpec": "devices sharedCounters",
    "io.k8s.api.resource.v1alpha3.DeviceTaint": "value",
    "io.k8s.api.resource.v1alpha3.DeviceTaintRule": "apiVersion kind",
    "io.k8s.api.resource.v1alpha3.DeviceTaintRuleList": "apiVersion kind",
    "io.k8s.api.resource.v1alpha3.DeviceTaintRuleStatus": "conditions",
    "io.k8s.api.resource.v1alpha3.PoolStatus": "driver poolName",
    "io.k8s.api.resource.v1alpha3.ResourcePoolStatusRequest": "apiVersion kind",
    "io.k8s.api.resource.v1alpha3.ResourcePoolStatusRequestList": "apiVersion kind",
    "io.k8s.api.resource.v1alpha3.ResourcePoolStatusRequestStatus": "conditions pools",
    "io.k8s.api.resource.v1beta1.BasicDevice": "attributes bindingConditions bindingFailureConditions capacity consumesCounters nodeAllocatableResourceMappings taints",
    "io.k8s.api.resource.v1beta1.CapacityRequestPolicy": "validValues",
    "io.k8s.api.resource.v1beta1.CapacityRequirements": "requests",
    "io.k8s.api.resource.v1beta1.CounterSet": "counters",
    "io.k8s.api.resource.v1beta1.DeviceAllocationConfiguration": "requests",
    "io.k8s.api.resource.v1beta1.DeviceAllocationResult": "config results",
    "io.k8s.api.resource.v1beta1.DeviceAttribute": "bools ints strings versions",
    "io.k8s.api.resource.v1beta1.DeviceClaim": "config constraints",
    "io.k8s.api.resource.v1beta1.DeviceClaimConfiguration": "requests",
    "io.k8s.api.resource.v1beta1.DeviceClass": "apiVersion kind",
    "io.k8s.api.resource.v1beta1.DeviceClassList": "apiVersion kind",
    "io.k8s.api.resource.v1beta1.DeviceClassSpec": "config selectors",
    "io.k8s.api.resource.v1beta1.DeviceConstraint": "requests",
    "io.k8s.api.resource.v1beta1.DeviceCounterConsumption": "counters",
    "io.k8s.api.resource.v1beta1.DeviceRequest": "allocationMode count firstAvailable selectors tolerations",
    "io.k8s.api.resource.v1beta1.DeviceRequestAllocationResult": "bindingConditions bindingFailureConditions consumedCapacity tolerations",
    "io.k8s.api.resource.v1beta1.DeviceSubRequest": "allocationMode count selectors tolerations",
    "io.k8s.api.resource.v1beta1.DeviceTaint": "value",
    "io.k8s.api.resource.v1beta1.DeviceToleration": "effect key operator value",
    "io.k8s.api.resource.v1beta1.NetworkDeviceData": "hardwareAddress interfaceName ips",
    "io.k8s.api.resource.v1beta1.ResourceClaim": "apiVersion kind",
    "io.k8s.api.resource.v1beta1.ResourceClaimConsumerReference": "apiGroup",
    "io.k8s.api.resource.v1beta1.ResourceClaimList": "apiVersion kind",
    "io.k8s.api.resource.v1beta1.ResourceClaimStatus": "devices reservedFor",
    "io.k8s.api.resource.v1beta1.ResourceClaimTemplate": "apiVersion kind",
    "io.k8s.api.resource.v1beta1.ResourceClaimTemplateList": "apiVersion kind",
    "io.k8s.api.resource.v1beta1.ResourceSlice": "apiVersion kind",
    "io.k8s.api.resource.v1beta1.ResourceSliceList": "apiVersion kind",
    "io.k8s.api.resource.v1beta1.ResourceSliceSpec": "allNodes devices nodeName sharedCounters",
    "io.k8s.api.resource.v1beta2.CapacityRequestPolicy": "validValues",
    "io.k8s.api.resource.v1beta2.CapacityRequirements": "requests",
    "io.k8s.api.resource.v1beta2.CounterSet": "counters",
    "io.k8s.api.resource.v1beta2.Device": "attributes bindingConditions bindingFailureConditions capacity consumesCounters nodeAllocatableResourceMappings taints",
    "io.k8s.api.resource.v1beta2.DeviceAllocationConfiguration": "requests",
    "io.k8s.api.resource.v1beta2.DeviceAllocationResult": "config results",
    "io.k8s.api.resource.v1beta2.DeviceAttribute": "bools ints strings versions",
    "io.k8s.api.resource.v1beta2.DeviceClaim": "config constraints",
    "io.k8s.api.resource.v1beta2.DeviceClaimConfiguration": "requests",
    "io.k8s.api.resource.v1beta2.DeviceClass": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.DeviceClassList": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.DeviceClassSpec": "config selectors",
    "io.k8s.api.resource.v1beta2.DeviceConstraint": "requests",
    "io.k8s.api.resource.v1beta2.DeviceCounterConsumption": "counters",
    "io.k8s.api.resource.v1beta2.DeviceRequest": "firstAvailable",
    "io.k8s.api.resource.v1beta2.DeviceRequestAllocationResult": "bindingConditions bindingFailureConditions consumedCapacity tolerations",
    "io.k8s.api.resource.v1beta2.DeviceSubRequest": "allocationMode count selectors tolerations",
    "io.k8s.api.resource.v1beta2.DeviceTaint": "value",
    "io.k8s.api.resource.v1beta2.DeviceTaintRule": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.DeviceTaintRuleList": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.DeviceTaintRuleStatus": "conditions",
    "io.k8s.api.resource.v1beta2.DeviceToleration": "effect key operator value",
    "io.k8s.api.resource.v1beta2.ExactDeviceRequest": "allocationMode count selectors tolerations",
    "io.k8s.api.resource.v1beta2.NetworkDeviceData": "hardwareAddress interfaceName ips",
    "io.k8s.api.resource.v1beta2.ResourceClaim": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.ResourceClaimConsumerReference": "apiGroup",
    "io.k8s.api.resource.v1beta2.ResourceClaimList": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.ResourceClaimStatus": "devices reservedFor",
    "io.k8s.api.resource.v1beta2.ResourceClaimTemplate": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.ResourceClaimTemplateList": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.ResourceSlice": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.ResourceSliceList": "apiVersion kind",
    "io.k8s.api.resource.v1beta2.ResourceSliceSpec": "devices sharedCounters",
    "io.k8s.api.scheduling.v1.PriorityClass": "apiVersion description globalDefault kind",
    "io.k8s.api.scheduling.v1.PriorityClassList": "apiVersion kind",
    "io.k8s.api.scheduling.v1alpha2.PodGroup": "apiVersion kind",
    "io.k8s.api.scheduling.v1alpha2.PodGroupList": "apiVersion kind",
    "io.k8s.api.scheduling.v1alpha2.PodGroupSchedulingConstraints": "topology",
    "io.k8s.api.scheduling.v1alpha2.PodGroupSpec": "priorityClassName resourceClaims",
    "io.k8s.api.scheduling.v1alpha2.PodGroupStatus": "conditions resourceClaimStatuses",
    "io.k8s.api.scheduling.v1alpha2.PodGroupTemplate": "priorityClassName resourceClaims",
    "io.k8s.api.scheduling.v1alpha2.TypedLocalObjectReference": "apiGroup",
    "io.k8s.api.scheduling.v1alpha2.Workload": "apiVersion kind",
    "io.k8s.api.scheduling.v1alpha2.WorkloadList": "apiVersion kind",
    "io.k8s.api.storage.v1.CSIDriver": "apiVersion kind",
    "io.k8s.api.storage.v1.CSIDriverList": "apiVersion kind",
    "io.k8s.api.storage.v1.CSIDriverSpec": "tokenRequests volumeLifecycleModes",
    "io.k8s.api.storage.v1.CSINode": "apiVersion kind",
    "io.k8s.api.storage.v1.CSINodeList": "apiVersion kind",
    "io.k8s.api.storage.v1.CSIStorageCapacity": "apiVersion kind",
    "io.k8s.api.storage.v1.CSIStorageCapacityList": "apiVersion kind",
    "io.k8s.api.storage.v1.StorageClass": "allowedTopologies apiVersion kind mountOptions parameters",
    "io.k8s.api.storage.v1.StorageClassList": "apiVersion kind",
    "io.k8s.api.storage.v1.VolumeAttachment": "apiVersion kind",
    "io.k8s.api.storage.v1.VolumeAttachmentList": "apiVersion kind",
    "io.k8s.api.storage.v1.VolumeAttachmentStatus": "attachmentMetadata",
    "io.k8s.api.storage.v1.VolumeAttributesClass": "apiVersion kind parameters",
    "io.k8s.api.storage.v1.VolumeAttributesClassList": "apiVersion kind",
    "io.k8s.api.storage.v1.VolumeError": "message",
    "io.k8s.api.storage.v1beta1.VolumeAttributesClass": "apiVersion kind parameters",
    "io.k8s.api.storage.v1beta1.VolumeAttributesClassList": "apiVersion kind",
    "io.k8s.api.storagemigration.v1beta1.StorageVersionMigration": "apiVersion kind",
    "io.k8s.api.storagemigration.v1beta1.StorageVersionMigrationList": "apiVersion kind",
    "io.k8s.api.storagemigration.v1beta1.StorageVersionMigrationStatus": "conditions resourceVersion",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition": "description format priority",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition": "apiVersion kind",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition": "message observedGeneration reason",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionList": "apiVersion kind",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames": "categories listKind shortNames singular",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec": "preserveUnknownFields",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus": "observedGeneration",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion": "additionalPrinterColumns deprecated selectableFields",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation": "description url",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps": "$schema allOf anyOf definitions dependencies description enum exclusiveMaximum exclusiveMinimum format id nullable oneOf pattern patternProperties properties required title type uniqueItems x-kubernetes-embedded-resource x-kubernetes-int-or-string x-kubernetes-list-map-keys x-kubernetes-validations",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule": "fieldPath message messageExpression",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig": "caBundle",
    "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup": "apiVersion kind serverAddressByClientCIDRs",
    "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList": "apiVersion kind",
    "io.k8s.apimachinery.pkg.apis.meta.v1.APIResource": "categories group shortNames storageVersionHash version",
    "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList": "apiVersion kind",
    "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions": "apiVersion kind",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Condition": "observedGeneration",
    "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions": "apiVersion dryRun kind",
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement": "values",
    "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector": "matchExpressions matchLabels",
    "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement": "values",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta": "continue resourceVersion selfLink",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry": "apiVersion fieldsType manager operation subresource",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": "annotations finalizers generateName generation labels managedFields name namespace ownerReferences resourceVersion selfLink uid",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Status": "apiVersion code kind message reason status",
    "io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause": "field message reason",
    "io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails": "causes group kind name retryAfterSeconds uid",
    "io.k8s.apimachinery.pkg.version.Info": "emulationMajor emulationMinor minCompatibilityMajor minCompatibilityMinor",
}


def message_name(definition):
    """The protobuf message name go-to-protobuf gives the Go struct of an OpenAPI definition."""
    return "k8s.io." + definition.removeprefix("io.k8s.").replace("-", "_")


def read_omit_empty(path, definitions):
    """Derives OMIT_EMPTY from a TSV of Go struct fields and the OpenAPI property types."""
    rows = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 7:
                rows.setdefault(cols[0], []).append(cols)

    def fields(message, seen=()):
        out = {}
        for cols in rows.get(message, []):
            if cols[3]:
                out[cols[3]] = cols
            elif cols[6] not in seen:  # an embedded struct: its fields are this object's
                for name, embedded in fields(cols[6], seen + (message,)).items():
                    out.setdefault(name, embedded)
        return out

    table = {}
    for name, schema in definitions.items():
        go = fields(message_name(name))
        omit = []
        for prop, ps in (schema.get("properties") or {}).items():
            cols = go.get(prop)
            if cols is None or cols[5] != "1" or cols[4] == "1" or "$ref" in ps:
                continue  # unknown, not omitempty, a pointer, or a struct (never empty)
            t = ps.get("type")
            if t in ("array", "string", "integer", "number", "boolean") or (
                    t == "object" and "additionalProperties" in ps):
                omit.append(prop)
        if omit:
            table[name] = " ".join(sorted(omit))
    return table


def format_omit_empty(table):
    lines = ["OMIT_EMPTY = {"]
    for name in sorted(table):
        lines.append("    %s: %s," % (json.dumps(name), json.dumps(table[name])))
    return "\n".join(lines + ["}"]) + "\n"


def derive_omit_empty(defs, table):
    out = {}
    for name, fields in sorted(table.items()):
        props = (defs.get(name) or {}).get("properties")
        if props is None:
            fail(f"OMIT_EMPTY: no definition {name}")
        names = fields.split()
        for f in names:
            p = props.get(f)
            if p is None or "$ref" in p:
                fail(f"OMIT_EMPTY: {name}.{f} is not a property that can be empty")
        out[name] = names
    return out


def dumps(value):
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def render(doc, omit_table):
    resources = derive_resources(doc)
    groups = derive_groups(resources)
    defs, special, dropped = derive_definitions(doc)
    omit_empty = derive_omit_empty(defs, omit_table)
    lines = ['{"format":1,', '"source":' + dumps(SOURCE) + ",", '"groups":[']
    lines += [dumps(g) + "," for g in groups]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["],", '"resources":[']
    lines += [json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "," for r in resources]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["],", '"special":' + dumps(special) + ",", '"omitempty":{']
    lines += [dumps(name) + ":" + dumps(fields) + "," for name, fields in omit_empty.items()]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["},", '"definitions":{']
    lines += [dumps(name) + ":" + dumps(defs[name]) + "," for name in sorted(defs)]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["}}"]
    text = "\n".join(lines) + "\n"
    # The hand-assembled layout must still be one valid document, and free of prose. A field
    # *named* "description" (PriorityClass, JSONSchemaProps ...) stays: its value is a schema.
    def check_no_prose(v):
        if isinstance(v, dict):
            if isinstance(v.get("description"), str):
                fail('a "description" survived compaction')
            for x in v.values():
                check_no_prose(x)
        elif isinstance(v, list):
            for x in v:
                check_no_prose(x)
    check_no_prose(json.loads(text))
    return text, resources, groups, defs, dropped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", nargs="?", default=DEFAULT_INPUT)
    ap.add_argument("-o", "--output", default=DEFAULT_OUTPUT)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--go-tags", metavar="TSV",
                    help="derive the omit-empty table from this TSV of Go struct fields "
                         "(tools/go_struct_tags.py) instead of the embedded OMIT_EMPTY")
    ap.add_argument("--print-omit-empty", action="store_true",
                    help="print the OMIT_EMPTY literal derived from --go-tags and exit")
    args = ap.parse_args()
    try:
        with open(args.input, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        fail(f"cannot read the OpenAPI document: {e}")
    omit_table = (read_omit_empty(args.go_tags, doc["definitions"]) if args.go_tags
                  else OMIT_EMPTY)
    if args.print_omit_empty:
        sys.stdout.write(format_omit_empty(omit_table))
        return 0
    text, resources, groups, defs, dropped = render(doc, omit_table)
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                same = f.read() == text
        except OSError:
            same = False
        print(f"{args.output}: {'up to date' if same else 'OUT OF DATE'}")
        return 0 if same else 1
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{args.output}: {len(text)} bytes, {len(groups)} groups, {len(resources)} resources, "
          f"{len(defs)} definitions; dropped keys: "
          + ", ".join(f"{k} x{n}" for k, n in sorted(dropped.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
