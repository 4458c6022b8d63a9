// Suite set-up of the controller-runtime client tests: one envtest.Environment (KUBEBUILDER_ASSETS
// pointing at kube-apiserver-lite) with the Gadget and Gizmo CRDs of ../testdata/crds, one client
// whose scheme knows client-go's kinds and the hand-written Gadget type, and per-test namespaces.
package client_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/internal/testenv"
)

var (
	testEnv *envtest.Environment
	cfg     *rest.Config
	scheme  = runtime.NewScheme()
	k8s     client.Client
)

func TestMain(m *testing.M) {
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := addGadgetTypes(scheme); err != nil {
		panic(err)
	}
	testEnv = &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "testdata", "crds")},
		ErrorIfCRDPathMissing: true,
	}
	os.Exit(testenv.Run(m, testEnv, func(c *rest.Config) (err error) {
		cfg = c
		k8s, err = client.New(cfg, client.Options{Scheme: scheme})
		return err
	}))
}

// testContext is a context that ends with the test (or after a minute).
func testContext(t *testing.T) context.Context { return testenv.Context(t) }

// newNamespace creates a namespace of its own for one test and deletes it afterwards.
func newNamespace(t *testing.T) string { return testenv.Namespace(t, k8s, "client-test-") }

type recorder = testenv.Recorder

// recordingClient is a client like k8s whose requests are recorded.
func recordingClient(t *testing.T) (client.Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	cl, err := client.New(testenv.RecordingConfig(cfg, rec), client.Options{Scheme: scheme})
	if err != nil {
		t.Fatalf("building a recording client: %v", err)
	}
	return cl, rec
}

// statusOf returns the metav1.Status an API error carries.
func statusOf(t *testing.T, err error) metav1.Status {
	t.Helper()
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		t.Fatalf("error %v (%T) carries no API status", err, err)
	}
	return status.Status()
}
