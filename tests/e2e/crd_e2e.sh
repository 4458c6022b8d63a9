#!/usr/bin/env bash
# crd_e2e.sh BIN — CustomResourceDefinitions end to end, with unchanged kubectl and curl, on the
# operator manifests of testdata/: the CRD directory installed with `kubectl apply -f`, waited for
# with `kubectl wait`, discovery and explain, custom resources created, defaulted, pruned, printed,
# selected, watched, patched (merge, JSON), written through status and scale, refused with kube's
# 422 causes, read through a second version; a CRD deleted while a resource's finalizer holds it,
# then re-created empty; everything served again right after a restart on the same --data-dir.
# Every expectation is what kube-apiserver 1.36 does. One line per check; exits 1 on any failure.
bin=${1:?usage: crd_e2e.sh path/to/kube-apiserver-lite}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
td=$(cd "$here/../../testdata" && pwd)
ns=fleet-demo
watcher=""
trap '[ -n "$watcher" ] && kill "$watcher" 2>/dev/null; cleanup' EXIT

# getj PATH EXPR: GET PATH, then json EXPR on the body
getj() { curl -s --max-time 10 "$url$1" | json "$2"; }
# code METHOD PATH [curl args...]: the HTTP status code only
code() { curl -s --max-time 10 -o /dev/null -w '%{http_code}' -X "$1" "${@:3}" "$url$2"; }
# status METHOD PATH [curl args...]: "CODE REASON CAUSE-REASON:FIELD..." (causes sorted) of a Status
# response; its message is left in $work/message
status() {
  local c
  c=$(curl -s --max-time 10 -o "$work/status" -w '%{http_code}' -X "$1" -H 'Accept: application/json' "${@:3}" "$url$2")
  python3 - "$c" "$work/status" "$work/message" <<'EOF'
import json, sys
code, body, message = sys.argv[1:]
try:
    d = json.load(open(body))
except ValueError:
    sys.exit(print(code, "(not JSON)", open(body, errors="replace").read()[:200]))
open(message, "w").write(d.get("message", ""))
causes = sorted("%s:%s" % (c.get("reason", ""), c.get("field", "")) for c in (d.get("details") or {}).get("causes") or [])
print(" ".join(x for x in [code, d.get("reason", "")] + causes if x))
EOF
}
message() { cat "$work/message"; }
# header CMD...: the first output line of CMD with runs of blanks squeezed
header() { "$@" | head -n1 | tr -s ' '; }
# sorted CMD...: the output of CMD, sorted, on one line
sorted() { local out; out=$("$@") || { echo "$out"; return 1; }; sort <<<"$out" | tr '\n' ' ' | sed 's/ $//'; }
crds="databases.data.fleet.example.com routes.net.fleet.example.com scheduledjobs.batch.fleet.example.com tenants.fleet.example.com"
crd_lines() { for c in $crds; do printf "$1\n" "$c"; done; }
sj=/apis/batch.fleet.example.com/v1/namespaces/$ns/scheduledjobs
routes=/apis/net.fleet.example.com/v1/namespaces/$ns/routes
aggregated='Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'

start_server --data-dir "$work/data"

# ---------------------------------------------------------------- the CRD directory
etag() { curl -s --max-time 10 -D - -o /dev/null -H "$aggregated" "$url/apis" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p'; }
etag_before=$(etag)
install() { k apply -f "$td/crds/" | sort; }
equal "kubectl apply -f testdata/crds/ creates the 4 CRDs" \
  "$(crd_lines 'customresourcedefinition.apiextensions.k8s.io/%s created')" install
waited() { k wait --for condition=Established crd --all --timeout=20s | sort; }
equal "kubectl wait --for condition=Established crd --all" \
  "$(crd_lines 'customresourcedefinition.apiextensions.k8s.io/%s condition met')" waited
conditions() {
  k get crd -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="NamesAccepted")].reason} {.status.conditions[?(@.type=="Established")].status}{"\n"}{end}'
}
equal "NamesAccepted (NoConflicts) and Established on every CRD" "$(crd_lines '%s NoConflicts True')" conditions
equal "names defaulted (singular, listKind), conversion None, storedVersions" 'tenant TenantList TenantList None ["v1"]' \
  k get crd tenants.fleet.example.com -o jsonpath='{.spec.names.singular} {.spec.names.listKind} {.status.acceptedNames.listKind} {.spec.conversion.strategy} {.status.storedVersions}'
equal "two-version CRD stores v1 only" '["v1"]' k get crd databases.data.fleet.example.com -o jsonpath='{.status.storedVersions}'

# ---------------------------------------------------------------- discovery and OpenAPI
# (kubectl prints verbs in the server's order; kube lists a custom resource's in this one)
expect "api-resources: short name, group-version, namespaced, kind" '^scheduledjobs +sj +batch\.fleet\.example\.com/v1 +true +ScheduledJob$' \
  k api-resources --api-group=batch.fleet.example.com --no-headers
equal "api-resources: the cluster-scoped CRD" "tenants.fleet.example.com" \
  k api-resources --api-group=fleet.example.com --namespaced=false -o name
equal "api-resources --categories=fleet" "$crds" sorted k api-resources --categories=fleet -o name
equal "api-resources --categories=networking" "routes.net.fleet.example.com" k api-resources --categories=networking -o name
expect "api-resources -o wide: verbs and categories" \
  '^routes +rt +net\.fleet\.example\.com/v1 +true +Route +delete,deletecollection,get,list,patch,create,update,watch +fleet,networking$' \
  k api-resources --api-group=net.fleet.example.com -o wide --no-headers
versions() { k api-versions | grep '^data\.fleet\.example\.com/' | tr '\n' ' '; }
equal "api-versions lists both served versions" "data.fleet.example.com/v1 data.fleet.example.com/v1beta1 " versions
equal "group document prefers v1 over v1beta1" "v1 v1,v1beta1" \
  getj /apis/data.fleet.example.com 'd["preferredVersion"]["version"] + " " + ",".join(v["version"] for v in d["versions"])'
equal "group-version document: resource and subresources with kinds and verbs" \
  "scheduledjobs/scale:autoscaling/v1/Scale:get,patch,update scheduledjobs/status:ScheduledJob:get,patch,update scheduledjobs:ScheduledJob:create,delete,deletecollection,get,list,patch,update,watch" \
  getj /apis/batch.fleet.example.com/v1 '" ".join(sorted("%s:%s%s:%s" % (r["name"], r["group"] + "/" + r["version"] + "/" if r.get("group") else "", r["kind"], ",".join(sorted(r["verbs"]))) for r in d["resources"]))'
aggregated_sj() {
  curl -s --max-time 10 -H "$aggregated" "$url/apis" | json '" ".join(str(x) for g in d["items"] if g["metadata"]["name"] == "batch.fleet.example.com" for v in g["versions"] for r in v["resources"] if r["resource"] == "scheduledjobs" for x in (v["version"], r["scope"], r["responseKind"]["kind"], ",".join(r.get("shortNames", [])), ",".join(r.get("categories", [])), ",".join(sorted(s["subresource"] + "=" + s["responseKind"]["group"] + "/" + s["responseKind"]["kind"] for s in r.get("subresources", [])))))'
}
equal "aggregated discovery: scope, short names, categories, subresources" \
  "v1 Namespaced ScheduledJob sj all,fleet scale=autoscaling/Scale,status=batch.fleet.example.com/ScheduledJob" aggregated_sj
revalidate() {
  local now
  now=$(etag)
  echo "changed=$([ -n "$now" ] && [ "$now" != "$etag_before" ] && echo yes || echo no)" \
    "current=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -H "$aggregated" -H "If-None-Match: $now" "$url/apis")" \
    "stale=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -H "$aggregated" -H "If-None-Match: $etag_before" "$url/apis")"
}
equal "aggregated discovery ETag: new with the CRDs, 304 when current, 200 when stale" \
  "changed=yes current=304 stale=200" revalidate
expect "OpenAPI v3 lists the group-versions" '"apis/data\.fleet\.example\.com/v1beta1"' curl -s --max-time 10 "$url/openapi/v3"
expect "kubectl explain reads the CRD schema (field and type)" 'FIELD: +concurrencyPolicy <string>' k explain scheduledjobs.spec.concurrencyPolicy
expect "kubectl explain reads the CRD schema (description)" 'How to treat a run that is due while the previous one is still active' \
  k explain scheduledjobs.spec.concurrencyPolicy
expect "kubectl explain a list-map of objects" 'weight[[:space:]]+<integer>' k explain routes.spec.backends

# ---------------------------------------------------------------- custom resources from testdata/resources
# (legacy-db is written through the deprecated v1beta1: its Warning is checked further down)
applied() { k apply -f "$td/resources/" -o name 2>&1 | grep -v '^Warning: ' | sort; }
equal "kubectl apply -f testdata/resources/ creates them" "$(printf '%s\n' \
  database.data.fleet.example.com/legacy-db database.data.fleet.example.com/orders-db \
  namespace/fleet-demo namespace/fleet-staging \
  route.net.fleet.example.com/admin route.net.fleet.example.com/api route.net.fleet.example.com/metrics \
  scheduledjob.batch.fleet.example.com/cache-warmer scheduledjob.batch.fleet.example.com/db-vacuum \
  scheduledjob.batch.fleet.example.com/nightly-report \
  tenant.fleet.example.com/acme tenant.fleet.example.com/globex)" applied
equal "metadata: uid, creationTimestamp, resourceVersion, generation 1" "True True True 1" \
  getj "$sj/nightly-report" '" ".join(str(x) for x in (len(d["metadata"]["uid"]) == 36, d["metadata"]["creationTimestamp"].endswith("Z"), d["metadata"]["resourceVersion"].isdigit(), d["metadata"]["generation"]))'
equal "schema defaults applied (top level and nested)" "Allow false 1 3 1 6" \
  k -n $ns get sj nightly-report -o jsonpath='{.spec.concurrencyPolicy} {.spec.suspend} {.spec.parallelism} {.spec.successfulJobsHistoryLimit} {.spec.failedJobsHistoryLimit} {.spec.jobTemplate.spec.backoffLimit}'
equal "explicit values kept over defaults" "Forbid true 2 1 1 2" \
  k -n $ns get sj db-vacuum -o jsonpath='{.spec.concurrencyPolicy} {.spec.suspend} {.spec.parallelism} {.spec.successfulJobsHistoryLimit} {.spec.failedJobsHistoryLimit} {.spec.jobTemplate.spec.backoffLimit}'
equal "x-kubernetes-preserve-unknown-fields keeps the pod template" "RuntimeDefault 1Gi reporting-config" \
  k -n $ns get sj nightly-report -o jsonpath='{.spec.jobTemplate.spec.template.spec.securityContext.seccompProfile.type} {.spec.jobTemplate.spec.template.spec.containers[0].resources.limits.memory} {.spec.jobTemplate.spec.template.spec.containers[0].env[0].valueFrom.configMapKeyRef.name}'
equal "defaults inside list-map items and absent objects" "internal 30s 1 <no tls>" \
  getj "$routes/admin" '" ".join((d["spec"]["tier"], d["spec"]["timeout"], str(d["spec"]["backends"][0]["weight"]), str(d["spec"].get("tls", "<no tls>"))))'
equal "defaults inside a present nullable object" "1.2 metrics-tls" \
  k -n $ns get route metrics -o jsonpath='{.spec.tls.minVersion} {.spec.tls.secretName}'
int_or_string() {
  echo "$(getj "$routes/api" 'type(d["spec"]["port"]).__name__ + " " + type(d["spec"]["backends"][1]["port"]).__name__')" \
    "$(getj /apis/fleet.example.com/v1/tenants/acme 'type(d["spec"]["quota"]["pods"]).__name__ + " " + type(d["spec"]["quota"]["requests.cpu"]).__name__')"
}
equal "int-or-string keeps integers and strings" "int str int str" int_or_string
equal "cluster-scoped resource has no namespace" "acme <none> 2" \
  getj /apis/fleet.example.com/v1/tenants/acme 'd["metadata"]["name"] + " " + d["metadata"].get("namespace", "<none>") + " " + str(len(d["spec"]["owners"]))'
equal "cluster-scoped resource under a namespace is 404" "404" code GET /apis/fleet.example.com/v1/namespaces/$ns/tenants/acme
equal "a v1beta1 manifest is stored as v1 and defaulted by v1's schema" "data.fleet.example.com/v1 mysql 1 <none>" \
  getj /apis/data.fleet.example.com/v1/namespaces/$ns/databases/legacy-db 'd["apiVersion"] + " " + d["spec"]["engine"] + " " + str(d["spec"]["replicas"]) + " " + str(d["spec"].get("storageGB", "<none>"))'

# ---------------------------------------------------------------- short names, categories, selectors
equal "short name across namespaces (-A)" \
  "scheduledjob.batch.fleet.example.com/cache-warmer scheduledjob.batch.fleet.example.com/db-vacuum scheduledjob.batch.fleet.example.com/nightly-report" \
  sorted k get sj -A -o name
equal "kubectl get <category> lists every kind in it" \
  "database.data.fleet.example.com/legacy-db database.data.fleet.example.com/orders-db route.net.fleet.example.com/admin route.net.fleet.example.com/api route.net.fleet.example.com/metrics scheduledjob.batch.fleet.example.com/db-vacuum scheduledjob.batch.fleet.example.com/nightly-report tenant.fleet.example.com/acme tenant.fleet.example.com/globex" \
  sorted k -n $ns get fleet -o name
in_all() { k -n $ns get all -o name | grep -E 'fleet\.example\.com' | sort | tr '\n' ' ' | sed 's/ $//'; }
equal "category all includes ScheduledJob only" \
  "scheduledjob.batch.fleet.example.com/db-vacuum scheduledjob.batch.fleet.example.com/nightly-report" in_all
equal "label selector" "scheduledjob.batch.fleet.example.com/cache-warmer scheduledjob.batch.fleet.example.com/db-vacuum" \
  sorted k get sj -A -l team=platform -o name
equal "selectableFields: field selector on a defaulted value" "route.net.fleet.example.com/admin route.net.fleet.example.com/metrics" \
  sorted k -n $ns get routes --field-selector spec.tier=internal -o name
equal "selectableFields: second field, combined with metadata.name" "route.net.fleet.example.com/api" \
  k -n $ns get routes --field-selector spec.hostname=api.acme.example,metadata.name=api -o name
refuse "field selector on an undeclared field is refused" 'field label not supported: spec\.timeout' \
  k -n $ns get routes --field-selector spec.timeout=30s
pages() {
  local first next
  first=$(curl -s --max-time 10 "$url$routes?limit=2")
  next=$(json 'd["metadata"]["continue"]' <<<"$first") || { echo "$next"; return; }
  echo "$(json '",".join(i["metadata"]["name"] for i in d["items"])' <<<"$first") $(getj "$routes?limit=2&continue=$next" '",".join(i["metadata"]["name"] for i in d["items"]) + " " + str(d["metadata"].get("continue", "") == "")')"
}
equal "pagination with limit and continue" "admin,api metrics True" pages

# ---------------------------------------------------------------- Table: printer columns
equal "printer columns (uppercased headers, declared Age)" "NAME SCHEDULE SUSPEND PARALLELISM LAST SCHEDULE AGE" \
  header k -n $ns get sj
equal "-o wide adds the priority-1 column" "NAME SCHEDULE SUSPEND PARALLELISM LAST SCHEDULE AGE CONCURRENCY" \
  header k -n $ns get sj -o wide
# (the empty Last Schedule cell is null in the Table; how kubectl draws a null is kubectl's business)
expect "-o wide row values" '^db-vacuum +30 3 \* \* 0 +true +2 +(<none> +|<nil> +)?[0-9]+[smh0-9]* +Forbid$' \
  k -n $ns get sj db-vacuum -o wide --no-headers
equal "no AGE column when the CRD declares columns without it" "NAME HOST TIER PORT ADMITTED" header k -n $ns get routes
equal "-o wide on routes" "NAME HOST TIER PORT ADMITTED TIMEOUT" header k -n $ns get routes -o wide
table() { curl -s --max-time 10 -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' "$url$1"; }
columns() { table "$sj" | json '" ".join("%s/%s/%s" % (c["name"], c["type"], c.get("priority", 0)) for c in d["columnDefinitions"])'; }
equal "Table column definitions: names, types, priorities" \
  "Name/string/0 Schedule/string/0 Suspend/boolean/0 Parallelism/integer/0 Last Schedule/date/0 Age/date/0 Concurrency/string/1" columns
cells() { table "$routes?fieldSelector=metadata.name%3Dapi" | json '[r["cells"] for r in d["rows"]]'; }
equal "Table cells: typed values, null for a missing field" "[['api', 'api.acme.example', 'public', '443', None, '15s']]" cells
equal "cluster-scoped printer columns" "NAME DISPLAY NAME PHASE NAMESPACES AGE" header k get tenants

# ---------------------------------------------------------------- pruning and field validation
cat >"$work/pruned.yaml" <<'EOF'
apiVersion: batch.fleet.example.com/v1
kind: ScheduledJob
metadata:
  name: pruned-job
  namespace: fleet-demo
spec:
  schedule: "@hourly"
  retryPolicy: Always
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: c, image: busybox, futureField: {kept: true}}]
status:
  replicas: 5
EOF
refuse "unknown field refused under Strict (kubectl's default)" 'strict decoding error: unknown field "spec\.retryPolicy"' \
  k apply -f "$work/pruned.yaml"
equal "nothing stored by the refused create" "404" code GET "$sj/pruned-job"
expect "unknown field warned under --validate=warn" 'Warning: unknown field "spec\.retryPolicy"' k apply --validate=warn -f "$work/pruned.yaml"
equal "unknown field pruned, preserved subtree kept, status dropped on create" "<pruned> {'kept': True} <no status>" \
  getj "$sj/pruned-job" '" ".join(str(x) for x in (d["spec"].get("retryPolicy", "<pruned>"), d["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]["futureField"], d.get("status", "<no status>")))'
expect "fieldValidation=Warn answers a Warning header" '^Warning: 299 - "unknown field \\"spec\.bogus\\""' \
  curl -s --max-time 10 -D - -o /dev/null -X PATCH -H 'Content-Type: application/merge-patch+json' \
  --data '{"spec":{"bogus":1}}' "$url$sj/pruned-job?fieldValidation=Warn"
# route JSON-SPEC [NAME-FIELD]: a Route body with that spec, named NAME (or "generateName": "gen-")
route() { printf '{"apiVersion":"net.fleet.example.com/v1","kind":"Route","metadata":{%s},"spec":%s}' "${2:-\"generateName\":\"gen-\"}" "$1"; }
nulls() {
  echo "$(code POST "$routes" -H 'Content-Type: application/json' --data "$(route '{"hostname":"nulls.acme.example","timeout":null,"tls":null}' '"name":"nulls"')")" \
    "$(getj "$routes/nulls" 'd["spec"]["timeout"] + " " + str(d["spec"]["tls"])')"
}
equal "explicit null in a non-nullable field is dropped, then defaulted; nullable keeps it" "201 30s None" nulls
generated() {
  echo "$(status POST "$routes" -H 'Content-Type: application/json' --data "$(route '{"hostname":"gen.acme.example"}')")" \
    "$(json 'd["metadata"]["name"].startswith("gen-") and len(d["metadata"]["name"]) == 9' <"$work/status")"
}
equal "generateName" "201 True" generated
equal "a kind other than the endpoint's is 422 at kind" "422 Invalid FieldValueInvalid:kind" \
  status POST "$routes" -H 'Content-Type: application/json' \
  --data '{"apiVersion":"net.fleet.example.com/v1","kind":"Tenant","metadata":{"name":"wrong-kind"},"spec":{"hostname":"x.example"}}'

# ---------------------------------------------------------------- invalid resources: 422 with kube's causes
mkdir -p "$work/invalid"
# one line per document of the invalid file: NAME PATH JSON-FILE EXPECTED-CAUSES
python3 - "$td/resources/invalid/custom-resources.yaml" "$work/invalid" >"$work/invalid/index" <<'EOF'
import json, sys, yaml
plural = {"ScheduledJob": "scheduledjobs", "Route": "routes", "Tenant": "tenants", "Database": "databases"}
for i, doc in enumerate(d for d in yaml.safe_load_all(open(sys.argv[1])) if d):
    meta = doc["metadata"]
    ns = "/namespaces/" + meta["namespace"] if "namespace" in meta else ""
    path = "/apis/%s%s/%s" % (doc["apiVersion"], ns, plural[doc["kind"]])
    body = "%s/%02d.json" % (sys.argv[2], i)
    json.dump(doc, open(body, "w"))
    print(meta["name"], path, body, meta["annotations"]["e2e.fleet.example.com/expected-causes"])
EOF
while read -r name path body want; do
  equal "422 Invalid: $name" "422 Invalid $want" status POST "$path" -H 'Content-Type: application/json' --data-binary @"$body"
  cp "$work/status" "$work/invalid/$name.status"
  message >"$work/invalid/$name.message"
done <"$work/invalid/index"
# msg NAME TEXT: the Status message of the refused NAME contains TEXT
msg() {
  if grep -qF -- "$2" "$work/invalid/$1.message"; then ok "$1: message"; else bad "$1: message (want '$2')" "$(cat "$work/invalid/$1.message")"; fi
}
msg bad-concurrency 'ScheduledJob.batch.fleet.example.com "bad-concurrency" is invalid: spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'
msg bad-parallelism 'spec.parallelism: Invalid value: "string": spec.parallelism in body must be of type integer: "string"'
msg no-schedule 'spec.startingDeadlineSeconds: Invalid value: -5: spec.startingDeadlineSeconds in body should be greater than or equal to 0'
msg no-schedule 'spec.schedule: Required value'
msg bad-hostname "spec.hostname: Invalid value: \"Not_A_Host\": spec.hostname in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\$'"
msg duplicate-backend 'spec.backends[1]: Duplicate value: {"name":"web"}'
msg heavy-backend 'spec.backends[0].weight: Invalid value: 150: spec.backends[0].weight in body should be less than or equal to 100'
msg bad-tls-date 'spec.tls.notAfter: Invalid value: "next tuesday": spec.tls.notAfter in body must be of type date-time: "next tuesday"'
msg duplicate-owner 'Tenant.fleet.example.com "duplicate-owner" is invalid: '
msg duplicate-owner 'spec.owners[1]: Duplicate value: "carol@initech.example"'
details() { json 'd["details"]["kind"] + " " + d["details"]["group"] + " " + d["details"]["name"]' <"$work/invalid/bad-beta.status"; }
equal "Invalid details name the kind, group and object" "Database data.fleet.example.com bad-beta" details
stored() { while read -r name path _; do printf '%s=%s ' "$name" "$(code GET "$path/$name")"; done <"$work/invalid/index"; }
equal "no invalid object was stored" "$(while read -r name _; do printf '%s=404 ' "$name"; done <"$work/invalid/index")" stored
refused() { k apply -f "$td/resources/invalid/" 2>&1 | grep -c ' is invalid'; }
equal "kubectl apply -f testdata/resources/invalid/ refuses every document" "$(wc -l <"$work/invalid/index" | tr -d ' ')" refused

# ---------------------------------------------------------------- watch
# kubectl's own watch, in the background, while one Route is created, patched and deleted
timeout -k 2 30 "$kubectl" --cache-dir "$KUBECACHEDIR" -n $ns get routes -w --output-watch-events >"$work/watch" 2>&1 &
watcher=$!
listed() { grep -c '^ADDED ' "$work/watch"; }
settle 10 '^[1-9]' listed >/dev/null
cat >"$work/watch-me.yaml" <<'EOF'
apiVersion: net.fleet.example.com/v1
kind: Route
metadata: {name: watch-me, namespace: fleet-demo}
spec: {hostname: watch.acme.example, port: 80}
EOF
expect "create while watched" 'route.net.fleet.example.com/watch-me created' k apply -f "$work/watch-me.yaml"
expect "patch while watched" 'patched' k -n $ns patch route watch-me --type=merge -p '{"spec":{"tier":"public"}}'
expect "delete while watched" 'deleted' k -n $ns delete route watch-me
watched() { awk '$2 == "watch-me" { printf "%s/%s ", $1, $4 }' "$work/watch" | sed 's/ $//'; }
equal "kubectl get -w --output-watch-events: ADDED, MODIFIED, DELETED" \
  "ADDED/internal MODIFIED/public DELETED/public" settle 10 'DELETED' watched
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
watcher=""
watch_json() {  # a raw watch from the list's resourceVersion sees a create as ADDED, with defaults
  local rv
  rv=$(getj "$routes" 'd["metadata"]["resourceVersion"]')
  (sleep 0.3; code POST "$routes" -H 'Content-Type: application/json' \
    --data '{"apiVersion":"net.fleet.example.com/v1","kind":"Route","metadata":{"name":"raw-watch"},"spec":{"hostname":"raw.acme.example"}}' >/dev/null) &
  curl -s --max-time 3 "$url$routes?watch=1&resourceVersion=$rv&timeoutSeconds=2" |
    python3 -c 'import json,sys; print(" ".join("%s/%s/%s/%s" % (e["type"], e["object"]["kind"], e["object"]["metadata"]["name"], e["object"]["spec"].get("tier")) for e in map(json.loads, sys.stdin)))'
  wait
}
equal "raw watch: ADDED event with the defaulted object" "ADDED/Route/raw-watch/internal" watch_json

# ---------------------------------------------------------------- status and scale subresources
five_days_ago=$(date -u -d '-5 days' +%Y-%m-%dT%H:%M:%SZ)
expect "kubectl patch --subresource=status" 'scheduledjob.batch.fleet.example.com/nightly-report patched' \
  k -n $ns patch sj nightly-report --subresource=status --type=merge \
  -p '{"status":{"replicas":1,"selector":"app.kubernetes.io/name=reporting","lastScheduleTime":"'"$five_days_ago"'","active":[{"kind":"Job","name":"nightly-report-29170","namespace":"fleet-demo"}]}}'
equal "status written, generation unchanged" "1 app.kubernetes.io/name=reporting nightly-report-29170 1" \
  k -n $ns get sj nightly-report -o jsonpath='{.status.replicas} {.status.selector} {.status.active[0].name} {.metadata.generation}'
expect "date printer column shows the age of lastScheduleTime" '^nightly-report +0 2 \* \* \* +false +1 +5d +[0-9]+s$' \
  k -n $ns get sj nightly-report --no-headers
expect "a status write with spec and label changes" 'patched' \
  k -n $ns patch sj nightly-report --subresource=status --type=merge -p '{"metadata":{"labels":{"hijack":"yes"}},"spec":{"suspend":true},"status":{"replicas":2}}'
equal "only status changed (spec and labels ignored)" "2 false  1" \
  k -n $ns get sj nightly-report -o jsonpath='{.status.replicas} {.spec.suspend} {.metadata.labels.hijack} {.metadata.generation}'
expect "a main-resource write with a status change" 'patched' \
  k -n $ns patch sj nightly-report --type=merge -p '{"spec":{"suspend":true},"status":{"replicas":9}}'
equal "status ignored on the main resource, spec change bumps generation" "2 true 2" \
  k -n $ns get sj nightly-report -o jsonpath='{.status.replicas} {.spec.suspend} {.metadata.generation}'
expect "a metadata-only change" 'labeled' k -n $ns label sj nightly-report tier=gold
equal "labels do not bump generation" "gold 2" k -n $ns get sj nightly-report -o jsonpath='{.metadata.labels.tier} {.metadata.generation}'
expect "kubectl scale" 'scheduledjob.batch.fleet.example.com/nightly-report scaled' k -n $ns scale sj nightly-report --replicas=3
equal "scale wrote specReplicasPath and bumped generation" "3 3" k -n $ns get sj nightly-report -o jsonpath='{.spec.parallelism} {.metadata.generation}'
equal "GET /scale: autoscaling/v1 Scale from the CRD's paths" "autoscaling/v1 Scale nightly-report fleet-demo 3 2 app.kubernetes.io/name=reporting True" \
  getj "$sj/nightly-report/scale" '" ".join(str(x) for x in (d["apiVersion"], d["kind"], d["metadata"]["name"], d["metadata"]["namespace"], d["spec"]["replicas"], d["status"]["replicas"], d["status"]["selector"], len(d["metadata"]["uid"]) == 36))'
equal "PUT /scale with a stale resourceVersion is 409" "409 Conflict" \
  status PUT "$sj/nightly-report/scale" -H 'Content-Type: application/json' \
  --data '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"nightly-report","namespace":"fleet-demo","resourceVersion":"1"},"spec":{"replicas":5}}'
equal "the scale subresource is 404 for a CRD without it" "404" code GET /apis/data.fleet.example.com/v1/namespaces/$ns/databases/orders-db/scale

# ---------------------------------------------------------------- merge patch, JSON patch, update
expect "merge patch" 'patched' k -n $ns patch route admin --type=merge -p '{"spec":{"tier":"public","headers":{"X-Env":"prod"}}}'
equal "merge patch applied" "public prod" getj "$routes/admin" 'd["spec"]["tier"] + " " + d["spec"]["headers"]["X-Env"]'
expect "JSON patch appending a list-map item" 'patched' \
  k -n $ns patch route admin --type=json -p '[{"op":"add","path":"/spec/backends/-","value":{"name":"admin-canary","port":8443}}]'
equal "the new item is defaulted" "admin:1 admin-canary:1" \
  getj "$routes/admin" '" ".join("%s:%s" % (b["name"], b["weight"]) for b in d["spec"]["backends"])'
expect "JSON patch remove" 'patched' k -n $ns patch route admin --type=json -p '[{"op":"remove","path":"/spec/headers"}]'
equal "removed" "<none>" getj "$routes/admin" 'd["spec"].get("headers", "<none>")'
refuse "a patch producing an invalid object is refused with its field" 'is invalid: spec\.backends\[0\]\.weight' \
  k -n $ns patch route admin --type=json -p '[{"op":"replace","path":"/spec/backends/0/weight","value":500}]'
equal "strategic merge patch is 415 for custom resources" "415 UnsupportedMediaType" \
  status PATCH "$routes/admin" -H 'Content-Type: application/strategic-merge-patch+json' --data '{"spec":{"tier":"internal"}}'
replaced() { k -n $ns get route metrics -o json | python3 -c 'import json,sys; d=json.load(sys.stdin); d["spec"]["timeout"]="5s"; print(json.dumps(d))' | k replace -f -; }
expect "kubectl replace (PUT with resourceVersion)" 'route.net.fleet.example.com/metrics replaced' replaced
equal "replaced" "5s 2" k -n $ns get route metrics -o jsonpath='{.spec.timeout} {.metadata.generation}'
equal "PUT without resourceVersion is 422 at metadata.resourceVersion" "422 Invalid FieldValueInvalid:metadata.resourceVersion" \
  status PUT "$routes/metrics" -H 'Content-Type: application/json' \
  --data '{"apiVersion":"net.fleet.example.com/v1","kind":"Route","metadata":{"name":"metrics","namespace":"fleet-demo"},"spec":{"hostname":"metrics.acme.example"}}'
equal "PUT with a stale resourceVersion is 409 Conflict" "409 Conflict" \
  status PUT "$routes/metrics" -H 'Content-Type: application/json' \
  --data '{"apiVersion":"net.fleet.example.com/v1","kind":"Route","metadata":{"name":"metrics","namespace":"fleet-demo","resourceVersion":"1"},"spec":{"hostname":"metrics.acme.example"}}'
expect "Conflict message" 'Operation cannot be fulfilled on routes\.net\.fleet\.example\.com "metrics": the object has been modified; please apply your changes to the latest version and try again' message

# ---------------------------------------------------------------- the second version
beta() { k -n $ns get "databases.v1beta1.data.fleet.example.com" "$@" 2>/dev/null; }
equal "kubectl get <plural>.v1beta1.<group>: apiVersion rewritten" "data.fleet.example.com/v1beta1 orders-db postgres" \
  beta orders-db -o jsonpath='{.apiVersion} {.metadata.name} {.spec.engine}'
expect "the deprecated version warns" 'Warning: data\.fleet\.example\.com/v1beta1 Database is deprecated; use data\.fleet\.example\.com/v1 Database' \
  k -n $ns get databases.v1beta1.data.fleet.example.com orders-db
equal "read through v1beta1: pruned by v1beta1's schema" "<none> <none> 3" \
  getj /apis/data.fleet.example.com/v1beta1/namespaces/$ns/databases/orders-db 'str(d["spec"].get("backup", "<none>")) + " " + str(d["spec"].get("storage", "<none>")) + " " + str(d["spec"]["replicas"])'
equal "read through v1: the v1 fields and defaults" "7 100Gi data.fleet.example.com/v1" \
  k -n $ns get databases.v1.data.fleet.example.com orders-db -o jsonpath='{.spec.backup.retentionDays} {.spec.storage.size} {.apiVersion}'
equal "a v1beta1 list has every item in v1beta1" "['data.fleet.example.com/v1beta1'] 2 DatabaseList" \
  getj /apis/data.fleet.example.com/v1beta1/namespaces/$ns/databases 'str(sorted({i["apiVersion"] for i in d["items"]})) + " " + str(len(d["items"])) + " " + d["kind"]'
equal "v1beta1's own printer columns" "NAME ENGINE VERSION AGE" header beta
equal "v1's printer columns" "NAME ENGINE VERSION REPLICAS PHASE AGE" header k -n $ns get databases.v1.data.fleet.example.com
beta_patch() { k -n $ns patch databases.v1beta1.data.fleet.example.com legacy-db --type=merge -p "$1" 2>/dev/null; }
expect "a write through v1beta1" 'database.data.fleet.example.com/legacy-db patched' beta_patch '{"spec":{"version":"8.4"}}'
equal "is read through v1" "8.4 data.fleet.example.com/v1" \
  k -n $ns get databases.v1.data.fleet.example.com legacy-db -o jsonpath='{.spec.version} {.apiVersion}'

# ---------------------------------------------------------------- CRD deletion held by a finalizer
expect "a finalizer on one Route" 'patched' k -n $ns patch route api --type=merge -p '{"metadata":{"finalizers":["net.fleet.example.com/drain"]}}'
expect "delete the Route CRD" 'customresourcedefinition.apiextensions.k8s.io "routes.net.fleet.example.com" deleted' \
  k delete crd routes.net.fleet.example.com --wait=false
terminating() {
  k get crd routes.net.fleet.example.com -o jsonpath='{.status.conditions[?(@.type=="Terminating")].status} {.status.conditions[?(@.type=="Terminating")].reason} {.metadata.finalizers}'
}
expect "CRD Terminating, held by its cleanup finalizer" '^True InstanceDeletion(InProgress|Check) \["customresourcecleanup\.apiextensions\.k8s\.io"\]$' \
  settle 10 '^True ' terminating
remaining() { k -n $ns get routes -o jsonpath='{range .items[*]}{.metadata.name}:{.metadata.deletionTimestamp} {end}'; }
expect "the other Routes are deleted, the finalized one is terminating" '^api:[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z $' \
  settle 10 '^api:[0-9]{4}-[0-9T:Z-]+ $' remaining
equal "creating while the CRD terminates is 403 Forbidden" "403 Forbidden" \
  status POST "$routes" -H 'Content-Type: application/json' \
  --data '{"apiVersion":"net.fleet.example.com/v1","kind":"Route","metadata":{"name":"late"},"spec":{"hostname":"late.acme.example"}}'
expect "forbidden message" 'create not allowed while custom resource definition is terminating' message
route_verbs() { getj /apis/net.fleet.example.com/v1 '",".join(sorted(v for r in d["resources"] if r["name"] == "routes" for v in r["verbs"]))'; }
equal "discovery verbs shrink while terminating" "delete,deletecollection,get,list,watch" \
  settle 5 '^delete,deletecollection,get,list,watch$' route_verbs
expect "the CRD still exists" 'routes\.net\.fleet\.example\.com' k get crd routes.net.fleet.example.com -o name
expect "release the finalizer" 'patched' k -n $ns patch route api --type=merge -p '{"metadata":{"finalizers":null}}'
# kubectl wait prints nothing when the CRD is already gone, which it may well be by now
k wait --for=delete crd/routes.net.fleet.example.com --timeout=30s >/dev/null 2>&1
refuse "the CRD goes away" 'NotFound' k get crd routes.net.fleet.example.com
gone() {
  echo "list=$(code GET "$routes") version=$(code GET /apis/net.fleet.example.com/v1)" \
    "aggregated=$(curl -s --max-time 10 -H "$aggregated" "$url/apis" | json 'any(g["metadata"]["name"] == "net.fleet.example.com" for g in d["items"])')" \
    "openapi=$(curl -s --max-time 10 "$url/openapi/v3" | json '"apis/net.fleet.example.com/v1" in d["paths"]')"
}
equal "endpoints, discovery and OpenAPI entries are gone" "list=404 version=404 aggregated=False openapi=False" \
  settle 5 'list=404 version=404 aggregated=False openapi=False' gone
equal "kubectl api-resources no longer lists it" "" k api-resources --api-group=net.fleet.example.com -o name
equal "re-create the CRD" "customresourcedefinition.apiextensions.k8s.io/routes.net.fleet.example.com created" \
  k apply -f "$td/crds/net.fleet.example.com_routes.yaml"
expect "Established again" 'condition met' k wait --for condition=Established crd/routes.net.fleet.example.com --timeout=20s
empty() { echo "$(code GET "$routes") $(getj "$routes" 'len(d["items"])')"; }
equal "it starts empty" "200 0" settle 5 '^200 0$' empty
expect "kubectl agrees" 'No resources found in fleet-demo namespace' k -n $ns get routes
equal "the testdata Routes again" "route.net.fleet.example.com/admin route.net.fleet.example.com/api route.net.fleet.example.com/metrics" \
  sorted k apply -f "$td/resources/routes.yaml" -o name

# ---------------------------------------------------------------- persistence across a restart
snapshot() {
  getj "$sj/nightly-report" 'd["metadata"]["uid"] + "/" + d["metadata"]["resourceVersion"] + "/" + str(d["spec"]["parallelism"]) + "/" + str(d["status"]["replicas"])'
  getj "$routes/api" 'd["metadata"]["uid"] + "/" + d["spec"]["tier"]'
}
before=$(snapshot 2>&1) || before="(no snapshot before the restart: $before)"
stop_server
start_server --data-dir "$work/data"
equal "right after ready: the custom resources are served, unchanged" "$before" snapshot
equal "right after ready: discovery has every group" "batch.fleet.example.com data.fleet.example.com fleet.example.com net.fleet.example.com" \
  getj /apis '" ".join(sorted(g["name"] for g in d["groups"] if g["name"].endswith("fleet.example.com")))'
equal "the CRDs are Established again" "$(crd_lines '%s NoConflicts True')" conditions
equal "lists after the restart" "cache-warmer db-vacuum nightly-report pruned-job" \
  getj /apis/batch.fleet.example.com/v1/scheduledjobs '" ".join(sorted(i["metadata"]["name"] for i in d["items"]))'
equal "the second version after the restart" "data.fleet.example.com/v1beta1 8.4" \
  beta legacy-db -o jsonpath='{.apiVersion} {.spec.version}'
expect "writes after the restart" 'scheduledjob.batch.fleet.example.com/nightly-report scaled' k -n $ns scale sj nightly-report --replicas=4
expect "still serving" '^200 ok$' http GET /healthz
stop_server

finish
