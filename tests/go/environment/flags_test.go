// Extra kube-apiserver flags through envtest's ControlPlane.GetAPIServer().Configure().
package environment

import (
	"context"
	"net/netip"
	"os/exec"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

func TestAppendedFeatureGatesAndExtraFlagsStillStart(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	env := &envtest.Environment{}
	args := env.ControlPlane.GetAPIServer().Configure()
	// Repeated --feature-gates values (AllAlpha/AllBeta exist in every release) and flags kube accepts but a
	// test control plane has no use for.
	args.Append("feature-gates", "AllAlpha=false").Append("feature-gates", "AllBeta=false")
	args.Set("max-requests-inflight", "800").Set("audit-log-maxage", "1").Set("profiling", "false")
	cfg := start(t, env)
	g.Expect(defaultNamespace(ctx, newClient(t, cfg))).To(gomega.Succeed())
}

func TestConfiguredFlagReplacesEnvtestDefault(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	env := &envtest.Environment{}
	// envtest passes --service-cluster-ip-range=10.0.0.0/24 by default; Set replaces it.
	env.ControlPlane.GetAPIServer().Configure().Set("service-cluster-ip-range", "10.96.0.0/16")
	cfg := start(t, env)
	c := newClient(t, cfg)
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}},
	}
	g.Expect(c.Create(ctx, svc)).To(gomega.Succeed())
	ip, err := netip.ParseAddr(svc.Spec.ClusterIP)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(netip.MustParsePrefix("10.96.0.0/16").Contains(ip)).To(gomega.BeTrue(), svc.Spec.ClusterIP)
}

// kube-apiserver 1.36 no longer knows the AggregatedDiscoveryEndpoint gate (GA in 1.30, removed in 1.33), so
// a suite that still disables it (as controller-runtime's own tests did for older releases) fails to start.
func TestRemovedFeatureGateFailsStart(t *testing.T) {
	g := newG(t)
	env := &envtest.Environment{ControlPlaneStartTimeout: 10 * time.Second}
	env.ControlPlane.GetAPIServer().Configure().Append("feature-gates", "AggregatedDiscoveryEndpoint=false")
	_, err := env.Start()
	t.Cleanup(func() { _ = env.Stop() })
	g.Expect(err).To(gomega.HaveOccurred())
	g.Expect(err.Error()).To(gomega.ContainSubstring("unable to start control plane itself"))

	// The binary's own answer, as kube-apiserver words it.
	bin := env.ControlPlane.APIServer.Path
	runCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second) // a server that starts is killed
	defer cancel()
	cmd := exec.CommandContext(runCtx, bin, "--secure-port=0", "--cert-dir="+t.TempDir(),
		"--feature-gates=AggregatedDiscoveryEndpoint=false")
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	g.Expect(err).To(gomega.BeAssignableToTypeOf(exitErr), string(out))
	g.Expect(cmd.ProcessState.ExitCode()).To(gomega.Equal(1))
	// kube-apiserver 1.36 reports it as component-base's cli.Run logs a failed command (klog).
	g.Expect(string(out)).To(gomega.ContainSubstring(
		`run.go:72] "command failed" err="unrecognized feature gate: AggregatedDiscoveryEndpoint"` + "\n"))
}
