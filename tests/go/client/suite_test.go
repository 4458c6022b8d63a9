// Suite set-up of the controller-runtime client tests: one envtest.Environment (KUBEBUILDER_ASSETS
// pointing at kube-apiserver-lite) with the Gadget and Gizmo CRDs of ../testdata/crds, one client
// whose scheme knows client-go's kinds and the hand-written Gadget type, and per-test namespaces.
package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
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
	var err error
	if cfg, err = testEnv.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "starting envtest: %v\n", err)
		os.Exit(1)
	}
	if k8s, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
		fmt.Fprintf(os.Stderr, "building the client: %v\n", err)
		_ = testEnv.Stop()
		os.Exit(1)
	}
	code := m.Run()
	if err := testEnv.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping envtest: %v\n", err)
	}
	os.Exit(code)
}

// testContext is a context that ends with the test (or after a minute).
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// newNamespace creates a namespace of its own for one test and deletes it afterwards.
func newNamespace(t *testing.T) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "client-test-"}}
	if err := k8s.Create(context.Background(), ns); err != nil {
		t.Fatalf("creating the test namespace: %v", err)
	}
	t.Cleanup(func() {
		if err := k8s.Delete(context.Background(), ns); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}

// recordedRequest is what a recordingTransport saw of one request.
type recordedRequest struct {
	Method              string
	URL                 string
	ContentType         string
	Accept              string
	ResponseContentType string
	Status              int
}

// recorder keeps every request that went through the transports it wraps.
type recorder struct {
	mu       sync.Mutex
	requests []recordedRequest
}

func (r *recorder) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		rec := recordedRequest{
			Method:      req.Method,
			URL:         req.URL.String(),
			ContentType: req.Header.Get("Content-Type"),
			Accept:      req.Header.Get("Accept"),
		}
		if resp != nil {
			rec.Status = resp.StatusCode
			rec.ResponseContentType = resp.Header.Get("Content-Type")
		}
		r.mu.Lock()
		r.requests = append(r.requests, rec)
		r.mu.Unlock()
		return resp, err
	})
}

func (r *recorder) all() []recordedRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recordedRequest(nil), r.requests...)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// recordingClient is a client like k8s whose requests are recorded.
func recordingClient(t *testing.T) (client.Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	c := rest.CopyConfig(cfg)
	c.Wrap(rec.wrap)
	cl, err := client.New(c, client.Options{Scheme: scheme})
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
