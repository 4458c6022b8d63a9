#!/usr/bin/env python3
"""Generates src/catalogue/data/catalogue.json from the Kubernetes OpenAPI v2 document.

Origin: the input is the OpenAPI v2 document of Kubernetes 1.36 (openapi-v2.json, from the
Kubernetes project, Apache License 2.0; see NOTICE). The input is NOT part of this repository and
must never be copied into it; only the derived catalogue below is committed. Every "description"
(the prose) is dropped; what is kept is listed in NOTICE and in the format below.

Usage (from the repository root; standard library only):
    tools/gen_catalogue.py [OPENAPI_JSON] [-o OUTPUT] [--check]
OPENAPI_JSON defaults to ../shared/kubernetes-api/v1.36/openapi-v2.json, OUTPUT to
src/catalogue/data/catalogue.json (both relative to the repository root). --check writes nothing
and exits 1 when the committed file differs from what would be generated.

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


def dumps(value):
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def render(doc):
    resources = derive_resources(doc)
    groups = derive_groups(resources)
    defs, special, dropped = derive_definitions(doc)
    lines = ['{"format":1,', '"source":' + dumps(SOURCE) + ",", '"groups":[']
    lines += [dumps(g) + "," for g in groups]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["],", '"resources":[']
    lines += [json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "," for r in resources]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["],", '"special":' + dumps(special) + ",", '"definitions":{']
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
    args = ap.parse_args()
    try:
        with open(args.input, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        fail(f"cannot read the OpenAPI document: {e}")
    text, resources, groups, defs, dropped = render(doc)
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
