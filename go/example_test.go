// Runnable examples for the package documentation; go test runs them against
// the real binary.

package apiserverlite_test

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
)

// Start a server, use it with client-go, and reset it between tests.
func Example() {
	ctx := context.Background()
	s, err := apiserverlite.Start(ctx, apiserverlite.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Stop()

	clients := kubernetes.NewForConfigOrDie(s.Config())
	configMaps := clients.CoreV1().ConfigMaps("default")
	_, err = configMaps.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "settings"},
		Data:       map[string]string{"mode": "test"},
	}, metav1.CreateOptions{})
	fmt.Println("created:", err == nil)

	// What the test created goes; the initial namespaces stay.
	if err := s.Reset(ctx); err != nil {
		fmt.Println(err)
		return
	}
	_, err = configMaps.Get(ctx, "settings", metav1.GetOptions{})
	fmt.Println("after reset, not found:", apierrors.IsNotFound(err))
	_, err = clients.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	fmt.Println("kube-system kept:", err == nil)
	// Output:
	// created: true
	// after reset, not found: true
	// kube-system kept: true
}

// Reset a server that controller-runtime's envtest started: with
// KUBEBUILDER_ASSETS pointing at kube-apiserver-lite's build/envtest,
// envtest runs it as its kube-apiserver, and its Config is an admin.
func ExampleNewAdmin() {
	ctx := context.Background()
	testEnv := &envtest.Environment{}
	cfg, err := testEnv.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer testEnv.Stop()

	admin, err := apiserverlite.NewAdmin(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	clients := kubernetes.NewForConfigOrDie(cfg)
	_, err = clients.CoreV1().Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "test-1"}}, metav1.CreateOptions{})
	fmt.Println("namespace created:", err == nil)

	// Typically in an AfterEach, or t.Cleanup.
	if err := admin.Reset(ctx); err != nil {
		fmt.Println(err)
		return
	}
	_, err = clients.CoreV1().Namespaces().Get(ctx, "test-1", metav1.GetOptions{})
	fmt.Println("gone after reset:", apierrors.IsNotFound(err))
	// Output:
	// namespace created: true
	// gone after reset: true
}

// Save a state that several tests start from, and go back to it.
func ExampleAdmin_Snapshot() {
	ctx := context.Background()
	s, err := apiserverlite.Start(ctx, apiserverlite.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Stop()
	clients := kubernetes.NewForConfigOrDie(s.Config())
	namespaces := clients.CoreV1().Namespaces()

	// Suite set-up, saved once.
	_, err = namespaces.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "fixtures"}}, metav1.CreateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Snapshot(ctx, "suite"); err != nil {
		fmt.Println(err)
		return
	}

	// A test deletes it...
	if err := namespaces.Delete(ctx, "fixtures", metav1.DeleteOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	// ...and the next one starts from the saved state again.
	if err := s.Restore(ctx, "suite"); err != nil {
		fmt.Println(err)
		return
	}
	ns, err := namespaces.Get(ctx, "fixtures", metav1.GetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("restored:", ns.Name, ns.Status.Phase)

	snapshots, err := s.Snapshots(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, snap := range snapshots {
		fmt.Println("snapshot:", snap.Name)
	}
	// Output:
	// restored: fixtures Active
	// snapshot: suite
}

// Errors of the admin API are Kubernetes StatusErrors.
func ExampleAdmin_Restore_notFound() {
	ctx := context.Background()
	s, err := apiserverlite.Start(ctx, apiserverlite.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Stop()

	err = s.Restore(ctx, "never-saved")
	fmt.Println("not found:", apierrors.IsNotFound(err))
	err = s.Snapshot(ctx, "not a valid name")
	fmt.Println("bad request:", apierrors.IsBadRequest(err))
	// Output:
	// not found: true
	// bad request: true
}

// Pass any kube-apiserver flag through Options.Args.
func ExampleStart_args() {
	ctx := context.Background()
	s, err := apiserverlite.Start(ctx, apiserverlite.Options{
		Args: []string{"--authorization-mode", "RBAC", "--service-cluster-ip-range", "10.96.0.0/16"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Stop()

	clients := kubernetes.NewForConfigOrDie(s.Config())
	svc, err := clients.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("kubernetes service:", svc.Spec.ClusterIP)
	// Output:
	// kubernetes service: 10.96.0.1
}
