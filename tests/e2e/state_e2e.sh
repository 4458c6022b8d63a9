#!/usr/bin/env bash
# state_e2e.sh BIN — state between tests end to end: POST /admin/reset and the snapshot paths over
# plain HTTP (privileged) with open watches — a curl watch ends with ERROR 410 Expired, kubectl
# get -w ends, an informer-style client (tests/e2e/informer.py) relists and converges on the
# restored state —, monotonic resourceVersions, 410 for old resourceVersions and continue tokens,
# CRDs going with a reset (serving and discovery follow), snapshots saved, modified and restored;
# then over HTTPS with RBAC: a user outside system:masters is refused with kube's 403, and
# authorization follows the restored bindings as soon as the reset returns. One line per check;
# exits 1 on any failure.
bin=${1:?usage: state_e2e.sh path/to/kube-apiserver-lite}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

rv_of() { json 'd["metadata"]["resourceVersion"]'; }
cms() { k get configmaps -n default -o 'jsonpath={range .items[*]}{.metadata.name} {end}'; }
informer_pid=""
kill_informer() { [ -n "$informer_pid" ] && kill "$informer_pid" 2>/dev/null; informer_pid=""; }
trap 'kill_informer; cleanup' EXIT

start_server --data-dir "$work/data"

# ---------------------------------------------------------------- reset with open watches
# The initial state (marked before "ready") has no config map in default; namespace default is in it.
ns_rv=$(curl -s "$url/api/v1/namespaces/default" | rv_of)
kube_system_before=$(curl -s "$url/api/v1/namespaces/kube-system" | rv_of)
k label namespace default changed=yes >/dev/null
k create configmap temp -n default --from-literal=a=1 >/dev/null
k create namespace scratch >/dev/null
k create configmap in-scratch -n scratch >/dev/null
before=$(curl -s "$url/api/v1/namespaces/default/configmaps" | rv_of)
page_token=$(curl -s "$url/api/v1/configmaps?limit=1" | json 'd["metadata"].get("continue", "")')

curl -sN --max-time 20 "$url/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=$before" >"$work/watch.out" &
watch_pid=$!
k get configmaps -n default -w --output-watch-events -o json >"$work/kubectl-watch.out" 2>&1 &
kubectl_pid=$!
python3 "$here/informer.py" "$url" /api/v1/namespaces/default/configmaps "$work/informer.out" &
informer_pid=$!
settle 10 'STATE temp' cat "$work/informer.out" >/dev/null
k create configmap late -n default >/dev/null
settle 10 'STATE late,temp' cat "$work/informer.out" >/dev/null
settle 10 'late' cat "$work/kubectl-watch.out" >/dev/null

reset_start=$SECONDS
reset_out=$(http POST /admin/reset)
equal "POST /admin/reset: 200 Success" 'Success 200' \
  eval "printf '%s' '${reset_out#* }' | json '\"%s %s\" % (d[\"status\"], d[\"code\"])'"
reset_rv=$(printf '%s' "${reset_out#* }" | rv_of)
equal "the reset's resourceVersion is newer than anything before it" yes \
  eval "[ '$reset_rv' -gt '$before' ] && echo yes"

wait "$watch_pid"
expect "the open curl watch ended with ERROR and a 410 Expired Status" '"type":"ERROR".*"code":410.*"reason":"Expired"' \
  tail -n 1 "$work/watch.out"
expect "... after the event from before the reset" '"type":"ADDED".*"name":"late"' head -n 1 "$work/watch.out"
equal "... and its stream closed at once (curl returned)" yes eval "[ $((SECONDS - reset_start)) -lt 10 ] && echo yes"
wait "$kubectl_pid"
kubectl_rc=$?
expect "kubectl get -w printed the ERROR event (410 Expired)" '"type": ?"ERROR".*"reason": ?"Expired"' cat "$work/kubectl-watch.out"
equal "... and ended (not killed by its timeout)" yes eval "[ $kubectl_rc -ne 124 ] && [ $((SECONDS - reset_start)) -lt 15 ] && echo yes"

expect "the informer got ERROR 410 Expired and relisted" 'ERROR 410 Expired' cat "$work/informer.out"
expect "the informer's relist shows the initial state (no config map)" '^STATE $' \
  settle 10 '^STATE $' eval "tail -n 1 $work/informer.out"
kill_informer

equal "a fresh list shows the initial state" '' cms
refuse "the namespace created after the initial state is gone" 'NotFound' k get namespace scratch
equal "the four initial namespaces are back" 'default kube-node-lease kube-public kube-system ' \
  k get namespaces -o 'jsonpath={range .items[*]}{.metadata.name} {end}'
equal "namespace default is restored without the label" '' k get namespace default -o 'jsonpath={.metadata.labels.changed}'
ns_after=$(curl -s "$url/api/v1/namespaces/default" | rv_of)
equal "the restored object has the reset's resourceVersion, not its old one" "$reset_rv" echo "$ns_after"
equal "... which is newer than the old one" yes eval "[ '$ns_after' -gt '$ns_rv' ] && echo yes"
kube_system_rv=$(curl -s "$url/api/v1/namespaces/kube-system" | rv_of)
equal "an object the test did not touch keeps its resourceVersion" "$kube_system_before" echo "$kube_system_rv"
expect "a list at the old resourceVersion (Exact) is 410 Expired" '^410 .*"reason":"Expired"' \
  http GET "/api/v1/namespaces/default/configmaps?resourceVersion=$before&resourceVersionMatch=Exact"
expect "a continue token from before the reset is 410 Expired" '^410 .*"reason":"Expired"' \
  http GET "/api/v1/configmaps?limit=1&continue=$page_token"
expect "a watch from before the reset ends at once with ERROR 410" '"type":"ERROR".*"code":410' \
  curl -sN --max-time 5 "$url/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=$before"
k create configmap after -n default >/dev/null
after_rv=$(curl -s "$url/api/v1/namespaces/default/configmaps/after" | rv_of)
equal "writes after the reset continue the resourceVersion sequence" yes eval "[ '$after_rv' -gt '$reset_rv' ] && echo yes"
equal "a second reset removes it again" '' eval "curl -s -o /dev/null -X POST $url/admin/reset; cms"

# ---------------------------------------------------------------- CRDs go with the reset
cat >"$work/crd.yaml" <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
YAML
k apply -f "$work/crd.yaml" >/dev/null
k wait --for condition=Established crd/widgets.example.com --timeout=10s >/dev/null
printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\n' | k apply -f - >/dev/null
expect "a CRD created after the initial state serves its resources" 'w1' k get widgets -n default -o name
equal "reset (with a CRD to remove)" 200 eval "curl -s -o /dev/null -w '%{http_code}' -X POST $url/admin/reset"
refuse "the CRD is gone" 'NotFound' k get crd widgets.example.com
equal "its group is gone from discovery at once" 404 \
  eval "curl -s -o /dev/null -w '%{http_code}' $url/apis/example.com/v1"
equal "its resources are no longer served" 404 \
  eval "curl -s -o /dev/null -w '%{http_code}' $url/apis/example.com/v1/namespaces/default/widgets"

# ---------------------------------------------------------------- snapshots: save, modify, restore
k apply -f "$work/crd.yaml" >/dev/null
k wait --for condition=Established crd/widgets.example.com --timeout=10s >/dev/null
k create configmap snap-a -n default --from-literal=v=1 >/dev/null
printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {size: 1}\n' | k apply -f - >/dev/null
expect "POST /admin/snapshots/s1 saves (Success)" '^200 .*"status":"Success"' http POST /admin/snapshots/s1
expect "GET /admin/snapshots lists it with its object count" '^s1 [0-9]+ [0-9]+$' \
  eval "curl -s $url/admin/snapshots | json '\" \".join(\"%s %s %s\" % (i[\"name\"], i[\"resourceVersion\"], i[\"objects\"]) for i in d[\"items\"])'"
expect "... and the initial state" '^initial [0-9]+$' \
  eval "curl -s $url/admin/snapshots | json '\"%s %s\" % (d[\"initial\"][\"name\"], d[\"initial\"][\"objects\"])'"
k delete configmap snap-a -n default >/dev/null
k create configmap snap-b -n default >/dev/null
printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {size: 2}\n' | k apply -f - >/dev/null
k delete crd widgets.example.com --wait=true >/dev/null
refuse "the CRD was deleted before the restore" 'NotFound' k get crd widgets.example.com
expect "POST /admin/snapshots/s1/restore (Success)" '^200 .*"status":"Success"' http POST /admin/snapshots/s1/restore
equal "the saved config maps are back, the later one gone" 'snap-a ' cms
expect "the deleted CRD is back and served with its resource at once" 'size.:1' \
  eval "curl -s $url/apis/example.com/v1/namespaces/default/widgets/w1"
expect "... and in discovery" 'widgets' eval "curl -s $url/apis/example.com/v1"
expect "restoring an unknown snapshot is 404 NotFound" '^404 .*"reason":"NotFound"' http POST /admin/snapshots/nope/restore
expect "a bad snapshot name is 400" '^400 .*"reason":"BadRequest"' http POST '/admin/snapshots/a%20b'
expect "GET /admin/reset is 405" '^405 ' http GET /admin/reset
expect "an unknown admin path is 404 Status" '^404 .*"kind":"Status"' http GET /admin/nothing
expect "DELETE /admin/snapshots/s1 (Success)" '^200 .*"status":"Success"' http DELETE /admin/snapshots/s1
expect "... then it is gone" '^404 ' http POST /admin/snapshots/s1/restore
stop_server

# ---------------------------------------------------------------- --data-dir: the restored state persists
start_server --data-dir "$work/data"
equal "after a restart the restored state is there" 'snap-a ' cms
expect "... with the restored CRD served" 'size.:1' eval "curl -s $url/apis/example.com/v1/namespaces/default/widgets/w1"
k create configmap post-restart -n default >/dev/null
equal "reset returns to the state the restarted server was ready with" 'snap-a ' \
  eval "curl -s -o /dev/null -X POST $url/admin/reset; cms"
stop_server

# ---------------------------------------------------------------- HTTPS, RBAC: superusers only
e2e_secure=1
export CURL_HOME=$work
printf 'e2e-admin-token,e2e-admin,e2e-admin-uid,"system:masters"\nalice-token,alice,alice-uid\n' >"$work/tokens.csv"
start_server --authorization-mode=RBAC
as_alice() { curl -q -s --cacert "$work/ca.crt" -H 'Authorization: Bearer alice-token' "$@"; }
equal "alice may not reset: 403 with kube's message" '403 forbidden: User "alice" cannot post path "/admin/reset"' \
  eval "as_alice -o $work/alice.json -w '%{http_code}' -X POST $url/admin/reset; echo -n ' '; json 'd[\"message\"]' <$work/alice.json"
equal "... nor list or save snapshots" '403 403' \
  eval "echo \$(as_alice -o /dev/null -w '%{http_code}' $url/admin/snapshots) \$(as_alice -o /dev/null -w '%{http_code}' -X POST $url/admin/snapshots/x)"
equal "alice cannot list pods yet" 403 eval "as_alice -o /dev/null -w '%{http_code}' $url/api/v1/namespaces/default/pods"
k create rolebinding alice-view -n default --clusterrole=view --user=alice >/dev/null
equal "once bound, alice lists pods" 200 \
  settle 5 '^200$' eval "as_alice -o /dev/null -w '%{http_code}' $url/api/v1/namespaces/default/pods"
expect "the admin (system:masters) resets over HTTPS" '^200 .*"status":"Success"' http POST /admin/reset
# With kube's message, so that a failure shows what alice got (a PodList's kind, another Status).
equal "right after the reset alice is refused again (the binding went with it)" \
  '403 pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"' \
  eval "as_alice -o $work/alice-after.json -w '%{http_code}' $url/api/v1/namespaces/default/pods; echo -n ' '; json 'd.get(\"message\") or d.get(\"kind\")' <$work/alice-after.json"
equal "the bootstrap policy is intact after the reset" 69 \
  eval 'k get clusterroles -l kubernetes.io/bootstrapping=rbac-defaults -o name | wc -l'

finish
