#!/usr/bin/env bash
# rbac_e2e.sh BIN — RBAC end to end over the plain-HTTP port (whose requests are privileged):
# the server started with --authorization-mode=RBAC creates kube's bootstrap policy (and keeps
# it unchanged across a restart with --data-dir), aggregates admin/edit/view and follows new
# aggregated roles, and answers SubjectAccessReview, LocalSubjectAccessReview and
# SelfSubjectRulesReview (kubectl auth can-i --list) from the roles and bindings kubectl writes,
# with kube's reasons and validation errors. One line per check; exits 1 on any failure.
bin=${1:?usage: rbac_e2e.sh path/to/kube-apiserver-lite}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# sar USER GROUPS VERB RESOURCE NAMESPACE [GROUP]: "allowed reason" of a SubjectAccessReview
sar() {
  local groups
  groups=$(python3 -c 'import json,sys; print(json.dumps([g for g in sys.argv[1].split(",") if g]))' "$2")
  printf '{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"%s","groups":%s,"resourceAttributes":{"verb":"%s","resource":"%s","namespace":"%s","group":"%s"}}}' \
    "$1" "$groups" "$3" "$4" "$5" "${6:-}" >"$work/sar.json"
  http POST /apis/authorization.k8s.io/v1/subjectaccessreviews -H 'Content-Type: application/json' \
    --data-binary @"$work/sar.json" | cut -d' ' -f2- | json '"%s %s" % (d["status"]["allowed"], d["status"].get("reason", ""))'
}

start_server --authorization-mode=RBAC --data-dir "$work/data"

# ---------------------------------------------------------------- the bootstrap policy
equal "69 bootstrap ClusterRoles" 69 \
  eval 'k get clusterroles -l kubernetes.io/bootstrapping=rbac-defaults -o name | wc -l'
equal "50 bootstrap ClusterRoleBindings" 50 \
  eval 'k get clusterrolebindings -l kubernetes.io/bootstrapping=rbac-defaults -o name | wc -l'
equal "7 bootstrap Roles in kube-system and kube-public" 7 \
  eval 'k get roles -A -l kubernetes.io/bootstrapping=rbac-defaults -o name | wc -l'
equal "cluster-admin is bound to system:masters, annotated autoupdate" 'Group/system:masters true' \
  k get clusterrolebinding cluster-admin \
  -o 'jsonpath={.subjects[0].kind}/{.subjects[0].name} {.metadata.annotations.rbac\.authorization\.kubernetes\.io/autoupdate}'
equal "system:public-info-viewer's URLs" '["/healthz","/livez","/readyz","/version","/version/"]' \
  k get clusterrole system:public-info-viewer -o 'jsonpath={.rules[0].nonResourceURLs}'
expect "view is aggregated at start (pods/log)" 'pods/log' k get clusterrole view -o 'jsonpath={.rules[*].resources}'
expect "admin aggregates edit, which aggregates view" 'pods/log.*rolebindings|rolebindings.*pods/log' \
  k get clusterrole admin -o 'jsonpath={.rules[*].resources}'
equal "the aggregation is recorded under its controller's name" 'clusterrole-aggregation-controller/Apply' \
  eval "k get clusterrole view -o json --show-managed-fields | python3 -c 'import json,sys; print(\" \".join(e[\"manager\"]+\"/\"+e[\"operation\"] for e in json.load(sys.stdin)[\"metadata\"][\"managedFields\"] if e[\"manager\"].startswith(\"clusterrole\")))'"

# ---------------------------------------------------------------- SubjectAccessReview
equal "SAR: anonymous may read /healthz (system:public-info-viewer)" 'True RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"' \
  eval "printf '%s' '{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":{\"user\":\"system:anonymous\",\"groups\":[\"system:unauthenticated\"],\"nonResourceAttributes\":{\"path\":\"/healthz\",\"verb\":\"get\"}}}' | curl -s -X POST -H 'Content-Type: application/json' --data-binary @- $url/apis/authorization.k8s.io/v1/subjectaccessreviews | json '\"%s %s\" % (d[\"status\"][\"allowed\"], d[\"status\"].get(\"reason\", \"\"))'"
equal "SAR: alice may not list pods yet" 'False ' sar alice system:authenticated list pods default
k create role pod-reader -n default --verb=get,list,watch --resource=pods >/dev/null
k create rolebinding alice-reads-pods -n default --role=pod-reader --user=alice >/dev/null
k create clusterrole cm-reader --verb=get,list,watch --resource=configmaps >/dev/null
k create clusterrolebinding dev-reads-cm --clusterrole=cm-reader --group=dev >/dev/null
expect "SAR: alice lists pods in default once bound (within 3 s)" \
  '^True RBAC: allowed by RoleBinding "alice-reads-pods/default" of Role "pod-reader" to User "alice"$' \
  settle 3 '^True' sar alice system:authenticated list pods default
equal "SAR: ... not in kube-system" 'False ' sar alice system:authenticated list pods kube-system
equal "SAR: ... and may not delete them" 'False ' sar alice system:authenticated delete pods default
expect "SAR: group dev lists configmaps in any namespace" \
  '^True RBAC: allowed by ClusterRoleBinding "dev-reads-cm" of ClusterRole "cm-reader" to Group "dev"$' \
  settle 3 '^True' sar alice dev,system:authenticated list configmaps kube-system
equal "SAR: a controller's service account through its bootstrap binding" \
  'True RBAC: allowed by ClusterRoleBinding "system:controller:job-controller" of ClusterRole "system:controller:job-controller" to ServiceAccount "job-controller/kube-system"' \
  sar system:serviceaccount:kube-system:job-controller "" create pods default
equal "SAR: system:masters (privileged groups, no reason)" 'True ' sar root system:masters delete nodes ""
k create rolebinding ghost -n default --role=ghost --user=carol >/dev/null
expect "SAR: a binding to a missing role is a resolution error in the reason" \
  'False RBAC: role.rbac.authorization.k8s.io "ghost" not found' \
  settle 3 'ghost' sar carol "" get pods default
equal "SAR without user or groups is 422" \
  '422 .authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified' \
  eval "http POST /apis/authorization.k8s.io/v1/subjectaccessreviews -H 'Content-Type: application/json' --data-binary '{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":{\"resourceAttributes\":{\"verb\":\"get\",\"resource\":\"pods\"}}}' | python3 -c 'import json,sys; c,b=sys.stdin.read().split(\" \",1); print(c, json.loads(b)[\"message\"])'"

# ---------------------------------------------------------------- local and self reviews
lsar='{"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview","spec":{"user":"alice","resourceAttributes":{"namespace":"default","verb":"watch","resource":"pods"}}}'
equal "LocalSubjectAccessReview in default: allowed" 'True' \
  eval "http POST /apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews -H 'Content-Type: application/json' --data-binary '$lsar' | cut -d' ' -f2- | json 'd[\"status\"][\"allowed\"]'"
equal "LocalSubjectAccessReview for another namespace: 400" '400 spec.resourceAttributes.namespace must match namespace: kube-system' \
  eval "http POST /apis/authorization.k8s.io/v1/namespaces/kube-system/localsubjectaccessreviews -H 'Content-Type: application/json' --data-binary '$lsar' | python3 -c 'import json,sys; c,b=sys.stdin.read().split(\" \",1); print(c, json.loads(b)[\"message\"])'"
equal "SelfSubjectRulesReview without a namespace: 400" '400 no namespace on request' \
  eval "http POST /apis/authorization.k8s.io/v1/selfsubjectrulesreviews -H 'Content-Type: application/json' --data-binary '{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectRulesReview\",\"spec\":{}}' | python3 -c 'import json,sys; c,b=sys.stdin.read().split(\" \",1); print(c, json.loads(b)[\"message\"])'"
expect "kubectl auth can-i --list: the plain port's user holds cluster-admin's rules" '^\*\.\* +\[\] +\[\] +\[\*\]' \
  k auth can-i --list -n default
equal "kubectl auth can-i (SelfSubjectAccessReview) on the plain port: yes" yes k auth can-i delete secrets -n kube-system

# ---------------------------------------------------------------- aggregation follows changes
# (kubectl create clusterrole checks the resource against discovery: a manifest instead)
k create -f - >/dev/null <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widget-viewer
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [get, list]
YAML
expect "a role labelled aggregate-to-view joins view" 'widgets' \
  settle 3 'widgets' k get clusterrole view -o 'jsonpath={.rules[*].resources}'
expect "... and admin, through edit" 'widgets' settle 3 'widgets' k get clusterrole admin -o 'jsonpath={.rules[*].resources}'
k delete clusterrole widget-viewer >/dev/null
view_has_widgets() { k get clusterrole view -o 'jsonpath={.rules[*].resources}' | grep -q widgets && echo yes || echo no; }
equal "deleting it takes its rules out of view" no settle 3 '^no$' view_has_widgets

# ---------------------------------------------------------------- restart with --data-dir
versions() { k get clusterroles,clusterrolebindings,roles,rolebindings -A -o jsonpath='{.items[*].metadata.resourceVersion}'; }
before=$(versions)
stop_server
start_server --authorization-mode=RBAC --data-dir "$work/data"
equal "a restart writes none of the RBAC objects again" "$before" versions
expect "alice's binding still counts after the restart" '^True' sar alice system:authenticated list pods default
k delete rolebinding alice-reads-pods -n default >/dev/null
expect "deleting the binding takes the permission away" '^False' settle 3 '^False' sar alice system:authenticated list pods default
stop_server

# ---------------------------------------------------------------- modes
start_server
equal "AlwaysAllow (the default mode): SAR allows anyone" 'True ' sar alice "" delete secrets kube-system
stop_server
start_server --authorization-mode=AlwaysDeny
equal "AlwaysDeny: SAR refuses everyone outside system:masters" 'False Everything is forbidden.' sar alice "" get pods default
equal "AlwaysDeny: system:masters still may" 'True ' sar root system:masters get pods default
stop_server
refuse "an unknown authorization mode is refused at start" 'authorization-mode "Bogus" is not a valid mode' \
  "$bin" --port 0 --authorization-mode=RBAC,Bogus

finish
