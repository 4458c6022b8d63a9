#!/usr/bin/env bash
# versions_e2e.sh BIN — served group versions and conversion between them, with unchanged kubectl
# and curl: a stock server serves exactly kube-apiserver 1.36's default group versions
# (discovery, OpenAPI and routing agree), --runtime-config turns beta/alpha versions and single
# resources on; an HPA written through autoscaling/v1 reads back converted through v2 (and the
# reverse, through JSON, YAML, watch, Table and protobuf), a core v1 Event reads back through
# events.k8s.io/v1 with regarding/note filled.
bin=${1:?usage: versions_e2e.sh path/to/kube-apiserver-lite}
. "$(dirname "$0")/lib.sh"

# kube-apiserver 1.36 without --runtime-config: every GA group version, no beta or alpha one.
kube_default='admissionregistration.k8s.io/v1
apiextensions.k8s.io/v1
apiregistration.k8s.io/v1
apps/v1
authentication.k8s.io/v1
authorization.k8s.io/v1
autoscaling/v1
autoscaling/v2
batch/v1
certificates.k8s.io/v1
coordination.k8s.io/v1
discovery.k8s.io/v1
events.k8s.io/v1
flowcontrol.apiserver.k8s.io/v1
networking.k8s.io/v1
node.k8s.io/v1
policy/v1
rbac.authorization.k8s.io/v1
resource.k8s.io/v1
scheduling.k8s.io/v1
storage.k8s.io/v1
v1'

start_server
equal "api-versions is kube 1.36's default set" "$kube_default" k api-versions
equal "aggregated discovery lists the same set" "$kube_default" bash -c \
  "curl -s -H 'Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' $url/apis |
   python3 -c 'import json,sys; d=json.load(sys.stdin); print(\"\n\".join(sorted(g[\"metadata\"][\"name\"]+\"/\"+v[\"version\"] for g in d[\"items\"] for v in g[\"versions\"])))';
   curl -s $url/api | python3 -c 'import json,sys; print(\"\n\".join(json.load(sys.stdin)[\"versions\"]))'"
equal "OpenAPI v3 lists the same set" "$kube_default" bash -c \
  "curl -s $url/openapi/v3 | python3 -c 'import json,sys; print(\"\n\".join(sorted(p.split(\"/\",1)[1] for p in json.load(sys.stdin)[\"paths\"] if p.count(\"/\")==2 or p==\"api/v1\")))' | sed 's|^v1\$|v1|'"
expect "OpenAPI v2 has no definitions of unserved versions" '^0 [1-9]' bash -c \
  "curl -s $url/openapi/v2 | python3 -c 'import json,sys; d=json.load(sys.stdin)[\"definitions\"]; print(sum(k.startswith(\"io.k8s.api.coordination.v1beta1.\") for k in d), sum(k.startswith(\"io.k8s.api.coordination.v1.\") for k in d))'"
expect "a beta version is not routed" '^404 ' http GET /apis/coordination.k8s.io/v1beta1/leasecandidates
expect "a group with only off versions is absent" '^404 ' http GET /apis/storagemigration.k8s.io
expect "autoscaling prefers v2" '"preferredVersion":\{"groupVersion":"autoscaling/v2"' http GET /apis/autoscaling

# HPA through both versions: one stored object, converted each way. (Full resource names: kubectl
# drops the version of a short name such as hpa.v1.autoscaling.)
cat >"$work/hpa-v1.yaml" <<'YAML'
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
  targetCPUUtilizationPercentage: 50
YAML
expect "create an HPA through autoscaling/v1" 'created' k create -f "$work/hpa-v1.yaml"
equal "v2 shows the cpu target as a Utilization metric" 'Resource cpu Utilization 50' \
  k get horizontalpodautoscalers.v2.autoscaling web -o jsonpath='{.spec.metrics[0].type} {.spec.metrics[0].resource.name} {.spec.metrics[0].resource.target.type} {.spec.metrics[0].resource.target.averageUtilization}'
equal "v1 reads it back without annotations" '50 ' \
  k get horizontalpodautoscalers.v1.autoscaling web -o jsonpath='{.spec.targetCPUUtilizationPercentage} {.metadata.annotations}'
expect "v2 add a pods metric (merge patch in v2)" 'patched' k patch horizontalpodautoscalers.v2.autoscaling web --type=merge \
  -p '{"spec":{"metrics":[{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"10"}}},{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}}'
expect "v1 carries the pods metric in kube's annotation" 'autoscaling.alpha.kubernetes.io/metrics: .*"metricName":"qps"' \
  k get horizontalpodautoscalers.v1.autoscaling web -o yaml
expect "a v1 merge patch applies in v1 and keeps what only v2 holds" 'patched' \
  k patch horizontalpodautoscalers.v1.autoscaling web --type=merge -p '{"spec":{"targetCPUUtilizationPercentage":65}}'
equal "v2 after the v1 patch" 'Pods qps 10|Resource cpu 65|' bash -c \
  "$kubectl --cache-dir $KUBECACHEDIR get horizontalpodautoscalers.v2.autoscaling web -o jsonpath='{range .spec.metrics[*]}{.type} {.pods.metric.name}{.resource.name} {.pods.target.averageValue}{.resource.target.averageUtilization}|{end}'"
expect "v1 JSON read over REST" '"targetCPUUtilizationPercentage":65' http GET /apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web
expect "v1 list converts items" '"apiVersion":"autoscaling/v1".*"targetCPUUtilizationPercentage":65' \
  http GET /apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers
expect "v1 watch events are converted" '"type":"ADDED".*"apiVersion":"autoscaling/v1".*"targetCPUUtilizationPercentage":65' \
  http GET '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers?watch=1&timeoutSeconds=1'
expect "v1 Table rows" '"kind":"Table".*"name":"web"' http GET /apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers \
  -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io'
expect "v1 protobuf carries v1 and the annotation" 'autoscaling/v1.*autoscaling.alpha.kubernetes.io/metrics' bash -c \
  "curl -s -H 'Accept: application/vnd.kubernetes.protobuf' $url/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web | tr -c '[:print:]' ' '"
expect "v2 protobuf carries v2 metrics" 'autoscaling/v2.*qps' bash -c \
  "curl -s -H 'Accept: application/vnd.kubernetes.protobuf' $url/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web | tr -c '[:print:]' ' '"
expect "server-side apply through v1" 'serverside-applied' bash -c \
  "sed 's/targetCPUUtilizationPercentage: 50/targetCPUUtilizationPercentage: 70/; s/name: web, /name: web2, /' $work/hpa-v1.yaml | $kubectl --cache-dir $KUBECACHEDIR apply --server-side -f -"
equal "the applied v1 object in v2" 'cpu 70' \
  k get horizontalpodautoscalers.v2.autoscaling web2 -o jsonpath='{.spec.metrics[0].resource.name} {.spec.metrics[0].resource.target.averageUtilization}'
expect "a malformed metrics annotation written through v1 is 400" '^400 ' \
  http POST /apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers -H 'Content-Type: application/json' \
  --data '{"metadata":{"name":"bad","annotations":{"autoscaling.alpha.kubernetes.io/metrics":"{x"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":2}}'

# Events: one store, two shapes.
cat >"$work/event.yaml" <<'YAML'
apiVersion: v1
kind: Event
metadata: {name: ev1, namespace: default}
involvedObject: {kind: Pod, name: mypod, namespace: default}
reason: Started
message: Started container app
type: Normal
source: {component: kubelet, host: node1}
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:00:00Z"
count: 1
YAML
expect "create a core v1 Event" 'created' k create -f "$work/event.yaml"
out=$(k get events.v1.events.k8s.io ev1 -o yaml 2>&1)
expect "events.k8s.io/v1 has regarding" 'regarding:' printf '%s\n' "$out"
expect "events.k8s.io/v1 has the note" 'note: Started container app' printf '%s\n' "$out"
expect "events.k8s.io/v1 has deprecatedSource" 'component: kubelet' printf '%s\n' "$out"
expect "events.k8s.io/v1 has no core field names" '^absent$' bash -c "grep -Eq '^(involvedObject|message):' <<<'$out' && echo present || echo absent"
expect "kubectl events shows OBJECT and MESSAGE" 'Pod/mypod +Started container app' k events -n default
expect "an events.k8s.io Event reads back through core v1" '"message":"hello".*"reportingComponent":"ctrl"|"reportingComponent":"ctrl".*"message":"hello"' bash -c \
  "curl -s -XPOST -H 'Content-Type: application/json' $url/apis/events.k8s.io/v1/namespaces/default/events --data '{\"metadata\":{\"name\":\"ev2\"},\"eventTime\":\"2026-01-01T00:00:00.000000Z\",\"regarding\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"default\"},\"note\":\"hello\",\"reason\":\"R\",\"type\":\"Normal\",\"action\":\"A\",\"reportingController\":\"ctrl\",\"reportingInstance\":\"i\"}' >/dev/null;
   curl -s $url/api/v1/namespaces/default/events/ev2"
expect "kubectl events shows an events.k8s.io Event's object and note" 'Pod/p +hello' k events -n default
stop_server

# --runtime-config turns versions and single resources on (and GA ones off).
start_server --runtime-config=api/beta=true,autoscaling/v1=false
expect "api/beta=true serves beta versions" 'coordination.k8s.io/v1beta1' k api-versions
expect "... and no alpha one" '^absent$' bash -c "$kubectl --cache-dir $KUBECACHEDIR api-versions | grep -q alpha && echo present || echo absent"
expect "group/version=false takes a GA version away" '^404 ' http GET /apis/autoscaling/v1/horizontalpodautoscalers
expect "the beta version is routed" '^200 ' http GET /apis/coordination.k8s.io/v1beta1/leasecandidates
stop_server
start_server --runtime-config=resource.k8s.io/v1beta1/resourceclaims=true
expect "one resource of a beta version" '^200 ' http GET /apis/resource.k8s.io/v1beta1/resourceclaims
expect "... not its siblings" '^404 ' http GET /apis/resource.k8s.io/v1beta1/resourceslices
equal "... and discovery lists just that resource" 'resourceclaims resourceclaims/status' bash -c \
  "curl -s $url/apis/resource.k8s.io/v1beta1 | python3 -c 'import json,sys; print(\" \".join(r[\"name\"] for r in json.load(sys.stdin)[\"resources\"]))'"
stop_server
finish
