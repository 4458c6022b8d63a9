#!/usr/bin/env bash
# ssa_e2e.sh BIN — server-side apply and managedFields end to end, with unchanged kubectl and curl:
# `kubectl apply --server-side` of a multi-document manifest (created, re-applied without any
# change or new resourceVersion, re-applied with fields removed), conflicts between managers and
# --force-conflicts, client-side apply followed by server-side apply, the managedFields plain
# writes record (kubectl's managers, the User-Agent rule, fieldManager validation, resets), the
# status and scale subresources, dry runs, raw apply requests and their errors, and a custom
# resource whose list-map entries two managers own. Every expectation is what kube-apiserver 1.36
# does. One line per check; exits 1 on any failure.
bin=${1:?usage: ssa_e2e.sh path/to/kube-apiserver-lite}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# status METHOD PATH [curl args...]: "CODE KIND REASON CAUSE-REASON:FIELD..." of the answer; the
# body stays in $work/body
status() {
  local c
  c=$(curl -s --max-time 10 -o "$work/body" -w '%{http_code}' -X "$1" -H 'Accept: application/json' "${@:3}" "$url$2")
  python3 - "$c" "$work/body" <<'EOF'
import json, sys
code, path = sys.argv[1:]
try:
    d = json.load(open(path))
except ValueError:
    sys.exit(print(code, "(not JSON)", open(path, errors="replace").read()[:200]))
causes = ["%s:%s" % (c.get("reason", ""), c.get("field", "")) for c in (d.get("details") or {}).get("causes") or []]
print(" ".join(x for x in [code, d.get("kind", ""), d.get("reason", "")] + causes if x))
EOF
}
body() { json "$1" <"$work/body"; }
# managers KIND/NAME [FIELDS-PATH]: "manager/Operation[/subresource]" of the entries (in their
# order), or of those owning the f:-path given as "f:data/f:a"
managers() {
  k -n ssa get "$1" -o json --show-managed-fields | python3 -c '
import json, sys
path = [p for p in sys.argv[1].split("/") if p]
out = []
for e in json.load(sys.stdin)["metadata"].get("managedFields") or []:
    node = e.get("fieldsV1", {})
    for p in path:
        node = node.get(p) if isinstance(node, dict) else None
    if node is not None:
        out.append("/".join(x for x in (e["manager"], e["operation"], e.get("subresource", "")) if x))
print(" ".join(out))
' "${2:-}"
}
rv() { k -n ssa get "$1" -o jsonpath='{.metadata.resourceVersion}'; }
data() { k -n ssa get cm "$1" -o jsonpath='{.data}'; }

start_server
k create namespace ssa >/dev/null

# ---------------------------------------------------------------- a multi-document manifest
cat >"$work/app.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  labels: {app: web, tier: front}
data: {mode: fast, level: "3"}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
        env:
        - {name: MODE, value: fast}
        - {name: LEVEL, value: "3"}
        ports:
        - {containerPort: 80}
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 80}
EOF
applied() { k -n ssa apply --server-side -f "$work/app.yaml"; }
equal "apply --server-side of three documents" \
  "$(printf 'configmap/app-config serverside-applied\ndeployment.apps/web serverside-applied\nservice/web serverside-applied')" applied
equal "each object has one Apply entry by kubectl" "kubectl/Apply kubectl/Apply kubectl/Apply" \
  eval 'echo $(managers cm/app-config) $(managers deploy/web) $(managers svc/web)'
fields_of_web() {
  k -n ssa get deploy web -o json --show-managed-fields | json '" ".join(sorted(d["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"web\"}"]["f:env"]))'
}
equal "the entry's FieldsV1 keys list-map entries (k:)" 'k:{"name":"LEVEL"} k:{"name":"MODE"}' fields_of_web
expect "time is RFC 3339 with second precision" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' \
  k -n ssa get cm app-config -o jsonpath='{.metadata.managedFields[0].time}'
rvs() { echo "$(rv cm/app-config) $(rv deploy/web) $(rv svc/web)"; }
before=$(rvs)
expect "apply the same manifest again" 'serverside-applied' applied
equal "a second identical apply bumps no resourceVersion" "$before" rvs

python3 - "$work/app.yaml" "$work/app-less.yaml" <<'EOF'
import sys
text = open(sys.argv[1]).read()
text = text.replace('data: {mode: fast, level: "3"}', 'data: {mode: fast}').replace('labels: {app: web, tier: front}', 'labels: {app: web}')
text = text.replace('        - {name: LEVEL, value: "3"}\n', '')
open(sys.argv[2], "w").write(text)
EOF
expect "apply with fields removed" 'configmap/app-config serverside-applied' k -n ssa apply --server-side -f "$work/app-less.yaml"
equal "the removed data key and label are gone" '{"mode":"fast"} {"app":"web"}' \
  eval 'echo "$(data app-config) $(k -n ssa get cm app-config -o jsonpath="{.metadata.labels}")"'
equal "the removed env entry is gone, the other kept" "MODE=fast" \
  k -n ssa get deploy web -o jsonpath='{range .spec.template.spec.containers[0].env[*]}{.name}={.value}{end}'
equal "defaults stay (not owned, not removed)" "ClusterFirst IfNotPresent" \
  k -n ssa get deploy web -o jsonpath='{.spec.template.spec.dnsPolicy} {.spec.template.spec.containers[0].imagePullPolicy}'

# ---------------------------------------------------------------- conflicts
cm() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\ndata: %s\n' "$1" "$2" >"$work/$1-$3.yaml"; echo "$work/$1-$3.yaml"; }
k -n ssa apply --server-side -f "$(cm owned '{a: "1", b: "2"}' first)" >/dev/null
refuse "another manager's different value is a conflict naming owner and field" \
  'Apply failed with 1 conflict: conflict with "kubectl": \.data\.a' \
  k -n ssa apply --server-side --field-manager=second -f "$(cm owned '{a: "9"}' second)"
equal "nothing was written" '{"a":"1","b":"2"}' data owned
expect "the same value is no conflict" 'serverside-applied' k -n ssa apply --server-side --field-manager=second -f "$(cm owned '{a: "1"}' same)"
shared() { managers cm/owned f:data/f:a | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//'; }
equal "the field is shared" "kubectl/Apply second/Apply" shared
cat >"$work/two.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata: {name: owned}
data: {a: "7", b: "8"}
EOF
two_conflicts() {
  status PATCH "/api/v1/namespaces/ssa/configmaps/owned?fieldManager=third&force=false" \
    -H 'Content-Type: application/apply-patch+yaml' --data-binary @"$work/two.yaml"
  body 'd["message"]'
}
equal "two conflicts: one cause per field, the message lists managers and fields" \
  "$(printf '409 Status Conflict FieldManagerConflict:.data.a FieldManagerConflict:.data.b FieldManagerConflict:.data.a\nApply failed with 3 conflicts: conflicts with "kubectl":\n- .data.a\n- .data.b\nconflicts with "second":\n- .data.a')" \
  two_conflicts
expect "--force-conflicts takes the fields" 'serverside-applied' k -n ssa apply --server-side --field-manager=third --force-conflicts -f "$work/two.yaml"
equal "forced values stored, ownership moved" '{"a":"7","b":"8"} third/Apply' \
  eval 'echo "$(data owned) $(managers cm/owned f:data/f:a)"'
equal "managers left without fields are gone" "third/Apply" managers cm/owned

# ---------------------------------------------------------------- client-side apply, then server-side apply
expect "client-side apply" 'configmap/migrated created' k -n ssa apply -f "$(cm migrated '{a: "1", b: "2"}' csa)"
equal "recorded as kubectl-client-side-apply's Update" "kubectl-client-side-apply/Update" managers cm/migrated
expect "server-side apply of a changed value and a dropped field: no conflict" 'configmap/migrated serverside-applied' \
  k -n ssa apply --server-side -f "$(cm migrated '{a: "1b"}' ssa)"
equal "the change is applied and the dropped field removed" '{"a":"1b"}' data migrated
expect "kubectl now applies; the client-side manager is gone" '^(kubectl-last-applied/Apply )?kubectl/Apply$' managers cm/migrated
expect "the last-applied annotation follows the applied configuration" '"data":\{"a":"1b"\}' \
  k -n ssa get cm migrated -o jsonpath='{.metadata.annotations.kubectl\.kubernetes\.io/last-applied-configuration}'

# ---------------------------------------------------------------- managedFields of plain writes
k -n ssa create configmap plain --from-literal=a=1 >/dev/null
equal "kubectl create: kubectl-create's Update" "kubectl-create/Update" managers cm/plain
k -n ssa label cm plain color=blue >/dev/null
equal "kubectl label: kubectl-label owns the label" "kubectl-label/Update" managers cm/plain f:metadata/f:labels/f:color
k -n ssa patch cm plain --type=merge -p '{"data":{"b":"2"}}' >/dev/null
equal "kubectl patch: kubectl-patch owns the new key" "kubectl-patch/Update" managers cm/plain f:data/f:b
k -n ssa patch cm plain --type=merge -p '{"data":{"a":"one"}}' >/dev/null
equal "a changed field moves to the writer" "kubectl-patch/Update" managers cm/plain f:data/f:a
equal "create, label and patch: one entry each" "kubectl-create/Update kubectl-label/Update kubectl-patch/Update" \
  eval 'managers cm/plain | tr " " "\n" | sort | tr "\n" " " | sed "s/ $//"'
put() {  # put USER-AGENT QUERY BODY-EDIT: GET, edit with python, PUT
  k -n ssa get cm plain -o json | python3 -c "import json,sys; d=json.load(sys.stdin); $3; print(json.dumps(d))" >"$work/put.json"
  status PUT "/api/v1/namespaces/ssa/configmaps/plain$2" -H "User-Agent: $1" -H 'Content-Type: application/json' --data-binary @"$work/put.json"
}
expect "PUT without fieldManager" '^200 ConfigMap' put 'my-agent/1.2 (linux)' '' 'd["data"]["c"] = "3"'
equal "the manager is the User-Agent's prefix" "my-agent/Update" managers cm/plain f:data/f:c
expect "PUT with fieldManager" '^200 ConfigMap' put 'ignored/1' '?fieldManager=tool' 'd["data"]["d"] = "4"'
equal "the fieldManager parameter wins" "tool/Update" managers cm/plain f:data/f:d
expect "a fieldManager with a control character is 422" \
  '^422 Status Invalid FieldValueInvalid:fieldManager' put 'x/1' '?fieldManager=a%07b' 'd["data"]["e"] = "5"'
long=$(printf 'm%.0s' $(seq 1 129))
expect "a fieldManager over 128 characters is 422" '^422 Status Invalid FieldValueTooLong:fieldManager' \
  put 'x/1' "?fieldManager=$long" 'd["data"]["e"] = "5"'
expect "managedFields with an invalid operation are ignored" '^200 ConfigMap' \
  put 'x/1' '?fieldManager=tool' 'd["metadata"]["managedFields"] = [{"manager": "x", "operation": "Bogus", "apiVersion": "v1", "fieldsType": "FieldsV1"}]'
equal "... and the recorded ones kept" "kubectl-create/Update kubectl-label/Update kubectl-patch/Update my-agent/Update tool/Update" \
  eval 'managers cm/plain | tr " " "\n" | sort | tr "\n" " " | sed "s/ $//"'
expect "managedFields sent by the client replace the recorded ones" '^200 ConfigMap' \
  put 'x/1' '?fieldManager=tool' 'd["metadata"]["managedFields"] = [{"manager": "someone", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}}]'
equal "... as sent" "someone/Update" managers cm/plain
expect "an empty managedFields list resets them" '^200 ConfigMap' put 'x/1' '?fieldManager=tool' 'd["metadata"]["managedFields"] = []'
equal "no managedFields left" "" managers cm/plain
expect "a later update" '^200 ConfigMap' put 'x/1' '?fieldManager=tool' 'd["data"]["f"] = "6"'
equal "records nothing until the next apply (kube's rule)" "" managers cm/plain
expect "an apply after a reset" 'serverside-applied' k -n ssa apply --server-side --field-manager=late -f "$(cm plain '{z: "26"}' late)"
equal "the existing fields go to before-first-apply (Apply entries first)" "late/Apply before-first-apply/Update" managers cm/plain

# ---------------------------------------------------------------- status and scale
cat >"$work/status.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
status: {observedGeneration: 1, replicas: 2, readyReplicas: 2}
EOF
expect "apply --subresource=status" 'deployment.apps/web serverside-applied' \
  k -n ssa apply --server-side --subresource=status --field-manager=ctrl -f "$work/status.yaml"
equal "status written, owned by an entry with subresource status" "2 ctrl/Apply/status" \
  eval 'echo "$(k -n ssa get deploy web -o jsonpath="{.status.readyReplicas}") $(managers deploy/web f:status/f:readyReplicas)"'
expect "kubectl scale" 'scaled' k -n ssa scale deploy web --replicas=4
# (kubectl's User-Agent starts with the name of its binary: "kubectl", "kubectl.1.33", ...)
expect "the scale write owns spec.replicas through an entry with subresource scale" '^kubectl[^/ ]*/Update/scale$' \
  managers deploy/web f:spec/f:replicas
scale_apply() {
  status PATCH "/apis/apps/v1/namespaces/ssa/deployments/web/scale?fieldManager=hpa&force=true" \
    -H 'Content-Type: application/apply-patch+yaml' \
    --data-binary $'apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: web}\nspec: {replicas: 5}\n'
  body 'd["spec"]["replicas"]'
}
equal "apply to /scale" "$(printf '200 Scale\n5')" scale_apply
equal "replicas and ownership follow" "5 hpa/Apply/scale" \
  eval 'echo "$(k -n ssa get deploy web -o jsonpath="{.spec.replicas}") $(managers deploy/web f:spec/f:replicas)"'

# ---------------------------------------------------------------- dry run and raw requests
expect "apply --dry-run=server" 'serverside-applied \(server dry run\)' \
  k -n ssa apply --server-side --dry-run=server -f "$(cm owned '{a: "dry"}' dry)" --force-conflicts
equal "changed nothing" '{"a":"7","b":"8"}' data owned
rawapply() { status PATCH "/api/v1/namespaces/ssa/configmaps/$1" -H 'Content-Type: application/apply-patch+yaml' --data-binary "$2"; }
expect "an apply that creates answers 201 (JSON body)" '^201 ConfigMap$' rawapply 'raw?fieldManager=raw' \
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"raw"},"data":{"a":"1"}}'
expect "an apply that updates answers 200" '^200 ConfigMap$' rawapply 'raw?fieldManager=raw' \
  $'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: raw}\ndata: {a: "2"}\n'
expect "without fieldManager: 422 naming it" '^422 Status Invalid FieldValueRequired:fieldManager$' rawapply raw \
  $'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: raw}\n'
equal "... with kube's message" 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch' body 'd["message"]'
expect "invalid YAML: 400" '^400 Status BadRequest$' rawapply 'raw?fieldManager=raw' $'apiVersion: v1\nmetadata: {name: raw\n'
expect "no apiVersion and kind: 400" '^400 Status BadRequest$' rawapply 'raw?fieldManager=raw' $'metadata: {name: raw}\n'
equal "... naming the missing type" 'invalid object type: /, Kind=' body 'd["message"]'
expect "another kind: 400" '^400 Status BadRequest$' rawapply 'raw?fieldManager=raw' $'apiVersion: v1\nkind: Secret\nmetadata: {name: raw}\n'
expect "managedFields in the body: 400" '^400 Status BadRequest$' rawapply 'raw?fieldManager=raw' \
  $'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: raw\n  managedFields: [{manager: x, operation: Apply}]\n'
equal "... with kube's message" 'metadata.managedFields must be nil' body 'd["message"]'
expect "another name than the URL's: 400" '^400 Status BadRequest$' rawapply 'raw?fieldManager=raw' \
  $'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n'
expect "force on a merge patch: 422" '^422 Status Invalid FieldValueForbidden:force$' \
  status PATCH '/api/v1/namespaces/ssa/configmaps/raw?force=true' -H 'Content-Type: application/merge-patch+json' --data-binary '{}'
expect "a value of the wrong type: 500 from the typed conversion" '^500 Status' rawapply 'raw?fieldManager=raw' \
  $'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: raw}\ndata: {a: [1]}\n'
expect "an applied object is validated" '^422 Status Invalid' rawapply 'bad_name?fieldManager=raw' \
  $'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad_name}\n'
equal "failed applies changed nothing" '{"a":"2"}' data raw

# ---------------------------------------------------------------- a custom resource with list-map keys
cat >"$work/crd.yaml" <<'EOF'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gateways.ssa.example.com}
spec:
  group: ssa.example.com
  scope: Namespaced
  names: {plural: gateways, singular: gateway, kind: Gateway}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              listeners:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name, port]
                items:
                  type: object
                  required: [name, port]
                  properties:
                    name: {type: string}
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
              hosts:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              tags:
                type: array
                items: {type: string}
          status:
            type: object
            properties:
              ready: {type: boolean}
EOF
expect "create the CRD by server-side apply" 'gateways.ssa.example.com serverside-applied' k apply --server-side -f "$work/crd.yaml"
expect "it is Established" 'condition met' k wait --for condition=Established crd/gateways.ssa.example.com --timeout=15s
gw() {
  printf 'apiVersion: ssa.example.com/v1\nkind: Gateway\nmetadata: {name: gw}\nspec: %s\n' "$2" >"$work/gw-$1.yaml"
  k -n ssa apply --server-side --field-manager="$1" -f "$work/gw-$1.yaml"
}
expect "first manager applies a listener, hosts and tags" 'gateway.ssa.example.com/gw serverside-applied' \
  gw alpha '{listeners: [{name: http, port: 80, protocol: TCP}], hosts: [a.example.com], tags: [x]}'
expect "second manager applies another listener and host" 'serverside-applied' \
  gw beta '{listeners: [{name: https, port: 443}], hosts: [b.example.com]}'
equal "list-map entries merged by key, defaults applied" "http:80:TCP https:443:TCP " \
  k -n ssa get gateway gw -o jsonpath='{range .spec.listeners[*]}{.name}:{.port}:{.protocol} {end}' 
equal "the set merged" '["a.example.com","b.example.com"]' k -n ssa get gateway gw -o jsonpath='{.spec.hosts}'
entry_owners() {
  echo "$(managers gateway/gw 'f:spec/f:listeners/k:{"name":"http","port":80}')" \
    "$(managers gateway/gw 'f:spec/f:listeners/k:{"name":"https","port":443}')"
}
equal "entries owned by key" "alpha/Apply beta/Apply" entry_owners
equal "set items owned by value" "beta/Apply" managers gateway/gw 'f:spec/f:hosts/v:"b.example.com"'
refuse "a conflict inside an entry names its key" \
  'conflict with "alpha": \.spec\.listeners\[name="http",port=80\]\.protocol' \
  gw beta '{listeners: [{name: https, port: 443}, {name: http, port: 80, protocol: UDP}], hosts: [b.example.com]}'
refuse "an atomic list owned by another manager conflicts as a whole" 'conflict with "alpha": \.spec\.tags' \
  gw beta '{listeners: [{name: https, port: 443}], hosts: [b.example.com], tags: [other]}'
printf 'apiVersion: ssa.example.com/v1\nkind: Gateway\nmetadata: {name: gw}\nstatus: {ready: true}\n' >"$work/gw-status.yaml"
expect "a custom resource's status through --subresource=status" 'serverside-applied' \
  k -n ssa apply --server-side --subresource=status --field-manager=gw-ctrl -f "$work/gw-status.yaml"
equal "status written, owned through the status subresource" "true gw-ctrl/Apply/status" \
  eval 'echo "$(k -n ssa get gateway gw -o jsonpath="{.status.ready}") $(managers gateway/gw f:status/f:ready)"'
expect "the first manager drops its listener" 'serverside-applied' gw alpha '{hosts: [a.example.com], tags: [x]}'
equal "only the other manager's entry is left" "https:443" \
  k -n ssa get gateway gw -o jsonpath='{range .spec.listeners[*]}{.name}:{.port}{end}'

finish
