// Suite set-up of the client-go tests: one envtest.Environment with the Gadget and Gizmo CRDs of
// ../testdata/crds, a clientset, a dynamic client and a controller-runtime client for set-up,
// per-test namespaces, CRDs created at run time, and a transport wrapper recording requests.
package clientgo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

	"github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/internal/testenv"
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
	os.Exit(testenv.Run(m, testEnv, func(c *rest.Config) (err error) {
		cfg = c
		if cs, err = kubernetes.NewForConfig(cfg); err != nil {
			return err
		}
		if dyn, err = dynamic.NewForConfig(cfg); err != nil {
			return err
		}
		k8s, err = client.New(cfg, client.Options{Scheme: scheme})
		return err
	}))
}

// testContext is a context that ends with the test (or after a minute).
func testContext(t *testing.T) context.Context { return testenv.Context(t) }

// newNamespace creates a namespace of its own for one test and deletes it afterwards.
func newNamespace(t *testing.T) string { return testenv.Namespace(t, k8s, "clientgo-test-") }

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

type recorder = testenv.Recorder

// recordingConfig is a copy of the suite's config whose requests go to rec.
func recordingConfig(rec *recorder) *rest.Config { return testenv.RecordingConfig(cfg, rec) }
