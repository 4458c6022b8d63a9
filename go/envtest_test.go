// NewAdmin over controller-runtime envtest's own config: envtest starts the
// server from KUBEBUILDER_ASSETS with its certificates and admin user.

package apiserverlite_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
)

func TestNewAdminOverEnvtest(t *testing.T) {
	ctx := testContext(t)
	env := &envtest.Environment{}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("envtest Start (KUBEBUILDER_ASSETS=%s): %v", env.BinaryAssetsDirectory, err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("envtest Stop: %v", err)
		}
	})
	admin, err := apiserverlite.NewAdmin(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "suite"}},
		metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := admin.Snapshot(ctx, "with-suite"); err != nil {
		t.Fatalf("Snapshot over envtest's config: %v", err)
	}
	if err := admin.Reset(ctx); err != nil {
		t.Fatalf("Reset over envtest's config: %v", err)
	}
	if _, err := c.CoreV1().Namespaces().Get(ctx, "suite", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("namespace suite after Reset: %v, want NotFound", err)
	}
	if err := admin.Restore(ctx, "with-suite"); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if _, err := c.CoreV1().Namespaces().Get(ctx, "suite", metav1.GetOptions{}); err != nil {
		t.Errorf("namespace suite after Restore: %v", err)
	}

	// A user envtest adds outside system:masters is refused.
	user, err := env.AddUser(envtest.User{Name: "dev", Groups: []string{"developers"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	devAdmin, err := apiserverlite.NewAdmin(user.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := devAdmin.Reset(ctx); !apierrors.IsForbidden(err) {
		t.Errorf("Reset as envtest user dev = %v, want Forbidden", err)
	}
}
