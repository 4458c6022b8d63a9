#!/usr/bin/env bash
# The secure port driven by kubectl and curl: the kubeconfig the server writes (CA data and an
# admin client certificate), a non-admin user by token and by client certificate, 401s, kube's
# 403 under AlwaysDeny, impersonation, TokenRequest/TokenReview/SelfSubjectReview, both ports at
# once, certificates kept in --cert-dir across restarts, the flag contract and the etcd stand-in.
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/lib.sh"

# A client CA and a user certificate for carol (O=dev), and a token file for dave.
pki=$work/pki
mkdir -p "$pki"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$pki/ca.key" -out "$pki/ca.crt" \
  -subj "/CN=test-client-ca" -days 1 -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,digitalSignature" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$pki/carol.key" -out "$pki/carol.csr" \
  -subj "/O=dev/CN=carol" 2>/dev/null
printf 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature\n' >"$pki/ext"
openssl x509 -req -in "$pki/carol.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -set_serial 2 -days 1 \
  -extfile "$pki/ext" -out "$pki/carol.crt" 2>/dev/null
printf 'dave-token,dave,dave-uid,"qa,dev"\n' >"$pki/tokens.csv"

start_secure() {  # start_secure [flags...]: HTTPS on a free port; sets $url (https)
  rm -f "$KUBECONFIG"
  "$bin" --secure-port 0 --cert-dir "$work/certs" --client-ca-file "$pki/ca.crt" --token-auth-file "$pki/tokens.csv" \
    --kubeconfig-out "$KUBECONFIG" "$@" >"$work/server.out" 2>"$work/server.err" &
  server=$!
  # Up to 30 s: the machine may be busy (the server is ready in about 0.1 s when it is not).
  for _ in $(seq 1 600); do
    grep -q '^ready: https' "$work/server.out" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
  done
  url=$(sed -n 's|^ready: \(https://[0-9.:]*\).*|\1|p' "$work/server.out" | head -n1)
  [ -n "$url" ] && [ -s "$KUBECONFIG" ] || { echo "FAIL server did not start"; cat "$work/server.err"; exit 1; }
}
ca=$work/certs/apiserver.crt
# A kubeconfig with the CA and a bearer token only (kubectl would send the admin certificate too,
# and a client certificate authenticates first, as in kube).
token_kubeconfig() {  # token_kubeconfig FILE TOKEN
  python3 - "$KUBECONFIG" "$1" "$2" <<'PY'
import sys
src, dst, token = sys.argv[1:]
lines = open(src).read().split("\n")
out = [l for l in lines if "client-certificate-data" not in l and "client-key-data" not in l]
text = "\n".join(out).replace("  user:\n", "  user:\n    token: " + token + "\n")
open(dst, "w").write(text)
PY
}
as_dave() { token_kubeconfig "$work/dave.kubeconfig" dave-token; KUBECONFIG=$work/dave.kubeconfig k "$@"; }
as_token() { local t=$1; shift; token_kubeconfig "$work/token.kubeconfig" "$t"; KUBECONFIG=$work/token.kubeconfig k "$@"; }
carol_kubeconfig() {
  cp "$KUBECONFIG" "$work/carol.kubeconfig"
  KUBECONFIG=$work/carol.kubeconfig "$kubectl" config set-credentials kube-apiserver-lite \
    --client-certificate="$pki/carol.crt" --client-key="$pki/carol.key" --embed-certs=true >/dev/null
}
as_carol() { KUBECONFIG=$work/carol.kubeconfig k "$@"; }
curl_code() { curl -s -o "$work/body" -w '%{http_code}' --cacert "$ca" "$@"; }

# --- the command-line contract
out=$("$bin" --help 2>&1); rc=$?
if [ "$rc" = 0 ] && ! grep -q -- '--insecure-port' <<<"$out" && grep -q -- '--etcd-servers' <<<"$out"; then
  ok "--help exits 0, lists the flags, never --insecure-port"
else bad "--help" "rc=$rc"; fi
refuse "an unknown flag is kube's error, exit 1" '^Error: unknown flag: --bogus$' "$bin" --bogus
"$bin" --bogus >/dev/null 2>&1; [ $? = 1 ] && ok "unknown flag exits 1" || bad "unknown flag exits 1" "rc=$?"
expect "--version" '^Kubernetes v1\.36\.0$' "$bin" --version
refuse "an authorization mode not available here refuses to start, saying so" \
  'authorization mode Webhook is not supported by kube-apiserver-lite' timeout 10 "$bin" --authorization-mode=Webhook --port 0

# --- HTTPS with the written kubeconfig (admin certificate, CA data)
start_secure
expect "ready line and kubeconfig point at https" '^server: https://127\.0\.0\.1:' \
  sed -n 's/^ *\(server: .*\)/\1/p' "$KUBECONFIG"
expect "kubeconfig carries the CA and an admin client certificate" 'client-certificate-data' cat "$KUBECONFIG"
expect "kubectl get namespaces over HTTPS" 'kube-system' k get ns
expect "kubectl auth whoami: the kubeconfig's admin in system:masters" 'kube-apiserver-lite:admin' k auth whoami
expect "auth whoami groups" 'system:masters' k auth whoami -o jsonpath='{.status.userInfo.groups}'
expect "the served certificate verifies against the written CA for 127.0.0.1" 'Verify return code: 0' \
  sh -c "openssl s_client -connect ${url#https://} -CAfile $ca -verify_ip 127.0.0.1 </dev/null 2>/dev/null"
refuse "TLS 1.1 is refused" 'alert|error|no protocols' \
  sh -c "openssl s_client -connect ${url#https://} -tls1_1 </dev/null 2>&1 | grep -Ei 'alert|error|no protocols' && exit 1"
# kube resets --anonymous-auth to false under AlwaysAllow (the default mode), and says so.
equal "anonymous /healthz is 401 under AlwaysAllow (anonymous auth reset, as kube)" 401 curl_code "$url/healthz"
expect "the reset is reported" 'AnonymousAuth is not allowed with the AlwaysAllow authorizer' cat "$work/server.err"

# --- a non-admin user: token and client certificate
expect "token user: whoami dave with uid and groups" 'dave' as_dave auth whoami
expect "token user's groups" 'qa.*dev.*system:authenticated' as_dave auth whoami -o jsonpath='{.status.userInfo.groups}'
expect "token user lists namespaces (AlwaysAllow)" 'default' as_dave get ns
carol_kubeconfig
expect "certificate user: whoami carol" 'carol' as_carol auth whoami
expect "certificate user's group from O" 'dev' as_carol auth whoami -o jsonpath='{.status.userInfo.groups}'
refuse "an unknown token is 401" 'Unauthorized' as_token not-a-token get ns
equal "401 body is kube's Status" '401 Unauthorized Unauthorized' \
  sh -c "curl -s -o $work/b -w '%{http_code}' --cacert $ca -H 'Authorization: Bearer nope' $url/api; python3 -c \"import json; d=json.load(open('$work/b')); print('', d['reason'], d['message'])\""
# A certificate from another CA: 401 even though anonymous requests are allowed.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$pki/rogue.key" -out "$pki/rogue.crt" \
  -subj "/O=system:masters/CN=admin" -days 1 2>/dev/null
equal "a certificate from another CA is 401" 401 curl_code --cert "$pki/rogue.crt" --key "$pki/rogue.key" "$url/api"

# --- TokenRequest, TokenReview, the service-account user
expect "create a service account" 'created' k create sa builder
token=$(k create token builder --duration=1h 2>&1)
expect "kubectl create token: a JWT" '^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$' echo "$token"
expect "the token authenticates as the service account" 'system:serviceaccount:default:builder' \
  as_token "$token" auth whoami
expect "its groups" 'system:serviceaccounts:default' as_token "$token" auth whoami -o jsonpath='{.status.userInfo.groups}'
printf '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"%s"}}' "$token" >"$work/tr.json"
expect "TokenReview of the token: authenticated" '"authenticated": ?true' k create -f "$work/tr.json" -o json
printf '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"nope"}}' >"$work/tr-bad.json"
expect "TokenReview of a bad token: an error, not authenticated" '"error"' k create -f "$work/tr-bad.json" -o json
refuse "TokenRequest shorter than 10 minutes is 422" 'may not specify a duration less than 10 minutes' \
  k create token builder --duration=5m
k delete sa builder >/dev/null 2>&1
refuse "the token stops working once its service account is deleted" 'Unauthorized' as_token "$token" auth whoami

# --- impersonation (the admin may, anyone else needs the impersonate verb)
expect "admin --as=dave --as-group=qa" 'dave' k auth whoami --as=dave --as-group=qa
expect "impersonated groups" '\["qa","system:authenticated"\]' k auth whoami --as=dave --as-group=qa -o jsonpath='{.status.userInfo.groups}'
stop_server

# --- AlwaysDeny: kube's 403 for everybody outside system:masters
start_secure --authorization-mode=AlwaysDeny
carol_kubeconfig
# (kubectl itself cannot start under AlwaysDeny: discovery is forbidden too. curl shows the Statuses.)
# kube appends the authorizers' reasons to the 403 message: AlwaysDeny's is "Everything is forbidden.".
status_of() {  # status_of CURL_ARGS...: "<code> <reason>: <message>"
  local code
  code=$(curl -s -o "$work/body" -w '%{http_code}' --cacert "$ca" -H 'Accept: application/json' "$@")
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], d['reason'] + ':', d['message'])" "$work/body" "$code"
}
equal "dave is forbidden with kube's message" \
  '403 Forbidden: namespaces is forbidden: User "dave" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.' \
  status_of -H 'Authorization: Bearer dave-token' "$url/api/v1/namespaces"
equal "carol is forbidden reading a named pod" \
  '403 Forbidden: pods "p" is forbidden: User "carol" cannot get resource "pods" in API group "" in the namespace "default": Everything is forbidden.' \
  status_of --cert "$pki/carol.crt" --key "$pki/carol.key" "$url/api/v1/namespaces/default/pods/p"
equal "carol may not impersonate the admin" \
  '403 Forbidden: users "kube-apiserver-lite:admin" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.' \
  status_of --cert "$pki/carol.crt" --key "$pki/carol.key" -H 'Impersonate-User: kube-apiserver-lite:admin' "$url/api"
equal "discovery is a non-resource path" \
  '403 Forbidden: forbidden: User "carol" cannot get path "/apis": Everything is forbidden.' \
  status_of --cert "$pki/carol.crt" --key "$pki/carol.key" "$url/apis"
equal "anonymous /healthz is 403 under AlwaysDeny" 403 curl_code "$url/healthz"
expect "the admin still works (system:masters)" 'default' k get ns
fp1=$(openssl x509 -noout -fingerprint -sha256 -in "$ca")
cp "$KUBECONFIG" "$work/old.kubeconfig"
stop_server

# --- restart with the same --cert-dir: same serving certificate, old kubeconfigs still work
start_secure
equal "the serving certificate is kept in --cert-dir" "$fp1" openssl x509 -noout -fingerprint -sha256 -in "$ca"
sed -i "s|server: https://.*|server: $url|" "$work/old.kubeconfig"
expect "a kubeconfig written by the previous run still works (same client CA in --cert-dir)" 'default' \
  timeout 30 "$kubectl" --kubeconfig "$work/old.kubeconfig" --cache-dir "$KUBECACHEDIR" get ns
# SIGTERM: gone within a second.
t0=$(date +%s%N); kill -TERM "$server"; wait "$server"; t1=$(date +%s%N); server=""
ms=$(((t1 - t0) / 1000000))
[ "$ms" -lt 1000 ] && ok "stops ${ms} ms after SIGTERM" || bad "stops within a second of SIGTERM" "${ms} ms"

# --- both ports at once; the plain port needs no credentials and its kubeconfig skips TLS checks
rm -f "$KUBECONFIG"
"$bin" --port 0 --secure-port 0 --anonymous-auth=false >"$work/server.out" 2>"$work/server.err" &
server=$!
for _ in $(seq 1 200); do [ "$(grep -c '^ready: ' "$work/server.out" 2>/dev/null)" = 2 ] && break; sleep 0.05; done
plain=$(sed -n 's|^ready: \(http://[0-9.:]*\).*|\1|p' "$work/server.out")
secure=$(sed -n 's|^ready: \(https://[0-9.:]*\).*|\1|p' "$work/server.out")
equal "plain port: no credentials needed" 200 curl -s -o /dev/null -w '%{http_code}' "$plain/api/v1/namespaces"
equal "secure port at the same time, --anonymous-auth=false: 401" 401 curl -sk -o /dev/null -w '%{http_code}' "$secure/healthz"
stop_server
start_server
expect "plain-HTTP kubeconfig says insecure-skip-tls-verify" 'insecure-skip-tls-verify: true' cat "$KUBECONFIG"
expect "kubectl over plain HTTP as before" 'default' k get ns
stop_server

# --- invoked as etcd: envtest's stand-in
ln -sf "$bin" "$work/etcd"
expect "etcd --help mentions --unsafe-no-fsync" '--unsafe-no-fsync' "$work/etcd" --help
eport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$work/etcd" --advertise-client-urls="http://127.0.0.1:$eport" --data-dir="$work/etcd-data" \
  --listen-client-urls="http://127.0.0.1:$eport" --listen-peer-urls=http://127.0.0.1:0 --unsafe-no-fsync=true \
  2>"$work/etcd.err" &
etcd=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$eport/health" >/dev/null && break; sleep 0.05; done
expect "etcd stand-in answers GET /health" '"health":"true"' curl -s "http://127.0.0.1:$eport/health"
t0=$(date +%s%N); kill -TERM "$etcd"; wait "$etcd"; rc=$?; t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
[ "$rc" = 0 ] && [ "$ms" -lt 1000 ] && ok "etcd stand-in exits ${ms} ms after SIGTERM" || bad "etcd stand-in exits on SIGTERM" "rc=$rc ${ms} ms"

finish
