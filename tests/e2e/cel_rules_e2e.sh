#!/usr/bin/env bash
# cel_rules_e2e.sh BIN — x-kubernetes-validations end to end with unchanged kubectl: a CRD with a
# dozen realistic rules (testdata/cel/backups-crd.yaml) installed, valid objects accepted, every
# rule refusing what it should with its message at its field path, transition rules on update,
# ratcheting, status rules, and CRDs whose rules do not compile refused. Every expectation is what
# kube-apiserver 1.36 does. One line per check; exits 1 on any failure.
bin=${1:?usage: cel_rules_e2e.sh path/to/kube-apiserver-lite}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
td=$(cd "$here/../../testdata/cel" && pwd)
start_server

expect "the CRD is accepted" 'created' k apply -f "$td/backups-crd.yaml"
expect "and established" 'condition met' k wait --for condition=Established --timeout=10s crd/backups.ops.example.com

# backup NAME SPEC-JSON: a Backup manifest on stdin for kubectl
backup() { printf '{"apiVersion":"ops.example.com/v1","kind":"Backup","metadata":{"name":"%s","namespace":"default"},"spec":%s}\n' "$1" "$2"; }
good='{"source":"pvc/data","retention":{"minCopies":1,"maxCopies":3},"schedule":"0 2 * * *","tags":["nightly"],"targets":[{"name":"a","weight":60},{"name":"b","weight":40}],"window":{"start":"2026-01-01T01:00:00Z","end":"2026-01-01T03:00:00Z"},"size":"500Gi","allowFrom":["10.0.0.0/8"],"endpoint":"https://backup.example.com/v1"}'
create() { backup "$1" "$2" | k create -f - ; }

expect "a valid backup is created" 'created' create b1 "$good"
refuse "cross-field rule at its fieldPath" 'spec.retention.minCopies: Invalid value: .*minCopies must not exceed maxCopies' \
  create b2 '{"source":"pvc/x","retention":{"minCopies":4,"maxCopies":3}}'
refuse "messageExpression builds the message" 'spec.source: Invalid value: "nfs/x": source must name a pvc/ or db/, not nfs' \
  create b3 '{"source":"nfs/x","retention":{}}'
refuse "mutually exclusive fields" 'a manual backup has no schedule' \
  create b4 '{"source":"pvc/x","retention":{},"manual":true,"schedule":"0 2 * * *"}'
refuse "list uniqueness by name" 'target names must be unique' \
  create b5 '{"source":"pvc/x","retention":{},"targets":[{"name":"a"},{"name":"a"}]}'
refuse "lists library: sum of weights" 'spec.targets: Invalid value: .*target weights add up to at most 100' \
  create b6 '{"source":"pvc/x","retention":{},"targets":[{"name":"a","weight":70},{"name":"b","weight":40}]}'
refuse "strings: split into cron fields" 'spec.schedule: Invalid value: "daily": schedule must have five cron fields' \
  create b7 '{"source":"pvc/x","retention":{},"schedule":"daily"}'
refuse "reason FieldValueForbidden" 'spec.tags: Forbidden: tags are lower case' \
  create b8 '{"source":"pvc/x","retention":{},"tags":["Nightly"]}'
refuse "timestamps compare, messageExpression formats them" 'window must end after it starts \(2026-01-01T03:00:00Z\)' \
  create b9 '{"source":"pvc/x","retention":{},"window":{"start":"2026-01-01T03:00:00Z","end":"2026-01-01T01:00:00Z"}}'
refuse "quantity library: a size above its limit" 'spec.size: Invalid value: "2Ti": size must be a quantity of at most 1Ti, not 2Ti' \
  create b11 '{"source":"pvc/x","retention":{},"size":"2Ti"}'
refuse "quantity library: not a quantity" 'size must be a quantity of at most 1Ti, not 10Mo' \
  create b12 '{"source":"pvc/x","retention":{},"size":"10Mo"}'
refuse "CIDR library: IPv6 networks refused" 'spec.allowFrom: Invalid value: .*allowFrom holds IPv4 CIDRs' \
  create b13 '{"source":"pvc/x","retention":{},"allowFrom":["10.0.0.0/8","fd00::/8"]}'
refuse "URL library: scheme checked" 'spec.endpoint: Invalid value: "http://backup.example.com": endpoint must be an https URL' \
  create b14 '{"source":"pvc/x","retention":{},"endpoint":"http://backup.example.com"}'
refuse "a rule at the resource root sees metadata.name" 'backup names are at most 40 characters' \
  create "$(printf 'b%.0s' $(seq 1 41))" '{"source":"pvc/x","retention":{}}'
expect "several failing rules are all reported" '^422 .*minCopies must not exceed maxCopies.*schedule must have five cron fields' \
  http POST /apis/ops.example.com/v1/namespaces/default/backups -H 'Content-Type: application/json' \
  -d "$(backup b10 '{"source":"pvc/x","retention":{"minCopies":9,"maxCopies":1},"schedule":"x"}')"
equal "nothing invalid was stored" "b1" bash -c "$(declare -f k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; k get backups -o name | sed 's|.*/||' | tr '\n' ' ' | sed 's/ \$//'"

# Transition rules on update.
refuse "transition rule: source is immutable" 'spec.source: Invalid value: "pvc/other": source is immutable' \
  k patch backup b1 --type merge -p '{"spec":{"source":"pvc/other"}}'
expect "other fields still change" 'patched' k patch backup b1 --type merge -p '{"spec":{"retention":{"maxCopies":5}}}'
expect "status is written through the status subresource" 'patched' \
  k patch backup b1 --subresource=status --type merge -p '{"status":{"generation":3}}'
refuse "optionalOldSelf transition rule on status" 'status.generation: Invalid value: 2: status generation never decreases' \
  k patch backup b1 --subresource=status --type merge -p '{"status":{"generation":2}}'

# Ratcheting: a value that became invalid under a newer rule is kept while unchanged.
code=$(curl -s -o /dev/null -w '%{http_code}' -X PATCH -H 'Content-Type: application/merge-patch+json' \
  "$url/apis/apiextensions.k8s.io/v1/customresourcedefinitions/backups.ops.example.com" \
  --data '{"spec":{"versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"retention":{"type":"object","x-kubernetes-validations":[{"rule":"self.maxCopies <= 4","message":"at most 4 copies"}],"properties":{"minCopies":{"type":"integer"},"maxCopies":{"type":"integer"}}}}},"status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}')
equal "the CRD gains a stricter rule" "200" echo "$code"
sleep 0.5
expect "ratcheting: an unchanged invalid value is kept" 'patched' k patch backup b1 --type merge -p '{"spec":{"tags":["weekly"]}}'
refuse "but a changed invalid value is refused" 'at most 4 copies' k patch backup b1 --type merge -p '{"spec":{"retention":{"maxCopies":6}}}'

# CRDs whose rules do not compile are refused with cel-go's errors.
bad_crd() {
  cat <<YAML
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: bads.ops.example.com}
spec:
  group: ops.example.com
  scope: Namespaced
  names: {plural: bads, singular: bad, kind: Bad}
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
            x-kubernetes-validations:
            - rule: "$1"
            properties:
              size: {type: integer}
YAML
}
refuse "a syntax error is refused" "compilation failed: ERROR: <input>:1:12: Syntax error: mismatched input '<EOF>'" \
  bash -c "$(declare -f bad_crd k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; bad_crd 'self.size >' | k create -f -"
refuse "an undeclared reference is refused" "undeclared reference to 'size'" \
  bash -c "$(declare -f bad_crd k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; bad_crd 'size > 1' | k create -f -"
refuse "a type error against the schema is refused" "undefined field 'sise'" \
  bash -c "$(declare -f bad_crd k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; bad_crd 'self.sise > 1' | k create -f -"
refuse "a rule must evaluate to a bool" "cel expression must evaluate to a bool" \
  bash -c "$(declare -f bad_crd k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; bad_crd 'self.size + 1' | k create -f -"
refuse "mixing int and double is a type error, as in kube" "found no matching overload for '_==_' applied to '\\(int, double\\)'" \
  bash -c "$(declare -f bad_crd k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; bad_crd 'self.size == 1.0' | k create -f -"
# A rule looping over a list without maxItems, inside another such loop, costs too much.
loop_crd() {
  cat <<YAML
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: loops.ops.example.com}
spec:
  group: ops.example.com
  scope: Namespaced
  names: {plural: loops, singular: loop, kind: Loop}
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
              names:
                type: array
                $1
                items: {type: string}
                x-kubernetes-validations:
                - rule: self.all(a, self.exists_one(b, a == b))
YAML
}
refuse "an unbounded quadratic rule exceeds the cost budget" \
  "openAPIV3Schema.properties\[spec\].properties\[names\].x-kubernetes-validations\[0\].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x" \
  bash -c "$(declare -f loop_crd k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; loop_crd 'x-kubernetes-list-type: atomic' | k create -f -"
expect "bounded with maxItems and maxLength it is accepted" 'created' \
  bash -c "$(declare -f loop_crd k); kubectl=$kubectl; KUBECACHEDIR=$KUBECACHEDIR; loop_crd 'maxItems: 20' | sed 's/{type: string}/{type: string, maxLength: 64}/' | k create -f -"
expect "the server is still serving" '^ok$' curl -s --max-time 5 "$url/healthz"
finish
