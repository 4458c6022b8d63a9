#!/usr/bin/env bash
# option_bodies_e2e.sh BIN — request bodies that are not plain objects, sent with curl as JSON and
# as protobuf (what client-go's typed clients, and so Helm and controller-runtime, send): every
# DeleteOptions field on DELETE and DELETECOLLECTION, and the subresource bodies (scale, status,
# namespace finalize). Each pair must get the same answer. Then the details of error Statuses.
# The protobuf bodies are built here, byte by byte, with the helpers below.
bin=${1:?usage: option_bodies_e2e.sh path/to/kube-apiserver-lite}
. "$(dirname "$0")/lib.sh"

# --- protobuf wire helpers: values are hex strings -------------------------------------------
pb_hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
pb_varint() {
  local n=$1 out=""
  while [ "$n" -ge 128 ]; do out+=$(printf '%02x' $(((n & 127) | 128))); n=$((n >> 7)); done
  printf '%s%02x' "$out" "$n"
}
pb_bytes() { printf '%s%s%s' "$(pb_varint $((($1 << 3) | 2)))" "$(pb_varint $((${#2} / 2)))" "$2"; }  # FIELD HEX
pb_str() { pb_bytes "$1" "$(pb_hex "$2")"; }                                                         # FIELD TEXT
pb_int() { printf '%s%s' "$(pb_varint $(($1 << 3)))" "$(pb_varint "$2")"; }                          # FIELD N
# pb_envelope APIVERSION KIND [RAW-HEX]: "k8s\0" + runtime.Unknown; no `raw` field without RAW-HEX.
pb_envelope() {
  printf '6b387300%s' "$(pb_bytes 1 "$(pb_str 1 "$1")$(pb_str 2 "$2")")"
  if [ $# -ge 3 ]; then pb_bytes 2 "$3"; fi
}
pb_write() { printf "$(sed 's/../\\x&/g' <<<"$1")" >"$2"; }  # HEX FILE

PB='application/vnd.kubernetes.protobuf'
send_json() { http "$1" "$2" -H 'Content-Type: application/json' --data-binary "$3"; }    # METHOD PATH JSON
send_pb() { pb_write "$3" "$work/body.pb"; http "$1" "$2" -H "Content-Type: $PB" --data-binary @"$work/body.pb"; }
# both NAME REGEX METHOD PATH JSON PB-HEX: the JSON body is sent to PATH with '@' replaced by
# "json", the protobuf body to PATH with '@' replaced by "pb"; both answers must match REGEX.
both() {
  local name=$1 pattern=$2 method=$3 path=$4
  expect "$name (JSON)" "$pattern" send_json "$method" "${path//@/json}" "$5"
  expect "$name (protobuf)" "$pattern" send_pb "$method" "${path//@/pb}" "$6"
}
# each PREFIX CMD...: runs CMD for the JSON and the protobuf object ('@' in CMD's arguments).
each() {
  local v
  for v in json pb; do "${@//@/$v}" >/dev/null 2>&1; done
}
mk() { http POST "$1" -H 'Content-Type: application/json' --data-binary "$2"; }  # COLLECTION JSON
NS=/api/v1/namespaces/default
secret() { mk $NS/secrets "{\"metadata\":{\"name\":\"$1\",\"labels\":{\"set\":\"${2:-none}\"}}}"; }
gone() { expect "$1 (JSON object gone)" '^404 ' http GET "${2//@/json}"; expect "$1 (protobuf object gone)" '^404 ' http GET "${2//@/pb}"; }
kept() { expect "$1 (JSON object kept)" '^200 ' http GET "${2//@/json}"; expect "$1 (protobuf object kept)" '^200 ' http GET "${2//@/pb}"; }

start_server

# --- DeleteOptions on DELETE ------------------------------------------------------------------
each secret empty-@
both "empty envelope deletes" '^200 .*"status":"Success"' DELETE $NS/secrets/empty-@ \
  '{"kind":"DeleteOptions","apiVersion":"v1"}' "$(pb_envelope v1 DeleteOptions)"
gone "empty envelope" $NS/secrets/empty-@
each secret raw-@
both "empty raw deletes" '^200 .*"status":"Success"' DELETE $NS/secrets/raw-@ '{}' "$(pb_envelope v1 DeleteOptions '')"
gone "empty raw" $NS/secrets/raw-@
for gv in meta.k8s.io/v1 apps/v1; do
  each secret "gv-${gv%%/*}-@"
  both "DeleteOptions of $gv" '^200 .*"status":"Success"' DELETE "$NS/secrets/gv-${gv%%/*}-@" \
    "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"$gv\"}" "$(pb_envelope "$gv" DeleteOptions '')"
  gone "DeleteOptions of $gv" "$NS/secrets/gv-${gv%%/*}-@"
done
for policy in Foreground Background Orphan; do
  each secret "pp-${policy,,}-@"
  both "propagationPolicy $policy" '^200 .*"status":"Success"' DELETE "$NS/secrets/pp-${policy,,}-@" \
    "{\"propagationPolicy\":\"$policy\"}" "$(pb_envelope v1 DeleteOptions "$(pb_str 4 "$policy")")"
done
both "unsupported propagationPolicy is 422" '^422 .*propagationPolicy: Unsupported value: \\"Sideways\\"' \
  DELETE $NS/secrets/pp-none-@ '{"propagationPolicy":"Sideways"}' "$(pb_envelope v1 DeleteOptions "$(pb_str 4 Sideways)")"
each secret orphan-@
both "orphanDependents" '^200 .*"status":"Success"' DELETE $NS/secrets/orphan-@ '{"orphanDependents":true}' \
  "$(pb_envelope v1 DeleteOptions "$(pb_int 3 1)")"
gone "orphanDependents" $NS/secrets/orphan-@
each secret both-@
both "orphanDependents with propagationPolicy is 422" '^422 .*cannot be both set' DELETE $NS/secrets/both-@ \
  '{"orphanDependents":false,"propagationPolicy":"Orphan"}' "$(pb_envelope v1 DeleteOptions "$(pb_int 3 0)$(pb_str 4 Orphan)")"
kept "422 deletes nothing" $NS/secrets/both-@

each secret dry-@
both "dryRun All" '^200 .*"status":"Success"' DELETE $NS/secrets/dry-@ '{"dryRun":["All"]}' \
  "$(pb_envelope v1 DeleteOptions "$(pb_str 5 All)")"
kept "dryRun" $NS/secrets/dry-@
both "unsupported dryRun is 422, naming the list" '^422 .*dryRun: Unsupported value: \[\\"Some\\"\]' DELETE $NS/secrets/dry-@ \
  '{"dryRun":["Some"]}' "$(pb_envelope v1 DeleteOptions "$(pb_str 5 Some)")"

# preconditions: a stale uid or resourceVersion is 409, the current ones delete.
each secret pre-@
both "stale uid precondition is 409" '^409 .*the UID in the precondition \(stale\)' DELETE $NS/secrets/pre-@ \
  '{"preconditions":{"uid":"stale"}}' "$(pb_envelope v1 DeleteOptions "$(pb_bytes 2 "$(pb_str 1 stale)")")"
both "stale resourceVersion precondition is 409" '^409 .*the ResourceVersion in the precondition \(1\)' DELETE \
  $NS/secrets/pre-@ '{"preconditions":{"resourceVersion":"1"}}' \
  "$(pb_envelope v1 DeleteOptions "$(pb_bytes 2 "$(pb_str 2 1)")")"
kept "409 deletes nothing" $NS/secrets/pre-@
uid_json=$(k get secret pre-json -o jsonpath='{.metadata.uid}')
uid_pb=$(k get secret pre-pb -o jsonpath='{.metadata.uid}')
rv_pb=$(k get secret pre-pb -o jsonpath='{.metadata.resourceVersion}')
expect "current uid precondition deletes (JSON)" '^200 .*"status":"Success"' send_json DELETE $NS/secrets/pre-json \
  "{\"preconditions\":{\"uid\":\"$uid_json\"}}"
expect "current uid and resourceVersion preconditions delete (protobuf)" '^200 .*"status":"Success"' send_pb DELETE \
  $NS/secrets/pre-pb "$(pb_envelope v1 DeleteOptions "$(pb_bytes 2 "$(pb_str 1 "$uid_pb")$(pb_str 2 "$rv_pb")")")"
gone "current preconditions" $NS/secrets/pre-@

# gracePeriodSeconds: a pod on a node waits its grace period, 0 deletes at once.
pod() { mk $NS/pods "{\"metadata\":{\"name\":\"$1\"},\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"; }
each pod grace-@
both "gracePeriodSeconds 5 marks the pod" '^200 .*"deletionGracePeriodSeconds":5' DELETE $NS/pods/grace-@ \
  '{"gracePeriodSeconds":5}' "$(pb_envelope v1 DeleteOptions "$(pb_int 1 5)")"
both "gracePeriodSeconds 0 deletes the pod" '^200 ' DELETE $NS/pods/grace-@ '{"gracePeriodSeconds":0}' \
  "$(pb_envelope v1 DeleteOptions "$(pb_int 1 0)")"
gone "gracePeriodSeconds 0" $NS/pods/grace-@

# Bad bodies: 400 / 415, nothing deleted, the server keeps serving.
secret bad >/dev/null
expect "malformed protobuf DeleteOptions is 400" '^400 .*"reason":"BadRequest"' send_pb DELETE $NS/secrets/bad \
  "$(pb_envelope v1 DeleteOptions 1205)"  # preconditions: a length past the end
expect "bare protobuf prefix is 400 empty body" '^400 .*"message":"empty body"' send_pb DELETE $NS/secrets/bad 6b387300
expect "protobuf body of another kind is 400" '^400 .*no kind \\"ConfigMap\\" is registered' send_pb DELETE \
  $NS/secrets/bad "$(pb_envelope v1 ConfigMap '')"
expect "JSON body of another kind is 400" '^400 .*no kind \\"ConfigMap\\" is registered' send_json DELETE \
  $NS/secrets/bad '{"kind":"ConfigMap","apiVersion":"v1"}'
expect "DeleteOptions in an unknown media type is 415" '^415 .*UnsupportedMediaType' http DELETE $NS/secrets/bad \
  -H 'Content-Type: text/plain' --data '{}'
expect "bad bodies deleted nothing" '^200 ' http GET $NS/secrets/bad
expect "still serving" '^200 ok$' http GET /healthz

# --- DeleteOptions on DELETECOLLECTION ----------------------------------------------------------
each secret col-a-@ @
each secret col-b-@ @
both "deletecollection dryRun" '^200 .*"items":\[\{' DELETE "$NS/secrets?labelSelector=set%3D@" '{"dryRun":["All"]}' \
  "$(pb_envelope v1 DeleteOptions "$(pb_str 5 All)")"
kept "deletecollection dryRun" $NS/secrets/col-a-@
both "deletecollection" '^200 .*"items":\[\{' DELETE "$NS/secrets?labelSelector=set%3D@" '{}' \
  "$(pb_envelope v1 DeleteOptions '')"
gone "deletecollection (a)" $NS/secrets/col-a-@
gone "deletecollection (b)" $NS/secrets/col-b-@
secret col-q q >/dev/null
expect "deletecollection takes the query's options without a body" '^200 ' http DELETE \
  "$NS/secrets?labelSelector=set%3Dq&dryRun=All"
expect "query dryRun deleted nothing" '^200 ' http GET $NS/secrets/col-q

# --- subresource bodies -----------------------------------------------------------------------
deploy() {
  mk /apis/apps/v1/namespaces/default/deployments "{\"metadata\":{\"name\":\"$1\"},\"spec\":{\"replicas\":1,
    \"selector\":{\"matchLabels\":{\"app\":\"$1\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"$1\"}},
    \"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}"
}
each deploy scale-@
both "PUT scale" '^200 .*"kind":"Scale".*"spec":\{"replicas":3\}' PUT /apis/apps/v1/namespaces/default/deployments/scale-@/scale \
  '{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"scale-json"},"spec":{"replicas":3}}' \
  "$(pb_envelope autoscaling/v1 Scale "$(pb_bytes 1 "$(pb_str 1 scale-pb)")$(pb_bytes 2 "$(pb_int 1 3)")")"
for v in json pb; do
  expect "scaled deployment ($v)" '^3$' k get deploy "scale-$v" -o jsonpath='{.spec.replicas}'
done
each pod status-@
both "PUT pod status" '^200 .*"phase":"Running"' PUT $NS/pods/status-@/status \
  '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"status-json"},"status":{"phase":"Running"}}' \
  "$(pb_envelope v1 Pod "$(pb_bytes 1 "$(pb_str 1 status-pb)")$(pb_bytes 3 "$(pb_str 1 Running)")")"
for v in json pb; do
  expect "pod status stored ($v)" '^Running$' k get pod "status-$v" -o jsonpath='{.status.phase}'
done
each mk /api/v1/namespaces '{"metadata":{"name":"fin-@"}}'
both "PUT namespace finalize" '^200 .*"spec":\{("finalizers":\[\])?\}' PUT /api/v1/namespaces/fin-@/finalize \
  '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"fin-json"},"spec":{}}' \
  "$(pb_envelope v1 Namespace "$(pb_bytes 1 "$(pb_str 1 fin-pb)")$(pb_bytes 2 '')")"

# --- error Status details ---------------------------------------------------------------------
expect "404 names the object" '^404 .*"details":\{"kind":"secrets","name":"absent"\}' http GET $NS/secrets/absent
expect "404 of a group's object" '^404 .*"details":\{"group":"apps","kind":"deployments","name":"absent"\}' \
  http GET /apis/apps/v1/namespaces/default/deployments/absent
expect "404 of an unknown resource has empty details" '^404 .*"details":\{\}' http GET $NS/nopes
expect "409 names the object" '^409 .*"details":\{"kind":"secrets","name":"bad"\}' \
  mk $NS/secrets '{"metadata":{"name":"bad"}}'
expect "422 names the kind and has causes" '^422 .*"details":\{"causes":\[.*"kind":"Secret","name":"Bad_Name"\}' \
  mk $NS/secrets '{"metadata":{"name":"Bad_Name"}}'
expect "400 has empty details" '^400 .*"details":\{\}' mk $NS/secrets '{bad'
# kube-apiserver answers a method no route serves from its web service, with empty details
# (recorded: testdata/golden/recorded/errors.json, method-not-allowed-post-named).
expect "405 has empty details" '^405 .*"details":\{\}' mk $NS/secrets/bad '{}'
head -c 4000000 /dev/zero | tr '\0' 'a' >"$work/huge"
expect "413 from the HTTP layer has empty details" '^413 .*"details":\{\}' http POST $NS/configmaps \
  -H 'Content-Type: application/json' --data-binary @"$work/huge"
expect "watch ERROR event has details" '"type":"ERROR".*"details":\{\}' curl -s \
  -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' "$url$NS/secrets?watch=1&includeObject=Bogus&timeoutSeconds=2"
# The protobuf Status keeps an empty StatusDetails message: reason "NotFound" (field 4), then
# details (field 5, length 0), then code (field 6).
expect "protobuf 404 Status carries empty details" '22084e6f74466f756e642a0030' \
  bash -c "curl -s -H 'Accept: $PB' $url$NS/nopes | od -An -tx1 | tr -d ' \n'"
# kubectl debug patches pods/ephemeralcontainers (served since issue 13; a 404 once made it
# read details.name of the Status without a nil check).
expect "kubectl debug adds an ephemeral container" '' \
  k debug pod/status-json --image=busybox -c dbg --profile=general
equal "... to the pod's spec" "dbg" k get pod status-json -o 'jsonpath={.spec.ephemeralContainers[0].name}'

finish
