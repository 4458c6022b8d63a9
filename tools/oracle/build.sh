#!/usr/bin/env bash
# Builds the oracle: the real kube-apiserver and etcd pinned in go.mod beside this
# script, into OUT_DIR laid out as a KUBEBUILDER_ASSETS directory (kube-apiserver,
# etcd, and a kubectl symlink when kubectl is on PATH).
#
#   tools/oracle/build.sh build/oracle
#
# Incremental: a binary newer than go.mod and go.sum is left alone. The Go build runs
# at nice 19 with ORACLE_GO_P parallel jobs (default 1; the machine is shared).
# Flags follow Kubernetes' release builds: CGO off, -trimpath, stripped, build tags
# selinux,notest,grpcnotrace, version stamped from the module version.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$here"

export GOTOOLCHAIN=local CGO_ENABLED=0
jobs=${ORACLE_GO_P:-1}

# Wall time and peak memory of each go build, when GNU time is installed.
timer=()
if [[ -x /usr/bin/time ]]; then
  timer=(/usr/bin/time -f "  %e s wall, %M KiB peak RSS")
fi

fresh() {
  [[ -x "$1" && "$1" -nt go.mod && "$1" -nt go.sum ]]
}

build() {
  local name=$1 pkg=$2
  shift 2
  if fresh "$out/$name"; then
    echo "oracle: $name is up to date"
    return
  fi
  echo "oracle: building $name ($pkg)"
  "${timer[@]}" nice -n 19 go build -mod=readonly -p "$jobs" -trimpath \
    -tags selinux,notest,grpcnotrace "$@" -o "$out/$name.tmp" "$pkg"
  mv -f "$out/$name.tmp" "$out/$name"
}

kube_version=$(go list -m -f '{{.Version}}' k8s.io/kubernetes)
kube_time=$(go list -m -f '{{if .Time}}{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' k8s.io/kubernetes)
minor=${kube_version#v1.}
minor=${minor%%.*}
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$kube_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=${kube_time:-1970-01-01T00:00:00Z}"
done

build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver -ldflags "$ldflags"
build etcd go.etcd.io/etcd/server/v3 -ldflags "-s -w"

if kubectl=$(command -v kubectl); then
  ln -sfn "$kubectl" "$out/kubectl"
fi
echo "oracle: $out ready (kube-apiserver $kube_version, etcd $(go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3))"
