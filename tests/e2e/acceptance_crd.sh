#!/usr/bin/env bash
# acceptance_crd.sh BIN — runs ../shared/acceptance/kubectl-crd.sh against BIN when ../shared is
# present. Exits 77 (skipped) without ../shared.
#
# What may still fail, until issue 10 lands: the checks of the server-side apply sections. Every
# other check must pass, the CEL ones included.
#
# One input of the kit is corrected before it runs: its widgets CRD declares selectableFields on
# v1 only while v1 and v1beta1 share an identical schema. kube-apiserver 1.36 refuses that CRD
# (apiextensions-apiserver pkg/apis/apiextensions/v1/conversion.go hoists identical per-version
# schemas to spec.validation; pkg/apis/apiextensions/validation/validation.go then rejects
# per-version selectableFields without a per-version schema: "may only be set when
# `version.schema.openAPIV3Schema` is not included"), and so does this server. Declaring the same
# selectableFields on v1beta1 makes the CRD valid for kube and changes nothing else the kit checks.
bin=${1:?usage: acceptance_crd.sh path/to/kube-apiserver-lite}
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../../shared/acceptance/kubectl-crd.sh
if [ ! -f "$script" ]; then
  echo "skipped: $script not present"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$script" "$work/kubectl-crd.sh" "$work/may-fail" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
invalid = """  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema: *schema
"""
if invalid in src:
    src = src.replace(invalid, invalid + "    selectableFields:\n    - jsonPath: .spec.color\n")
    print("corrected the kit's widgets CRD (see the header of acceptance_crd.sh)")
open(sys.argv[2], "w").write(src)
# Names of checks in the server-side apply sections, by the section headers of the kit.
may_fail, in_ssa = [], False
for line in src.splitlines():
    if line.startswith("# ----"):
        in_ssa = "server-side apply" in line
    m = re.match(r'\s*(?:expect|refuse|equal)\s+"([^"]+)"', line)
    if m and in_ssa:
        may_fail.append(m.group(1))
open(sys.argv[3], "w").write("\n".join(may_fail) + "\n")
PY
bash "$work/kubectl-crd.sh" "$bin" | tee "$work/out"
python3 - "$work/out" "$work/may-fail" <<'PY'
import sys
allowed = set(l.strip() for l in open(sys.argv[2]) if l.strip())
unexpected, tolerated, summary = [], 0, ""
for line in open(sys.argv[1]):
    if line.startswith("FAIL "):
        name = line[5:].strip()
        name = name.split(" (want ")[0].split(" (command succeeded)")[0].split(" (not run)")[0]
        if name in allowed:
            tolerated += 1
        else:
            unexpected.append(name)
    elif " passed, " in line:
        summary = line.strip()
print(f"kubectl-crd.sh: {summary}; {tolerated} of the failures are in server-side apply checks (issue 10)")
for n in unexpected:
    print(f"unexpected failure: {n}")
if not summary:
    print("the kit printed no summary line")
    sys.exit(1)
sys.exit(1 if unexpected else 0)
PY
