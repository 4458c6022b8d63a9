// Benchmarks of the fixture's costs between tests: a Reset after a test's
// worth of writes, and a whole Start+Stop. They run only with -bench.

package apiserverlite_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
)

// objectsPerTest is the state a typical test leaves behind.
const objectsPerTest = 20

// reportPercentiles adds p50 and p90 of the samples, in milliseconds.
func reportPercentiles(b *testing.B, samples []time.Duration) {
	if len(samples) == 0 {
		return
	}
	slices.Sort(samples)
	at := func(p float64) float64 {
		i := int(p * float64(len(samples)-1))
		return float64(samples[i]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.9), "p90-ms")
}

// BenchmarkReset times Reset after each iteration's test has created a
// namespace, a Secret, 17 ConfigMaps and updated one of them (20 writes);
// only the Reset is timed.
func BenchmarkReset(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, apiserverlite.Options{})
	c := clientset(b, s)
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		ns := fmt.Sprintf("test-%d", i)
		createNamespace(ctx, b, c, ns)
		if _, err := c.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: "credentials"},
			StringData: map[string]string{"password": "hunter2"},
		}, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		var last *corev1.ConfigMap
		for j := range objectsPerTest - 3 {
			last = createConfigMap(ctx, b, c, ns, fmt.Sprintf("cm-%d", j))
		}
		last.Data["key"] = "changed"
		if _, err := c.CoreV1().ConfigMaps(ns).Update(ctx, last, metav1.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()

		began := time.Now()
		if err := s.Reset(ctx); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(began))
	}
	b.StopTimer()
	reportPercentiles(b, samples)
}

// BenchmarkStartStop times a whole fixture lifecycle: Start (process,
// certificates, ready, kubeconfig) and Stop (SIGTERM, exit, clean-up).
func BenchmarkStartStop(b *testing.B) {
	ctx := context.Background()
	samples := make([]time.Duration, 0, b.N)
	for range b.N {
		began := time.Now()
		s, err := apiserverlite.Start(ctx, apiserverlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Stop(); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(began))
	}
	b.StopTimer()
	reportPercentiles(b, samples)
}
