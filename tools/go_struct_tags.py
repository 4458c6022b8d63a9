#!/usr/bin/env python3
"""Lists the JSON-tagged fields of the Go API structs of Kubernetes as a TSV, for the generators.

The catalogue and protobuf generators need three facts the OpenAPI document and the .proto files
do not carry: which fields Go's JSON encoder leaves out when empty (`omitempty`), which are
pointers, and the Go type. They come from the struct tags of k8s.io/api, k8s.io/apimachinery and
k8s.io/apiextensions-apiserver at the release the catalogue describes (v0.36 for Kubernetes 1.36).
Those source trees are inputs only: they are not part of this repository and must never be copied
into it; the generators keep only field names and flags (see NOTICE).

Usage (standard library only; each ROOT is a checkout of the module named by IMPORT_PATH):
    tools/go_struct_tags.py IMPORT_PATH=ROOT... > fields.tsv
e.g. k8s.io/api=~/src/api k8s.io/apimachinery=~/src/apimachinery
     k8s.io/apiextensions-apiserver=~/src/apiextensions-apiserver

Output, one row per struct field with a JSON name (`json:"-"` fields are skipped):
    message  number  proto-name  json-name  pointer(0/1)  omitempty(0/1)  go-type
where message is the protobuf message name go-to-protobuf gives the struct
("k8s.io.api.core.v1.PodSpec"), and number / proto-name come from the `protobuf:` tag ("-" when
the field has none). An embedded (`json:",inline"`) struct is a row with an empty json-name whose
go-type is the embedded struct's message name. This is the TSV that gen_proto_catalogue.py --go-tags and
gen_catalogue.py --go-tags read.
"""

import os
import re
import sys

STRUCT_RE = re.compile(r"^type\s+(\w+)\s+struct\s*\{\s*$")
# A struct defined as another package's struct (`type MatchCondition v1.MatchCondition`).
DEFINED_RE = re.compile(r"^type\s+(\w+)\s+=?\s*(\w+)\.(\w+)\s*$", re.M)
IMPORT_RE = re.compile(r'^\s*(?:import\s+)?(\w+\s+)?"([^"]+)"\s*$', re.M)
FIELD_RE = re.compile(r"^\s*(\w+)\s+([^`]+?)\s+`([^`]*)`")
EMBEDDED_RE = re.compile(r"^\s*(\*?[\w.]+)\s+`([^`]*)`")
TAG_RE = re.compile(r'(\w+):"([^"]*)"')
# Only the API packages: not clients, tests, or tooling inside the modules.
SKIP_DIRS = {"testdata", "testing", "fuzzer", "internal", "client", "validation", "install"}


def proto_package(import_path):
    return import_path.replace("/", ".").replace("-", "_")


def fields_of(text):
    """Yields (struct, Go type, tags) for the top-level fields of every struct in `text`."""
    struct, depth = None, 0
    for line in text.splitlines():
        code = line.strip()
        if code.startswith("//"):
            continue
        tag_end = code.rfind("`")
        comment = code.find("//", tag_end + 1)
        if comment >= 0:
            code = code[:comment]
        if struct is None:
            m = STRUCT_RE.match(code)
            if m:
                struct, depth = m.group(1), 1
            continue
        if depth == 1:
            m = FIELD_RE.match(line)
            if m:
                yield struct, m.group(2).strip(), m.group(3)
            elif m := EMBEDDED_RE.match(line):
                yield struct, m.group(1), m.group(2)
        depth += code.count("{") - code.count("}")
        if depth <= 0:
            struct = None


def rows_for(import_path, root):
    """Yields (package, struct, row) for every JSON-tagged field, and the struct definitions
    that name another package's struct as (package, struct, (target package, target struct))."""
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        package = os.path.relpath(dirpath, root)
        package = import_path if package == "." else import_path + "/" + package
        for f in sorted(files):
            if (not f.endswith(".go") or f.endswith("_test.go") or f.startswith("zz_generated")
                    or f.startswith("generated.")):
                continue
            with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                text = fh.read()
            imports = {(alias or path.rsplit("/", 1)[-1]).strip(): path
                       for alias, path in IMPORT_RE.findall(text)}
            for name, qualifier, target in DEFINED_RE.findall(text):
                if qualifier in imports:
                    yield package, name, (imports[qualifier], target)
            for struct, gotype, tags in fields_of(text):
                tags = dict(TAG_RE.findall(tags))
                json_tag = tags.get("json")
                if json_tag is None:
                    continue
                parts = json_tag.split(",")
                if parts[0] == "" and "inline" in parts[1:]:
                    # An embedded struct: its fields appear in this object. The row names the
                    # embedded struct's message, with an empty JSON name.
                    qualifier, _, name = gotype.lstrip("*").rpartition(".")
                    target = imports.get(qualifier, package) if qualifier else package
                    yield package, struct, ("-", "-", "", "0", "0",
                                            proto_package(target) + "." + name)
                    continue
                if parts[0] in ("", "-"):
                    continue
                number, proto_name = "-", "-"
                proto = tags.get("protobuf", "").split(",")
                if len(proto) >= 2 and proto[1].isdigit():
                    number = proto[1]
                    for p in proto[2:]:
                        if p.startswith("name="):
                            proto_name = p[len("name="):]
                yield package, struct, (number, proto_name, parts[0],
                                        "1" if gotype.startswith("*") else "0",
                                        "1" if "omitempty" in parts[1:] else "0", gotype)


def main(argv):
    if not argv or any("=" not in a for a in argv):
        sys.exit(__doc__)
    fields, defined = {}, []
    for arg in argv:
        import_path, root = arg.split("=", 1)
        if not os.path.isdir(root):
            sys.exit("go_struct_tags: not a directory: " + root)
        for package, struct, row in rows_for(import_path, root):
            if len(row) == 2:
                defined.append((package, struct, row))
            else:
                fields.setdefault((package, struct), set()).add(row)
    for package, struct, target in defined:
        if target in fields and (package, struct) not in fields:
            fields[(package, struct)] = fields[target]
    out = sorted((proto_package(package) + "." + struct,) + row
                 for (package, struct), rows in fields.items() for row in rows)
    for row in out:
        print("\t".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
