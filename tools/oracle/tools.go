//go:build tools

// Package oracle only records, for go.mod, the two main packages that build.sh
// compiles: the real kube-apiserver and etcd server.
package oracle

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
