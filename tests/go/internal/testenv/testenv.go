// Package testenv is what every envtest suite of this module does the same way: run a package's
// tests inside one envtest.Environment, give each test a context and a namespace of its own, and
// record the requests a client sends.
//
// Thread-safety: Run is for TestMain; Context and Namespace may be called from parallel tests;
// a Recorder may be shared by any number of transports and goroutines.
package testenv

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// Run starts env, hands its config to setup (which builds the suite's clients), runs the tests
// and stops env. It returns the exit code for os.Exit: 1 when env does not start or setup fails,
// else the tests' code. A failure to stop is reported on stderr and does not change the code.
func Run(m *testing.M, env *envtest.Environment, setup func(*rest.Config) error) int {
	cfg, err := env.Start()
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting envtest: %v\n", err)
		return 1
	}
	if err := setup(cfg); err != nil {
		fmt.Fprintf(os.Stderr, "building the suite's clients: %v\n", err)
		_ = env.Stop()
		return 1
	}
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping envtest: %v\n", err)
	}
	return code
}

// Context is a context that ends with the test, or after a minute.
func Context(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// Namespace creates a namespace named prefix followed by a random suffix through c, for one test,
// and deletes it when the test ends (a failure to delete, other than NotFound, fails the test).
func Namespace(t testing.TB, c client.Client, prefix string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}
	if err := c.Create(context.Background(), ns); err != nil {
		t.Fatalf("creating the test namespace: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Delete(context.Background(), ns); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}

// RecordingConfig is a copy of cfg whose requests rec records.
func RecordingConfig(cfg *rest.Config, rec *Recorder) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(rec.Wrap)
	return c
}
