#!/usr/bin/env bash
# kubectl_e2e.sh BIN — the project's own end-to-end checks of kube-apiserver-lite with unchanged
# kubectl and curl: health and version, discovery, bad input answered with Status errors,
# namespace lifecycle, dry run, deletecollection, field validation, Table and
# PartialObjectMetadata watches, clean SIGTERM with open watches, persistence with --data-dir.
bin=${1:?usage: kubectl_e2e.sh path/to/kube-apiserver-lite}
. "$(dirname "$0")/lib.sh"

start_server
expect "healthz" '^200 ok$' http GET /healthz
expect "readyz verbose" 'readyz check passed' http GET '/readyz?verbose'
expect "version is the catalogue's API level" '"minor": ?"36"' http GET /version
expect "aggregated discovery content type" 'as=APIGroupDiscoveryList' \
  curl -s -D - -o /dev/null -H 'Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' "$url/apis"
expect "legacy discovery of a group" '"preferredVersion":\{"groupVersion":"apps/v1"' http GET /apis/apps
expect "unknown path is a plain 404" '^404 404 page not found' http GET /nope

# Bad input: a Status with the right code, and the server keeps serving.
expect "malformed JSON is 400" '^400 .*"reason":"BadRequest"' http POST /api/v1/namespaces/default/configmaps -H 'Content-Type: application/json' --data '{bad'
expect "malformed YAML is 400" '^400 .*error converting YAML' http POST /api/v1/namespaces/default/configmaps -H 'Content-Type: application/yaml' --data $'a: [\n'
expect "wrong kind is 400" '^400 .*Secret in version \\"v1\\" cannot be handled as a ConfigMap: converting \(v1.Secret\) to \(core.ConfigMap\): unknown conversion' http POST /api/v1/namespaces/default/configmaps -H 'Content-Type: application/json' --data '{"kind":"Secret","apiVersion":"v1","metadata":{"name":"x"}}'
expect "wrong value type is 400" '^400 .*cannot unmarshal number' http POST /api/v1/namespaces/default/configmaps -H 'Content-Type: application/json' --data '{"metadata":{"name":"x"},"data":{"a":5}}'
head -c 4000000 /dev/zero | tr '\0' 'a' >"$work/huge"
expect "oversized body is 413" '^413 .*RequestEntityTooLarge' http POST /api/v1/namespaces/default/configmaps -H 'Content-Type: application/json' --data-binary @"$work/huge"
expect "bad label selector is 400" '^400 .*unable to parse requirement' http GET '/api/v1/pods?labelSelector=a%20in%20('
expect "unsupported field selector is 400" '^400 .*field label not supported: spec.foo' http GET '/api/v1/pods?fieldSelector=spec.foo=x'
expect "bad resourceVersion is 400" '^400 .*invalid resource version' http GET '/api/v1/pods?resourceVersion=abc'
expect "unknown media type is 415" '^415 .*UnsupportedMediaType' http POST /api/v1/namespaces/default/configmaps -H 'Content-Type: text/html' --data 'x'
expect "server-side apply without fieldManager is 422" '^422 .*fieldManager: Required value: is required for apply patch' http PATCH /api/v1/namespaces/default/configmaps/x -H 'Content-Type: application/apply-patch+yaml' --data 'a: b'
expect "'..' as a name is kube's 400" "^400 .*Name parameter invalid: .*may not be '\\.\\.'" \
  http DELETE /api/v1/namespaces/default/configmaps/.. --path-as-is
expect "a POST without a body is answered at once" '^400 .*unexpected end of JSON input' \
  http POST /api/v1/namespaces/default/configmaps --max-time 5
expect "JSON nested past 10,000 levels is 400" '^400 .*exceeded max depth' \
  bash -c "python3 -c \"print('{\\\"data\\\":' + '['*10001 + ']'*10001 + '}')\" | curl -s -w '%{http_code} ' -o '$work/body' -XPOST -H 'Content-Type: application/json' --data-binary @- '$url/api/v1/namespaces/default/configmaps'; cat '$work/body'"
expect "null name is a 422, not a 500" '^422 .*name or generateName is required' \
  http POST /api/v1/namespaces/default/configmaps -H 'Content-Type: application/json' --data '{"metadata":{"name":null,"namespace":null,"generateName":null}}'
expect "null and empty omitempty values are not stored" '^\{"app":""\} absent$' bash -c \
  "curl -s -XPOST -H 'Content-Type: application/json' --data '{\"metadata\":{\"name\":\"nulls\",\"labels\":{\"app\":null},\"annotations\":{}},\"data\":null}' $url/api/v1/namespaces/default/configmaps >/dev/null &&
   $kubectl --cache-dir $KUBECACHEDIR get cm nulls -o jsonpath='{.metadata.labels} {.metadata.annotations}{.data}' && echo absent"
head -c 2000000 /dev/zero | tr '\0' 'a' >"$work/big"
# A ConfigMap's data is limited to 1 MiB by validation (kube's 422); a pod's env value is not, so
# a pod that large reaches the storage limit.
expect "a ConfigMap over 1 MiB is kube's 422" '^422 .*ConfigMap \\"big\\" is invalid: \[\]: Too long: may not be more than 1048576 bytes' \
  bash -c "printf '{\"metadata\":{\"name\":\"big\"},\"data\":{\"a\":\"%s\"}}' \$(cat '$work/big') | curl -s -w '%{http_code} ' -o '$work/body' -XPOST -H 'Content-Type: application/json' --data-binary @- '$url/api/v1/namespaces/default/configmaps'; cat '$work/body'"
expect "an object over etcd's 1.5 MiB is 413" '^413 .*etcdserver: request is too large' \
  bash -c "printf '{\"metadata\":{\"name\":\"big\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"env\":[{\"name\":\"A\",\"value\":\"%s\"}]}]}}' \$(cat '$work/big') | curl -s -w '%{http_code} ' -o '$work/body' -XPOST -H 'Content-Type: application/json' --data-binary @- '$url/api/v1/namespaces/default/pods'; cat '$work/body'"
expect "still serving" '^200 ok$' http GET /healthz

cat >"$work/cm.yaml" <<'Y'
apiVersion: v1
kind: ConfigMap
metadata: {name: e2e-cm, labels: {app: e2e}}
data: {a: "1"}
Y
expect "dry-run create stores nothing" 'created \(server dry run\)' k create -f "$work/cm.yaml" --dry-run=server
refuse "dry-run object absent" 'NotFound' k get cm e2e-cm
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: warn-cm}\nbogus: 1\n' >"$work/warn.yaml"
expect "unknown field warns with --validate=warn" 'unknown field "bogus"' k create -f "$work/warn.yaml" --validate=warn
expect "duplicate field refused under Strict" '^400 .*strict decoding error: duplicate field \\"data\\"' \
  http POST '/api/v1/namespaces/default/configmaps?fieldValidation=Strict' -H 'Content-Type: application/json' \
  --data '{"metadata":{"name":"dup"},"data":{"a":"1"},"data":{"b":"2"}}'
expect "duplicate field warned under Warn" 'Warning: 299 - "duplicate field \\"data\\""' \
  curl -s -D - -o /dev/null -XPOST -H 'Content-Type: application/json' \
  --data '{"metadata":{"name":"dup"},"data":{"a":"1"},"data":{"b":"2"}}' "$url/api/v1/namespaces/default/configmaps"
expect "create" 'created' k create -f "$work/cm.yaml"
expect "table with labels" 'e2e-cm .*app=e2e' k get cm --show-labels
expect "deletecollection by label" 'deleted' k delete cm -l app=e2e
refuse "deleted by the collection delete" 'NotFound' k get cm e2e-cm

# Protobuf request bodies (kubectl >= 1.32 sends them for its built-in generators) and reviews.
expect "create configmap with a protobuf body" 'configmap/pb-cm created' k create configmap pb-cm --from-literal=k=v
expect "protobuf body read back" '^v$' k get cm pb-cm -o jsonpath='{.data.k}'
PB='Accept: application/vnd.kubernetes.protobuf, */*'
expect "protobuf object response (k8s magic + Unknown)" '^6b387300.*436f6e6669674d6170' \
  bash -c "curl -s -H '$PB' $url/api/v1/namespaces/default/configmaps/pb-cm | od -An -tx1 | tr -d ' \n'"
expect "protobuf Status for errors" '^6b387300.*537461747573' \
  bash -c "curl -s -H '$PB' $url/api/v1/namespaces/default/configmaps/absent | od -An -tx1 | tr -d ' \n'"
expect "protobuf watch frames (length + WatchEvent ADDED)" '^000000[0-9a-f]{2}0a054144444544' \
  bash -c "curl -s -H 'Accept: application/vnd.kubernetes.protobuf' '$url/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1' | od -An -tx1 | tr -d ' \n'"
expect "Table stays JSON when protobuf is preferred first" '"kind":"Table"' \
  curl -s -H 'Accept: application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io' "$url/api/v1/namespaces/default/configmaps"
expect "malformed protobuf is 400" '^400 .*"reason":"BadRequest"' http POST /api/v1/namespaces/default/configmaps \
  -H 'Content-Type: application/vnd.kubernetes.protobuf' --data-binary 'k8s'
expect "auth can-i (SelfSubjectAccessReview)" '^yes$' k auth can-i get pods
expect "auth whoami (SelfSubjectReview)" 'kube-apiserver-lite:admin' k auth whoami
expect "describe a pod" 'Name: +pb-pod' bash -c "$kubectl --cache-dir $KUBECACHEDIR run pb-pod --image=nginx >/dev/null && $kubectl --cache-dir $KUBECACHEDIR describe pod pb-pod"

expect "pods are defaulted (restartPolicy, imagePullPolicy, QoS)" '^Always Always BestEffort$' \
  k get pod pb-pod -o jsonpath='{.spec.restartPolicy} {.spec.containers[0].imagePullPolicy} {.status.qosClass}'
expect "deployments are defaulted (strategy)" '^RollingUpdate 25% 10$' bash -c "$kubectl --cache-dir $KUBECACHEDIR create deployment dflt --image=nginx:1.25 >/dev/null && $kubectl --cache-dir $KUBECACHEDIR get deploy dflt -o jsonpath='{.spec.strategy.type} {.spec.strategy.rollingUpdate.maxSurge} {.spec.revisionHistoryLimit}'"

# PartialObjectMetadata and Table watches.
rv=$(k get cm -o jsonpath='{.metadata.resourceVersion}')
(sleep 0.5; k create cm pom-cm --from-literal=x=y >/dev/null 2>&1 || \
   curl -s -XPOST -H 'Content-Type: application/json' --data '{"metadata":{"name":"pom-cm"}}' "$url/api/v1/namespaces/default/configmaps" >/dev/null) &
creator=$!
expect "PartialObjectMetadata watch" '"kind":"PartialObjectMetadata"' \
  curl -s -H 'Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' \
  "$url/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=$rv&timeoutSeconds=2"
wait "$creator"
expect "PartialObjectMetadataList" '"kind":"PartialObjectMetadataList"' \
  curl -s -H 'Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' "$url/api/v1/namespaces/default/configmaps"
curl -s -H 'Accept: application/json;as=Table;g=meta.k8s.io;v=v1' \
  "$url/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1" >"$work/table-watch"
expect "Table watch: column definitions with the first event" '"columnDefinitions":\[.*"kind":"Table"' head -n1 "$work/table-watch"
expect "Table watch: none with later events" '"columnDefinitions":null' sed -n 2p "$work/table-watch"

# Namespace lifecycle, which envtest's kube-apiserver lacks a controller for.
refuse "default namespace cannot be deleted" 'forbidden: this namespace may not be deleted' k delete ns default
expect "create namespace" 'created' k create -f - <<<'{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"e2e-ns"}}'
expect "object with a finalizer in it" 'created' k create -n e2e-ns -f - <<<'{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"held","finalizers":["e2e.example.com/hold"]}}'
expect "delete the namespace" 'deleted' k delete ns e2e-ns --wait=false
expect "namespace is Terminating" 'Terminating' k get ns e2e-ns
refuse "creating in a terminating namespace is forbidden" 'is being terminated' k create -n e2e-ns -f "$work/cm.yaml"
expect "content is being deleted" '[0-9TZ:-]{20}' k get cm held -n e2e-ns -o jsonpath='{.metadata.deletionTimestamp}'
expect "release the finalizer" 'patched' k patch cm held -n e2e-ns --type=merge -p '{"metadata":{"finalizers":null}}'
# kubectl wait prints nothing when the namespace is already gone, which it may well be by now.
k wait --for=delete ns/e2e-ns --timeout=20s >/dev/null 2>&1
refuse "the namespace goes away" 'NotFound' k get ns e2e-ns

# SIGTERM with an open watch stops the server promptly and cleanly.
curl -s "$url/api/v1/configmaps?watch=1" >/dev/null &
watcher=$!
sleep 0.3
start=$(date +%s%N)
kill -TERM "$server"
if wait "$server"; then
  elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
  if [ "$elapsed" -lt 5000 ]; then ok "SIGTERM with an open watch (${elapsed} ms)"; else bad "SIGTERM too slow" "$elapsed ms"; fi
else
  bad "SIGTERM exit status" "$(tail -5 "$work/server.err")"
fi
server=""
wait "$watcher" 2>/dev/null

# Persistence: a data dir survives a restart.
start_server --data-dir "$work/data"
expect "create in a persisted server" 'created' k create -f "$work/cm.yaml"
before=$(k get cm e2e-cm -o jsonpath='{.metadata.uid}/{.metadata.resourceVersion}')
stop_server
start_server --data-dir "$work/data"
expect "the object survived the restart" "^$before\$" k get cm e2e-cm -o jsonpath='{.metadata.uid}/{.metadata.resourceVersion}'
expect "initial namespaces not duplicated" '^4$' bash -c "KUBECONFIG=$KUBECONFIG $kubectl --cache-dir $KUBECACHEDIR get ns --no-headers | wc -l | tr -d ' '"
stop_server

finish
