// Command featuregates prints every feature gate the real kube-apiserver 1.36 knows, one per line:
// name, default, prerelease stage and whether it is locked to its default, tab-separated and
// sorted. tools/gen_feature_gates.py turns the list into src/server/feature_gates_data.cc, so the
// lite server refuses the gates kube refuses ("unrecognized feature gate: X") and the locked ones.
package main

import (
	"fmt"
	"sort"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	_ "k8s.io/kubernetes/cmd/kube-apiserver/app" // registers every gate kube-apiserver serves with
)

func main() {
	all := utilfeature.DefaultMutableFeatureGate.GetAll()
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, string(name))
	}
	sort.Strings(names)
	for _, name := range names {
		spec := all[featuregate.Feature(name)]
		fmt.Printf("%s\t%t\t%s\t%t\n", name, spec.Default, spec.PreRelease, spec.LockToDefault)
	}
}
