#!/usr/bin/env bash
# ratchet_warnings_e2e.sh BIN — ratcheted x-kubernetes-validations failures end to end with
# unchanged kubectl: a custom resource that a newer rule of its CRD refuses is still written while
# the invalid value is left as it was, and the client gets the failure as a warning, worded as the
# error would be (`Warning: spec.size: Invalid value: 7: ...` from kubectl, a `299 - "..."`
# Warning header on the wire) through every write: apply (client- and server-side), replace,
# patch. Changing the invalid value, or creating it anew, is still refused. Every expectation is
# what kube-apiserver 1.36 does. One line per check; exits 1 on any failure.
bin=${1:?usage: ratchet_warnings_e2e.sh path/to/kube-apiserver-lite}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
start_server

# crd [RULES-YAML]: the Widget CRD, with RULES-YAML as spec.size's x-kubernetes-validations
crd() {
  cat <<YAML
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.ratchet.example.com}
spec:
  group: ratchet.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              note: {type: string}
              size:
                type: integer
                x-kubernetes-validations: ${1:-[]}
YAML
}
# widget NAME SIZE NOTE: a Widget manifest
widget() {
  printf 'apiVersion: ratchet.example.com/v1\nkind: Widget\nmetadata: {name: %s, namespace: default}\nspec: {size: %s, note: %s}\n' "$1" "$2" "$3"
}
# warned NAME REGEX CMD...: CMD succeeds and prints a line matching REGEX on stderr
warned() {
  local name=$1 pattern=$2; shift 2
  local out
  if out=$("$@" 2>"$work/stderr") && grep -Eq -- "$pattern" "$work/stderr"; then ok "$name"
  else bad "$name" "$out$(printf '\n')$(cat "$work/stderr")"; fi
}
kf() { k "$@" -f "$work/manifest"; }  # kubectl with the manifest last written by put
put() { "$@" >"$work/manifest"; }
rule='[{rule: "self <= 5", message: "size must be at most 5"}]'
warning='^Warning: spec\.size: Invalid value: 7: size must be at most 5$'

put crd
expect "the CRD is created without rules" 'created' kf apply
expect "and established" 'condition met' k wait --for condition=Established --timeout=10s crd/widgets.ratchet.example.com
put widget w1 7 a
expect "a widget of size 7 is created" 'created' kf apply
put crd "$rule"
expect "the CRD gains a rule that size 7 breaks" 'configured' kf apply
put widget w2 7 a
settle 10 'size must be at most 5' k create --dry-run=server -f "$work/manifest" >/dev/null
refuse "a new widget of size 7 is refused" 'spec\.size: Invalid value: 7: size must be at most 5' kf create

put widget w1 7 b
warned "kubectl apply leaving size 7 as it was succeeds with the failure as a warning" "$warning" kf apply
equal "and the change is stored" "b" k get widget w1 -o 'jsonpath={.spec.note}'
put widget w1 8 c
refuse "changing size to another invalid value is refused" 'spec\.size: Invalid value: 8: size must be at most 5' kf apply
equal "and nothing is stored" "b" k get widget w1 -o 'jsonpath={.spec.note}'
warned "kubectl replace warns the same" "$warning" \
  bash -c "$(declare -f k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; k get widget w1 -o yaml | sed 's/note: .*/note: d/' | k replace -f -"
equal "and the replaced object is stored" "d" k get widget w1 -o 'jsonpath={.spec.note}'
put widget w1 7 d
warned "kubectl apply --server-side warns the same" "$warning" kf apply --server-side --force-conflicts
warned "kubectl patch warns the same" "$warning" k patch widget w1 --type merge -p '{"spec":{"note":"e"}}'
expect "the wire has kube's Warning header" '^Warning: 299 - "spec\.size: Invalid value: 7: size must be at most 5"' \
  curl -s -D - -o /dev/null -X PATCH -H 'Content-Type: application/merge-patch+json' \
  "$url/apis/ratchet.example.com/v1/namespaces/default/widgets/w1" --data '{"spec":{"note":"f"}}'
put widget w1 3 g
expect "a valid size is accepted without a warning" '^widget.ratchet.example.com/w1 configured$' \
  bash -c "$(declare -f k kf); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; work=$work; kf apply 2>&1"
finish
