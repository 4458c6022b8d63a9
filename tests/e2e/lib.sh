# Shared helpers of the end-to-end scripts: start/stop the server, checks, and the closing
# "N passed, M failed" line. Source it; it expects $bin (the server binary).
set -u
work=$(mktemp -d)
export KUBECONFIG=$work/kubeconfig
export KUBECACHEDIR=$work/cache
kubectl=${KUBECTL:-kubectl}
passed=0 failed=0
server=""

# E2E_SECURE=1 runs the same checks over HTTPS: the server on a TLS port only, kubectl with the
# written kubeconfig (CA + admin client certificate), curl through a .curlrc naming the CA and an
# admin bearer token (system:masters, from a token file).
e2e_secure=${E2E_SECURE:-0}
if [ "$e2e_secure" = 1 ]; then
  export CURL_HOME=$work
  printf 'e2e-admin-token,e2e-admin,e2e-admin-uid,"system:masters"\n' >"$work/tokens.csv"
fi

start_server() {  # start_server [extra flags...]
  rm -f "$KUBECONFIG" "$work/server.out"  # a previous run's ready line must not count
  local port_flags=(--port 0)
  if [ "$e2e_secure" = 1 ]; then
    port_flags=(--secure-port 0 --cert-dir "$work/certs" --token-auth-file "$work/tokens.csv")
  fi
  "$bin" "${port_flags[@]}" --kubeconfig-out "$KUBECONFIG" "$@" >"$work/server.out" 2>"$work/server.err" &
  server=$!
  # The "ready: URL" line comes after the kubeconfig is written and everything is served.
  for _ in $(seq 1 200); do
    grep -q '^ready: ' "$work/server.out" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
  done
  url=$(sed -n 's|^ready: \(https\{0,1\}://[0-9.:]*\).*|\1|p' "$work/server.out" | head -n1)
  if [ "$e2e_secure" = 1 ] && [ -n "$url" ]; then
    python3 -c 'import base64,re,sys; d=open(sys.argv[1]).read(); m=re.search(r"certificate-authority-data: *(\S+)", d); open(sys.argv[2],"wb").write(base64.b64decode(m.group(1)))' \
      "$KUBECONFIG" "$work/ca.crt"
    printf 'cacert = "%s"\nheader = "Authorization: Bearer e2e-admin-token"\n' "$work/ca.crt" >"$work/.curlrc"
  fi
  [ -n "$url" ] && [ -s "$KUBECONFIG" ] || { echo "FAIL server did not start"; cat "$work/server.err"; exit 1; }
}
stop_server() {
  [ -n "$server" ] && kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null
  server=""
}
cleanup() { stop_server; rm -rf "$work"; }
trap cleanup EXIT

# kubectl with this run's cache; a request that hangs fails the check instead of the whole run
k() { timeout -k 5 30 "$kubectl" --cache-dir "$KUBECACHEDIR" "$@"; }
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; printf '%s\n' "$2" | head -n 8 | sed 's/^/     | /'; failed=$((failed + 1)); }
expect() {  # expect NAME REGEX CMD...: CMD succeeds and its output matches REGEX
  local name=$1 pattern=$2; shift 2
  local out
  if out=$("$@" 2>&1) && grep -Eq -- "$pattern" <<<"$out"; then ok "$name"; else bad "$name" "$out"; fi
}
refuse() {  # refuse NAME REGEX CMD...: CMD fails and its output matches REGEX
  local name=$1 pattern=$2; shift 2
  local out
  if out=$("$@" 2>&1); then bad "$name (succeeded)" "$out"
  elif grep -Eq -- "$pattern" <<<"$out"; then ok "$name"; else bad "$name" "$out"; fi
}
equal() {  # equal NAME WANT CMD...: CMD succeeds and prints exactly WANT
  local name=$1 want=$2; shift 2
  local out
  if out=$("$@" 2>&1) && [ "$out" = "$want" ]; then ok "$name"; else bad "$name (want '$want')" "$out"; fi
}
# settle SECONDS REGEX CMD...: reruns CMD until its output matches REGEX or SECONDS pass; prints the
# last output. For what the server does asynchronously (controllers, discovery).
settle() {
  local end=$((SECONDS + $1)) pattern=$2 out; shift 2
  while :; do
    out=$("$@" 2>&1) && grep -Eq -- "$pattern" <<<"$out" && break
    [ "$SECONDS" -lt "$end" ] || break
    sleep 0.1
  done
  printf '%s\n' "$out"
}
# http METHOD PATH [curl args...]: prints "<code> <body>"
http() {
  local method=$1 path=$2; shift 2
  curl -s --max-time 10 -o "$work/body" -w '%{http_code}' -X "$method" "$@" "$url$path" >"$work/code"
  echo "$(cat "$work/code") $(cat "$work/body")"
}
# json EXPR: evaluates the Python expression EXPR with d = the JSON document on stdin
json() {
  python3 -c '
import json, sys
text = sys.stdin.read()
try:
    d = json.loads(text)
except ValueError:
    sys.exit("not JSON: " + text[:300])
print(eval(sys.argv[1]))
' "$1"
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
