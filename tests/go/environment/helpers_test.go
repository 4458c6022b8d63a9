// Package environment tests controller-runtime's envtest.Environment itself against our binary (the
// KUBEBUILDER_ASSETS of build/envtest): start and stop, parallel environments, restarts, CRD installation,
// kubeconfigs, extra API server flags and leader election between managers.
package environment

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

const (
	webappCRDName = "webapps.webapp.kal.example.com"
	eventually    = 15 * time.Second
	poll          = 50 * time.Millisecond
)

var (
	crdDir  = filepath.Join("..", "config", "crd", "bases")
	crdFile = filepath.Join(crdDir, "webapp.kal.example.com_webapps.yaml")
	// scheme has the hub version only, and envtest never sees it: the CRD keeps conversion strategy None.
	scheme = runtime.NewScheme()
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(apiextensionsv1.AddToScheme(scheme))
	utilruntime.Must(webappv1.AddToScheme(scheme))
}

func TestMain(m *testing.M) {
	var out io.Writer = io.Discard
	if os.Getenv("ENVTEST_TEST_LOG") != "" {
		out = os.Stderr
	}
	logf.SetLogger(zap.New(zap.WriteTo(out), zap.UseDevMode(true)))
	os.Exit(m.Run())
}

func newG(t *testing.T) gomega.Gomega {
	g := gomega.NewWithT(t)
	g.SetDefaultEventuallyTimeout(eventually)
	g.SetDefaultEventuallyPollingInterval(poll)
	return g
}

// start starts env and stops it when the test ends (unless the test stopped it already).
func start(t *testing.T, env *envtest.Environment) *rest.Config {
	t.Helper()
	cfg, err := env.Start()
	if err != nil {
		_ = env.Stop()
		t.Fatalf("starting envtest: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping envtest: %v", err)
		}
	})
	return cfg
}

func newClient(t *testing.T, cfg *rest.Config) client.Client {
	t.Helper()
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// healthz answers whether something serves https://host/healthz (any TLS certificate accepted).
func healthz(host string) error {
	c := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // probing liveness only
	}}
	resp, err := c.Get(host + "/healthz")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// httpGet is a plain GET that fails if nothing answers.
func httpGet(u string) error {
	c := &http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(u)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func defaultNamespace(ctx context.Context, c client.Client) error {
	return c.Get(ctx, client.ObjectKey{Name: "default"}, &corev1.Namespace{})
}
