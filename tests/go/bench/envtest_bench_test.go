// Benchmarks of envtest.Environment Start+Stop with the KUBEBUILDER_ASSETS binaries, reporting p50 and p90.
// Run with: go test -run '^$' -bench . -benchtime 20x ./bench/
package bench

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

func init() { logf.SetLogger(logr.Discard()) }

func measure(b *testing.B, newEnv func() *envtest.Environment) {
	b.Helper()
	var starts, totals []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env := newEnv()
		began := time.Now()
		if _, err := env.Start(); err != nil {
			_ = env.Stop()
			b.Fatalf("start %d: %v", i, err)
		}
		started := time.Since(began)
		if err := env.Stop(); err != nil {
			b.Fatalf("stop %d: %v", i, err)
		}
		starts = append(starts, started)
		totals = append(totals, time.Since(began))
	}
	b.StopTimer()
	b.ReportMetric(Millis(Percentile(totals, 50)), "p50-ms")
	b.ReportMetric(Millis(Percentile(totals, 90)), "p90-ms")
	b.ReportMetric(Millis(Percentile(starts, 50)), "start-p50-ms")
	b.ReportMetric(Millis(Percentile(starts, 90)), "start-p90-ms")
}

// BenchmarkEnvironmentStartStop is a bare Environment: etcd stand-in, API server, admin user, default namespace.
func BenchmarkEnvironmentStartStop(b *testing.B) {
	measure(b, func() *envtest.Environment { return &envtest.Environment{} })
}

// BenchmarkEnvironmentStartStopWithCRDs adds installing the WebApp CRD (two versions) and waiting for discovery.
func BenchmarkEnvironmentStartStopWithCRDs(b *testing.B) {
	dir := filepath.Join("..", "config", "crd", "bases")
	measure(b, func() *envtest.Environment {
		return &envtest.Environment{CRDDirectoryPaths: []string{dir}, ErrorIfCRDPathMissing: true}
	})
}
