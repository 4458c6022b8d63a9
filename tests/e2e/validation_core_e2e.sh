#!/usr/bin/env bash
# validation_core_e2e.sh BIN — kube's validation of core kinds seen from unchanged kubectl and
# curl: an Endpoints with a loopback address (what a misconfigured Patroni sends) is refused with
# kube's 422 and cause, invalid pods, services, secrets and configmaps are refused with kube's
# messages, valid ones are stored, and the server keeps serving afterwards.
bin=${1:?usage: validation_core_e2e.sh path/to/kube-apiserver-lite}
. "$(dirname "$0")/lib.sh"

start_server

ep() {  # ep NAME IP: an Endpoints manifest
  printf '{"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"%s"},"subsets":[{"addresses":[{"ip":"%s"}],"ports":[{"port":5432}]}]}' "$1" "$2"
}
expect "loopback Endpoints is 422 with kube's cause" \
  '^422 .*"causes":\[\{"field":"subsets\[0\].addresses\[0\].ip","message":"Invalid value: \\"127.0.0.1\\": may not be in the loopback range \(127.0.0.0/8, ::1/128\)","reason":"FieldValueInvalid"\}\].*"reason":"Invalid"' \
  http POST /api/v1/namespaces/default/endpoints -H 'Content-Type: application/json' --data "$(ep patroni 127.0.0.1)"
expect "its message names the object and the field" \
  'Endpoints \\"patroni\\" is invalid: subsets\[0\].addresses\[0\].ip: Invalid value: \\"127.0.0.1\\": may not be in the loopback range' \
  http POST /api/v1/namespaces/default/endpoints -H 'Content-Type: application/json' --data "$(ep patroni 127.0.0.1)"
refuse "kubectl shows the loopback refusal" \
  'subsets\[0\].addresses\[0\].ip: Invalid value: "127.0.0.1": may not be in the loopback range \(127.0.0.0/8, ::1/128\)' \
  k apply -f <(ep patroni 127.0.0.1)
expect "the server still serves after refusals" '^200 ok$' http GET /healthz
expect "a valid Endpoints is stored" 'endpoints/patroni created' k apply -f <(ep patroni 10.1.2.3)
refuse "updating it to a loopback address is refused" 'may not be in the loopback range' k apply -f <(ep patroni 127.0.0.1)
equal "the stored address is unchanged" "10.1.2.3" k get endpoints patroni -o 'jsonpath={.subsets[0].addresses[0].ip}'
refuse "not an IP" 'must be a valid IP address, \(e.g. 10.9.8.7 or 2001:db8::ffff\)' k apply -f <(ep bad not-an-ip)

refuse "a pod without an image" 'spec.containers\[0\].image: Required value' \
  k apply -f <(printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"noimage"},"spec":{"containers":[{"name":"c","image":""}]}}')
refuse "a pod with a bad restart policy" 'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"' \
  k apply -f <(printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"restartPolicy":"Sometimes","containers":[{"name":"c","image":"nginx"}]}}')
expect "a valid pod is stored" 'pod/web created' k run web --image=nginx:1.27 --restart=Never --port=80
refuse "a pod's other spec fields are immutable" 'pod updates may not change fields other than' \
  k patch pod web --type=merge -p '{"spec":{"activeDeadlineSeconds":null,"restartPolicy":"OnFailure"}}'
expect "its image may change" 'pod/web image updated' k set image pod/web web=nginx:1.28
refuse "a service port out of range" 'spec.ports\[0\].port: Invalid value: 70000: must be between 1 and 65535, inclusive' \
  k apply -f <(printf '{"apiVersion":"v1","kind":"Service","metadata":{"name":"big"},"spec":{"ports":[{"port":70000}]}}')
refuse "a configmap key with a space" "data\[a b\]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters" \
  k apply -f <(printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"spaced"},"data":{"a b":"1"}}')
refuse "a TLS secret without its key" 'data\[tls.key\]: Required value' \
  k apply -f <(printf '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"t"},"type":"kubernetes.io/tls","data":{"tls.crt":"eA=="}}')
expect "an immutable configmap is stored" 'configmap/frozen created' \
  k apply -f <(printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"frozen"},"immutable":true,"data":{"a":"1"}}')
refuse "its data may not change" 'data: Forbidden: field is immutable when `immutable` is set' \
  k patch configmap frozen --type=merge -p '{"data":{"a":"2"}}'
refuse "a PVC without storage" 'spec.resources\[storage\]: Required value' \
  k apply -f <(printf '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"c"},"spec":{"accessModes":["ReadWriteOnce"]}}')
expect "the server still serves at the end" '^200 ok$' http GET /healthz

stop_server
finish
