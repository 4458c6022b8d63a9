#!/usr/bin/env python3
"""Generates src/protobuf/data/proto_catalogue.json: the protobuf field table of every built-in kind.

Origin: the inputs are the Kubernetes 1.36 `generated.proto` files of k8s.io/api and
k8s.io/apimachinery (written by go-to-protobuf; Kubernetes project, The Kubernetes Authors,
Apache License 2.0; see NOTICE). They are generator INPUTS only: they are NOT part of this
repository and must never be copied into it. Only the derived table below is committed; every
comment and all prose are dropped. JSON names, inlining and required-ness are cross-checked
against the committed src/catalogue/data/catalogue.json (itself derived from the OpenAPI document).

Usage (from the repository root; standard library only):
    tools/gen_proto_catalogue.py [PROTO_ROOT] [-o OUTPUT] [--check]
PROTO_ROOT defaults to ../shared/kubernetes-api/v1.36/proto (the directory holding k8s.io/),
OUTPUT to src/protobuf/data/proto_catalogue.json. --check writes nothing and exits 1 when the
committed file differs from what would be generated.

Output format (one JSON object, one message per line):
  "format": 1, "source": {...}
  "messages": {fully qualified proto message name ("k8s.io.api.core.v1.ConfigMap"):
      [[number, name, type, flags, json?], ...] sorted by field number, where
      type  = scalar type (string, bytes, bool, int32, int64, uint32, uint64, sint32, sint64,
              fixed32, fixed64, sfixed32, sfixed64, double, float) or a fully qualified message
              name; for maps "map:<keytype>:<valuetype>"
      flags = bit set: 1 repeated, 2 required in the OpenAPI schema (kept even when zero/empty),
              4 inline (Go embedded struct: its fields appear in the parent JSON object),
              8 keep an explicitly empty string (a Go *string where "" is meaningful),
              16 drop when zero/false (a Go non-pointer `omitempty` int/bool: gogo always
                 writes it, Go's JSON leaves it out)
      json  = the JSON name, only present when it differs from `name`]
  "wrappers": [message names that are Go named slices (`message X { repeated T items = 1; }`,
              JSON: a plain array)]
"""

import argparse
import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_INPUT = os.path.join(REPO, "..", "shared", "kubernetes-api", "v1.36", "proto")
DEFAULT_OUTPUT = os.path.join(REPO, "src", "protobuf", "data", "proto_catalogue.json")
CATALOGUE = os.path.join(REPO, "src", "catalogue", "data", "catalogue.json")

SOURCE = {
    "project": "Kubernetes (https://kubernetes.io), The Kubernetes Authors",
    "license": "Apache-2.0",
    "document": "Kubernetes 1.36 generated.proto files of k8s.io/api and k8s.io/apimachinery",
}

SCALARS = {"string", "bytes", "bool", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
           "fixed32", "fixed64", "sfixed32", "sfixed64", "double", "float"}

# Go *string fields where an explicitly empty value means something (kube keeps "" in JSON).
KEEP_EMPTY_STRING = {
    ("k8s.io.api.core.v1.PersistentVolumeClaimSpec", "storageClassName"),
}

# Go non-pointer `omitempty` ints/bools of common kinds: protobuf cannot tell them from pointers
# (both are proto2 `optional`), so zero values are kept in JSON except for these.
OMIT_ZERO = {
    ("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta", "generation"),
    ("k8s.io.apimachinery.pkg.apis.meta.v1.Status", "code"),
    ("k8s.io.api.core.v1.Container", "stdin"), ("k8s.io.api.core.v1.Container", "stdinOnce"),
    ("k8s.io.api.core.v1.Container", "tty"),
    ("k8s.io.api.core.v1.EphemeralContainerCommon", "stdin"),
    ("k8s.io.api.core.v1.EphemeralContainerCommon", "stdinOnce"),
    ("k8s.io.api.core.v1.EphemeralContainerCommon", "tty"),
    ("k8s.io.api.core.v1.ContainerPort", "hostPort"),
    ("k8s.io.api.core.v1.VolumeMount", "readOnly"),
    ("k8s.io.api.core.v1.PodSpec", "hostNetwork"), ("k8s.io.api.core.v1.PodSpec", "hostPID"),
    ("k8s.io.api.core.v1.PodSpec", "hostIPC"),
    ("k8s.io.api.core.v1.ServicePort", "nodePort"),
    ("k8s.io.api.core.v1.ServiceSpec", "publishNotReadyAddresses"),
    ("k8s.io.api.apps.v1.DeploymentSpec", "minReadySeconds"),
    ("k8s.io.api.apps.v1.DeploymentSpec", "paused"),
    ("k8s.io.api.apps.v1.DeploymentStatus", "observedGeneration"),
    ("k8s.io.api.apps.v1.DeploymentStatus", "replicas"),
    ("k8s.io.api.apps.v1.DeploymentStatus", "updatedReplicas"),
    ("k8s.io.api.apps.v1.DeploymentStatus", "readyReplicas"),
    ("k8s.io.api.apps.v1.DeploymentStatus", "availableReplicas"),
    ("k8s.io.api.apps.v1.DeploymentStatus", "unavailableReplicas"),
    ("k8s.io.api.batch.v1.JobStatus", "active"), ("k8s.io.api.batch.v1.JobStatus", "succeeded"),
    ("k8s.io.api.batch.v1.JobStatus", "failed"),
}

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_.][A-Za-z0-9_.]*|-?\d+|[{}<>;=,\[\]()]')


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse_proto(text):
    """Returns (package, {message name: [(number, name, type, label, map key)]})."""
    toks = TOKEN.findall(strip_comments(text))
    package, messages, stack, i = "", {}, [], 0

    def qualify(name):
        return ".".join([package] + stack + [name]) if package else ".".join(stack + [name])

    while i < len(toks):
        t = toks[i]
        if t == "package":
            package, i = toks[i + 1], i + 3
        elif t in ("syntax", "import", "option"):
            while toks[i] != ";":
                i += 1
            i += 1
        elif t == "message":
            stack.append(toks[i + 1])
            messages[".".join([package] + stack)] = []
            i += 3  # message NAME {
        elif t == "}":
            stack.pop()
            i += 1
        elif t in ("enum", "oneof", "extend", "service"):
            raise SystemExit("unsupported proto construct %r in package %s" % (t, package))
        elif t == "reserved":
            while toks[i] != ";":
                i += 1
            i += 1
        else:
            cur = messages[".".join([package] + stack)]
            label, key = "", ""
            if t in ("optional", "repeated", "required"):
                label, i = t, i + 1
            if toks[i] == "map":  # map < K , V > name = N ;
                key, vtype, i = toks[i + 2], toks[i + 4], i + 6
                ftype = vtype
            else:
                ftype, i = toks[i], i + 1
            name, number = toks[i], int(toks[i + 2])
            i += 3
            if toks[i] == "[":
                while toks[i] != "]":
                    i += 1
                i += 1
            if toks[i] != ";":
                raise SystemExit("parse error near field %s in %s" % (name, package))
            i += 1
            cur.append((number, name, ftype, label, key))
    return package, messages


def resolve(ftype, package):
    if ftype in SCALARS:
        return ftype
    if ftype.startswith("."):
        return ftype[1:]
    return package + "." + ftype


def definition_name(msg):
    return "io.k8s." + msg[len("k8s.io."):]


def generate(root):
    raw = {}
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if f == "generated.proto":
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    package, msgs = parse_proto(fh.read())
                for name, fields in msgs.items():
                    raw[name] = [(n, fn, resolve(t, package), lab, resolve(k, package) if k else "")
                                 for n, fn, t, lab, k in fields]
    with open(CATALOGUE, encoding="utf-8") as fh:
        defs = json.load(fh)["definitions"]

    def props(msg):
        return (defs.get(definition_name(msg)) or {}).get("properties")

    def json_names(msg):  # every JSON name a message contributes, following inline fields
        out = set()
        for n, fn, t, lab, k in raw.get(msg, []):
            p = props(msg)
            if p is not None and fn not in p and t in raw and not lab == "repeated" and not k:
                out |= json_names(t)
            else:
                out.add(fn)
        return out

    wrappers = sorted(m for m, f in raw.items()
                      if len(f) == 1 and f[0][0] == 1 and f[0][1] == "items"
                      and f[0][3] == "repeated" and definition_name(m) not in defs)
    messages, problems = {}, []
    for msg in sorted(raw):
        p = props(msg)
        required = set((defs.get(definition_name(msg)) or {}).get("required", []))
        out = []
        for n, fn, t, lab, k in sorted(raw[msg]):
            flags = 1 if lab == "repeated" else 0
            jn = fn
            if p is not None and fn not in p:
                lower = {x.lower(): x for x in p}
                if t in raw and not k and lab != "repeated" and json_names(t) <= set(p):
                    flags |= 4
                elif fn.lower() in lower:
                    jn = lower[fn.lower()]
                else:
                    problems.append("%s.%s has no JSON property" % (msg, fn))
            if jn in required:
                flags |= 2
            if (msg, fn) in KEEP_EMPTY_STRING:
                flags |= 8
            if (msg, fn) in OMIT_ZERO:
                flags |= 16
                assert t in ("int32", "int64", "bool"), (msg, fn)
            ty = "map:%s:%s" % (k, t) if k else t
            out.append([n, fn, ty, flags] + ([jn] if jn != fn else []))
        messages[msg] = out
    return messages, wrappers, problems


def render(messages, wrappers):
    lines = ['{"format":1,', '"source":' + json.dumps(SOURCE, separators=(",", ":")) + ",",
             '"wrappers":' + json.dumps(wrappers, separators=(",", ":")) + ",", '"messages":{']
    items = [json.dumps(m) + ":" + json.dumps(f, separators=(",", ":")) for m, f in messages.items()]
    lines.append(",\n".join(items))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("proto_root", nargs="?", default=DEFAULT_INPUT)
    ap.add_argument("-o", "--output", default=DEFAULT_OUTPUT)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    messages, wrappers, problems = generate(args.proto_root)
    for p in problems:
        print("warning: " + p, file=sys.stderr)
    text = render(messages, wrappers)
    json.loads(text)  # must be valid JSON
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as fh:
                same = fh.read() == text
        except OSError:
            same = False
        if not same:
            print("%s is out of date; run tools/gen_proto_catalogue.py" % args.output,
                  file=sys.stderr)
            return 1
        return 0
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write(text)
    print("wrote %s: %d messages" % (args.output, len(messages)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
