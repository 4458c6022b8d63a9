#!/usr/bin/env bash
# --load: the testdata operator (CRDs, resources, the operator's own deployment, a bundle written
# in the wrong order) preloaded before the server reports ready — every object there at the first
# request, kubectl reading the custom resources with their printer columns —, the start summary
# line, a restart over --data-dir that loads nothing twice, and bad manifests stopping the start
# with exit 1, the file, the document index and kube's error.
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/lib.sh"
td=$(cd "$(dirname "$0")/../../testdata" && pwd)

count_docs() {  # objects in the given manifests (List items counted one by one)
  python3 - "$@" <<'PY'
import json, os, re, sys
n = 0
for p in sys.argv[1:]:
    files = [p] if os.path.isfile(p) else sorted(os.path.join(p, f) for f in os.listdir(p)
             if f.endswith(('.yaml', '.yml', '.json')) and os.path.isfile(os.path.join(p, f)))
    for f in files:
        text = open(f).read()
        if f.endswith('.json'):
            d = json.loads(text); n += len(d['items']) if d['kind'].endswith('List') else 1; continue
        for doc in re.split(r'(?m)^---[ \t]*(?:#.*)?$', text):
            if re.search(r'(?m)^kind:', doc): n += 1
print(n)
PY
}

loads=(--load "$td/crds" --load "$td/resources" --load "$td/operator" --load "$td/preload/canary-bundle.yaml")
want=$(count_docs "$td/crds" "$td/resources" "$td/operator" "$td/preload/canary-bundle.yaml")
start_server "${loads[@]}" --data-dir "$work/data" --authorization-mode RBAC

# ------------------------------------------------------------------ everything in at the first request
equal "custom resources are there at once" "route.net.fleet.example.com/admin route.net.fleet.example.com/api route.net.fleet.example.com/metrics" \
  bash -c "$kubectl --cache-dir $KUBECACHEDIR get routes -n fleet-demo -o name | xargs"
equal "the bundle's Canaries (written before their CRD and namespace)" "canary.deploy.fleet.example.com/api canary.deploy.fleet.example.com/web" \
  bash -c "$kubectl --cache-dir $KUBECACHEDIR get canaries -n fleet-canary -o name | xargs"
equal "the CRD default applied to the Canary without steps" "100" \
  k get canary web -n fleet-canary -o 'jsonpath={.spec.steps[0].weight}'
expect "printer columns of the loaded CRD" 'NAME +TARGET +PHASE' k get canaries -n fleet-canary
equal "the operator's Deployment got kube's defaults" "RollingUpdate 25% /dev/termination-log" \
  k get deploy fleet-controller-manager -n fleet-system \
  -o 'jsonpath={.spec.strategy.type} {.spec.strategy.rollingUpdate.maxSurge} {.spec.template.spec.containers[0].terminationMessagePath}'
expect "its metrics Service got a cluster IP" '^10\.0\.0\.[0-9]+$' \
  k get svc fleet-controller-manager-metrics -n fleet-system -o 'jsonpath={.spec.clusterIP}'
equal "the List file's items" "configmap/fleet-plan-enterprise configmap/fleet-plan-starter" \
  bash -c "$kubectl --cache-dir $KUBECACHEDIR get cm -n fleet-system -l fleet.example.com/plan -o name | sort | xargs"
equal "the loaded ClusterRoleBinding grants the operator's service account (RBAC)" "yes" \
  k auth can-i list routes.net.fleet.example.com --as system:serviceaccount:fleet-system:fleet-controller-manager
refuse "and no more than its ClusterRole says" '^no$' \
  k auth can-i delete tenants.fleet.example.com --as system:serviceaccount:fleet-system:fleet-controller-manager
expect "the loaded objects carry the loader's field manager" 'kube-apiserver-lite' \
  k get ns fleet-system -o 'jsonpath={.metadata.managedFields[0].manager}'
expect "the start summary names address, store, authorization, loaded objects and time" \
  "\"Serving\" address=\"http://127\\.0\\.0\\.1:[0-9]+\" store=\"$work/data\" authorization=\"RBAC\" loadedObjects=$want readyMs=[0-9]+" \
  cat "$work/server.err"

# ------------------------------------------------------------------ restart over --data-dir
k delete configmap canary-analysis -n fleet-canary >/dev/null 2>&1
stop_server
start_server "${loads[@]}" --data-dir "$work/data"
expect "a restart loads only what is missing" 'loadedObjects=1 ' cat "$work/server.err"
expect "the deleted object is back" 'canary-analysis' k get cm -n fleet-canary -o name
stop_server

# ------------------------------------------------------------------ bad manifests stop the start
refused_start() {  # refused_start NAME REGEX LOAD...: the server exits 1 printing REGEX, never ready
  local name=$1 pattern=$2; shift 2
  local args=() out rc
  for p in "$@"; do args+=(--load "$p"); done
  out=$(timeout 60 "$bin" --port 0 "${args[@]}" 2>&1); rc=$?
  if [ "$rc" = 1 ] && grep -Eq -- "$pattern" <<<"$out" && ! grep -q '^ready:' <<<"$out"; then ok "$name"
  else bad "$name (exit $rc)" "$out"; fi
}
bad_dir=$td/preload-invalid
refused_start "an Invalid object: file, document 2, kube's 422" \
  "^Error: error when creating \"$bad_dir/bad-resource.yaml\" \\(document 2\\): Error from server \\(Invalid\\): ScheduledJob.batch.fleet.example.com \"bad-concurrency\" is invalid: spec.concurrencyPolicy: Unsupported value: \"Sometimes\"" \
  "$td/crds" "$bad_dir/bad-resource.yaml"
refused_start "a YAML syntax error: file and document" \
  "^Error: \"$bad_dir/bad-yaml.yaml\" \\(document 2\\): error converting YAML to JSON: yaml: line [0-9]+" "$bad_dir/bad-yaml.yaml"
refused_start "an unknown field under strict validation" \
  "\\(document 1\\): Error from server \\(BadRequest\\): .*unknown field \"dataa\"" "$bad_dir/unknown-field.yaml"
refused_start "a kind nobody serves" \
  "^Error: \"$bad_dir/unknown-kind.yaml\" \\(document 1\\): no matches for kind \"Gizmo\" in version \"gizmos.example.com/v1\"" \
  "$bad_dir/unknown-kind.yaml"
refused_start "an object without kind" "\\(document 1\\): Object 'Kind' is missing in" "$bad_dir/missing-kind.json"
refused_start "a path that does not exist" "^Error: the path \"$work/nope\" does not exist" "$work/nope"
refused_start "a custom resource without its CRD" "no matches for kind \"Route\" in version \"net.fleet.example.com/v1\"" \
  "$td/resources/routes.yaml"

finish
