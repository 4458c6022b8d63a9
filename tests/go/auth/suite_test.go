// Suite set-up of the authentication and authorization tests: one envtest.Environment (RBAC, as
// envtest always starts kube-apiserver) shared by the tests, an admin client and clientset, and
// helpers for envtest users (client certificates), namespaces and bearer-token clients.
package auth_test

import (
	"context"
	"os"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
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
	admin   client.Client
	adminCS *kubernetes.Clientset
)

func TestMain(m *testing.M) {
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	testEnv = &envtest.Environment{}
	os.Exit(testenv.Run(m, testEnv, func(c *rest.Config) (err error) {
		cfg = c
		if admin, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
			return err
		}
		adminCS, err = kubernetes.NewForConfig(cfg)
		return err
	}))
}

// testContext is a context that ends with the test (or after a minute).
func testContext(t *testing.T) context.Context { return testenv.Context(t) }

// newNamespace creates a namespace of its own for one test and deletes it afterwards.
func newNamespace(t *testing.T) string { return testenv.Namespace(t, admin, "auth-test-") }

// userConfig is the rest.Config of an envtest user authenticated by a client certificate.
func userConfig(t *testing.T, name string, groups ...string) *rest.Config {
	t.Helper()
	u, err := testEnv.AddUser(envtest.User{Name: name, Groups: groups}, nil)
	if err != nil {
		t.Fatalf("adding user %s: %v", name, err)
	}
	return u.Config()
}

// clientsFor builds a controller-runtime client and a clientset for a config.
func clientsFor(t *testing.T, config *rest.Config) (client.Client, *kubernetes.Clientset) {
	t.Helper()
	c, err := client.New(config, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatalf("building a client: %v", err)
	}
	cs, err := kubernetes.NewForConfig(config)
	if err != nil {
		t.Fatalf("building a clientset: %v", err)
	}
	return c, cs
}

// bearerConfig is a config that trusts the server's CA and authenticates with token only.
func bearerConfig(token string) *rest.Config {
	c := rest.AnonymousClientConfig(cfg)
	c.BearerToken = token
	return c
}

// eventually polls f every 20ms until it returns nil or the timeout passes; it returns f's last
// error. RBAC in kube-apiserver follows writes through informers, so grants take effect shortly
// after the write rather than at once.
func eventually(timeout time.Duration, f func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}
