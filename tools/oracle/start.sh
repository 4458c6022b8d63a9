#!/usr/bin/env bash
# Starts the oracle control plane (real etcd + kube-apiserver from build.sh) the way
# controller-runtime v0.24 envtest does: same flags, same certificate layout, free
# loopback ports. Prints "ready: https://127.0.0.1:PORT" and "kubeconfig: PATH" once
# the default namespace is readable with the admin kubeconfig, then waits.
# SIGTERM or SIGINT stops kube-apiserver, then etcd, and removes the work directory.
#
#   tools/oracle/start.sh [-- EXTRA_KUBE_APISERVER_FLAGS...]
#
# Environment:
#   KUBEBUILDER_ASSETS       directory holding kube-apiserver and etcd (default: <repo>/build/oracle)
#   ORACLE_WORK_DIR          where certs, etcd data, logs and the kubeconfig go (default: a new temp dir)
#   ORACLE_KUBECONFIG        where to also copy the admin kubeconfig (default: none)
#   ORACLE_START_TIMEOUT     seconds to wait for each process to become healthy (default 60)
#   ORACLE_KEEP=1            keep the work directory after stopping
#   KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true  send both processes' output to stderr
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
assets=${KUBEBUILDER_ASSETS:-$here/../../build/oracle}
assets=$(cd "$assets" && pwd)
timeout=${ORACLE_START_TIMEOUT:-60}
extra=()
if [[ "${1:-}" == "--" ]]; then
  shift
  extra=("$@")
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [-- EXTRA_KUBE_APISERVER_FLAGS...]" >&2
  exit 2
fi
for bin in etcd kube-apiserver; do
  if [[ ! -x "$assets/$bin" ]]; then
    echo "oracle: $assets/$bin missing; run tools/oracle/build.sh $assets" >&2
    exit 1
  fi
done

work=${ORACLE_WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/kube-oracle.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
certs=$work/certs
data=$work/etcd
mkdir -p "$certs" "$data"
chmod 700 "$certs" "$data"

etcd_pid=
api_pid=
stopping=0

log() { echo "oracle: $*" >&2; }

# stop_pid PID NAME: SIGTERM, wait up to 20 s (envtest's stop timeout), then SIGKILL.
stop_pid() {
  local pid=$1 name=$2 i
  [[ -n "$pid" ]] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 200; i++)); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  log "$name did not stop within 20s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  ((stopping)) && return
  stopping=1
  stop_pid "$api_pid" kube-apiserver
  stop_pid "$etcd_pid" etcd
  if [[ "${ORACLE_KEEP:-}" != 1 && -z "${ORACLE_WORK_DIR:-}" ]]; then
    rm -rf "$work"
  fi
}
trap 'cleanup; exit 0' TERM INT
trap cleanup EXIT

# free_port: a port the kernel just handed out on 127.0.0.1 (as envtest's addr.Suggest does).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# ---- certificates (envtest's TinyCA: ECDSA P-256, PKCS#8 keys, valid 168 h) ----
ossl() { openssl "$@" 2>>"$pki/openssl.log"; }
newkey() { ossl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

# newca DIR/NAME: a self-signed CA like TinyCA's (CN envtest-environment, O envtest).
newca() {
  newkey "$1.key"
  ossl req -x509 -new -key "$1.key" -out "$1.crt" -days 7 -sha256 \
    -subj "/O=envtest/CN=envtest-environment" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,digitalSignature,keyEncipherment,keyCertSign"
}

# issue CA OUT SUBJECT EXTFILE: a leaf certificate signed by CA.
issue() {
  local ca=$1 out=$2 subj=$3 ext=$4
  newkey "$out.key"
  ossl req -new -key "$out.key" -subj "$subj" -out "$out.csr"
  ossl x509 -req -in "$out.csr" -CA "$ca.crt" -CAkey "$ca.key" -CAcreateserial \
    -days 7 -sha256 -extfile "$ext" -out "$out.crt"
  rm -f "$out.csr"
}

pki=$work/pki
mkdir -p "$pki"
chmod 700 "$pki"

# Serving certificate: CN localhost, SANs localhost + what localhost resolves to + the bind address.
sans="DNS:localhost"
while read -r ip; do
  [[ -n "$ip" && "$sans" != *"IP:$ip"* ]] && sans+=",IP:$ip"
done < <(getent ahosts localhost | awk '{print $1}' | sort -u; echo 127.0.0.1)
cat > "$pki/serving.ext" <<EOF
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=$sans
EOF
newca "$pki/serving-ca"
issue "$pki/serving-ca" "$pki/apiserver" "/CN=localhost" "$pki/serving.ext"
cp "$pki/apiserver.crt" "$certs/apiserver.crt"
cp "$pki/apiserver.key" "$certs/apiserver.key"

# Client-certificate authentication CA and the admin user (CN admin, O system:masters).
cat > "$pki/client.ext" <<EOF
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth
EOF
newca "$pki/client-ca"
cp "$pki/client-ca.crt" "$certs/client-cert-auth-ca.crt"
issue "$pki/client-ca" "$pki/admin" "/O=system:masters/CN=admin" "$pki/client.ext"

# Service-account signer: a self-signed ECDSA certificate and its key.
newca "$pki/sa-signer"
cp "$pki/sa-signer.crt" "$certs/sa-signer.crt"
cp "$pki/sa-signer.key" "$certs/sa-signer.key"

# ---- processes ----
if [[ "${KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT:-}" == true ]]; then
  etcd_log=/dev/stderr
  api_log=/dev/stderr
else
  etcd_log=$work/etcd.log
  api_log=$work/kube-apiserver.log
fi

# wait_healthy PID NAME LOG CURL_ARGS...: poll every 100 ms until HTTP 200.
wait_healthy() {
  local pid=$1 name=$2 out=$3 deadline=$((SECONDS + timeout))
  shift 3
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "$name exited during start-up (output: $out)"
      export ORACLE_KEEP=1
      return 1
    fi
    if [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$@")" == 200 ]]; then
      return 0
    fi
    sleep 0.1
  done
  log "$name not healthy after ${timeout}s (output: $out)"
  export ORACLE_KEEP=1
  return 1
}

etcd_port=$(free_port)
peer_port=$(free_port)
etcd_url=http://127.0.0.1:$etcd_port
etcd_args=(
  "--advertise-client-urls=$etcd_url"
  "--data-dir=$data"
  "--listen-client-urls=$etcd_url"
  "--listen-peer-urls=http://127.0.0.1:$peer_port"
)
if "$assets/etcd" --help 2>&1 | grep -q -- '--unsafe-no-fsync'; then
  etcd_args+=("--unsafe-no-fsync=true")
fi
"$assets/etcd" "${etcd_args[@]}" >>"$etcd_log" 2>&1 &
etcd_pid=$!
wait_healthy "$etcd_pid" etcd "$etcd_log" "$etcd_url/health" || exit 1

port=$(free_port)
url=https://127.0.0.1:$port
api_args=(
  "--allow-privileged=true"
  "--authorization-mode=RBAC"
  "--bind-address=127.0.0.1"
  "--cert-dir=$certs"
  "--client-ca-file=$certs/client-cert-auth-ca.crt"
  "--disable-admission-plugins=ServiceAccount"
  "--etcd-servers=$etcd_url"
  "--secure-port=$port"
  "--service-account-issuer=$url/"
  "--service-account-key-file=$certs/sa-signer.crt"
  "--service-account-signing-key-file=$certs/sa-signer.key"
  "--service-cluster-ip-range=10.0.0.0/24"
)
if "$assets/kube-apiserver" --help 2>&1 | grep -Eq '^\s*--insecure-port\b'; then
  api_args+=("--insecure-port=0")
fi
"$assets/kube-apiserver" "${api_args[@]}" "${extra[@]}" >>"$api_log" 2>&1 &
api_pid=$!
wait_healthy "$api_pid" kube-apiserver "$api_log" -k "$url/healthz" || exit 1

# Like Environment.Start: wait until the admin user can read the default namespace.
admin=(--cacert "$pki/serving-ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key")
wait_healthy "$api_pid" kube-apiserver "$api_log" "${admin[@]}" "$url/api/v1/namespaces/default" || exit 1

kubeconfig=$work/kubeconfig
b64() { base64 -w0 "$1"; }
cat > "$kubeconfig.tmp" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: envtest
  cluster:
    server: $url
    certificate-authority-data: $(b64 "$pki/serving-ca.crt")
users:
- name: envtest
  user:
    client-certificate-data: $(b64 "$pki/admin.crt")
    client-key-data: $(b64 "$pki/admin.key")
contexts:
- name: envtest
  context:
    cluster: envtest
    user: envtest
current-context: envtest
EOF
chmod 600 "$kubeconfig.tmp"
mv -f "$kubeconfig.tmp" "$kubeconfig"
if [[ -n "${ORACLE_KUBECONFIG:-}" ]]; then
  cp "$kubeconfig" "${ORACLE_KUBECONFIG}.tmp"
  mv -f "${ORACLE_KUBECONFIG}.tmp" "$ORACLE_KUBECONFIG"
  kubeconfig=$ORACLE_KUBECONFIG
fi

echo "ready: $url"
echo "kubeconfig: $kubeconfig"

# Wait until told to stop, or until either process dies.
set +e
wait -n "$etcd_pid" "$api_pid"
rc=$?
((stopping)) && exit 0
log "a control-plane process exited unexpectedly (status $rc); see $work"
export ORACLE_KEEP=1
exit 1
