// Suite set-up of the client-go tests: one envtest.Environment with the Gadget and Gizmo CRDs of
// ../testdata/crds, a clientset, a dynamic client and a controller-runtime client for set-up,
// per-test namespaces, CRDs created at run time, and a transport wrapper recording requests.
package clientgo_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

var (
	testEnv *envtest.Environment
	cfg     *rest.Config
	scheme  = runtime.NewScheme()
	cs      *kubernetes.Clientset
	dyn     *dynamic.DynamicClient
	k8s     client.Client

	gadgetsGVR = schema.GroupVersionResource{Group: "tests.kal.example.com", Version: "v1", Resource: "gadgets"}
)

func TestMain(m *testing.M) {
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	if err := apiextensionsv1.AddToScheme(scheme); err != nil {
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
	if cs, err = kubernetes.NewForConfig(cfg); err == nil {
		if dyn, err = dynamic.NewForConfig(cfg); err == nil {
			k8s, err = client.New(cfg, client.Options{Scheme: scheme})
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the clients: %v\n", err)
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
	ns, err := cs.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "clientgo-test-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating the test namespace: %v", err)
	}
	t.Cleanup(func() { _ = cs.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{}) })
	return ns.Name
}

// createCRD creates a simple v1 CRD (spec and status objects keeping unknown fields) for a group
// and kind, deleted when the test ends. plural is the kind in lower case plus "s".
func createCRD(t *testing.T, group, kind string, scope apiextensionsv1.ResourceScope) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	plural := strings.ToLower(kind) + "s"
	preserve := true
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Kind: kind, ListKind: kind + "List", Plural: plural, Singular: strings.ToLower(kind),
			},
			Scope: scope,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", XPreserveUnknownFields: &preserve, Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"size": {Type: "integer", Description: "How big it is."},
						}},
						"status": {Type: "object", XPreserveUnknownFields: &preserve},
					},
				}},
			}},
		},
	}
	if err := k8s.Create(context.Background(), crd); err != nil {
		t.Fatalf("creating CRD %s: %v", crd.Name, err)
	}
	t.Cleanup(func() {
		if err := k8s.Delete(context.Background(), crd); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting CRD %s: %v", crd.Name, err)
		}
	})
	return crd
}

// recordedRequest is what a recorder saw of one request.
type recordedRequest struct {
	Method              string
	Path                string
	Query               string
	Accept              string
	ResponseContentType string
	Status              int
}

type recorder struct {
	mu   sync.Mutex
	reqs []recordedRequest
}

func (r *recorder) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		rec := recordedRequest{Method: req.Method, Path: req.URL.Path, Query: req.URL.RawQuery, Accept: req.Header.Get("Accept")}
		if resp != nil {
			rec.Status = resp.StatusCode
			rec.ResponseContentType = resp.Header.Get("Content-Type")
		}
		r.mu.Lock()
		r.reqs = append(r.reqs, rec)
		r.mu.Unlock()
		return resp, err
	})
}

func (r *recorder) all() []recordedRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recordedRequest(nil), r.reqs...)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// recordingConfig is a copy of the suite's config whose requests go to rec.
func recordingConfig(rec *recorder) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(rec.wrap)
	return c
}
