// The envtest suite of the WebApp operator: one envtest.Environment (KUBEBUILDER_ASSETS) and one manager running
// the real reconciler, as the user "webapp-operator" bound only to the generated config/rbac role. Each test has
// its own namespace. The server is reset (and a snapshot restored) under the running manager by the tests in
// reset_test.go only: every reset ends all watches, and client-go's reflector backs off a little longer after
// each one (800 ms doubling, reset after 2 minutes), so resetting between every test would stall the manager.
package controller

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/rand"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/yaml"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
	"github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/internal/controller"
)

const (
	operatorUser  = "webapp-operator"
	eventuallyFor = 15 * time.Second
	pollEvery     = 50 * time.Millisecond
)

var (
	crdPaths  = []string{filepath.Join("..", "config", "crd", "bases")}
	rolePath  = filepath.Join("..", "config", "rbac", "role.yaml")
	testEnv   *envtest.Environment
	cfg       *rest.Config // admin (system:masters)
	k8sClient client.Client
	mgr       manager.Manager
	admin     *apiserverlite.Admin
	scheme    = runtime.NewScheme()
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(apiextensionsv1.AddToScheme(scheme))
	// Only the hub: with v1alpha1 in a scheme envtest sees, it would rewrite the CRD to a conversion webhook.
	utilruntime.Must(webappv1.AddToScheme(scheme))
}

func TestMain(m *testing.M) {
	flag.Parse()
	var logOut io.Writer = io.Discard
	if testing.Verbose() {
		logOut = os.Stderr
	}
	logf.SetLogger(zap.New(zap.WriteTo(logOut), zap.UseDevMode(true)))
	os.Exit(run(m))
}

func run(m *testing.M) int {
	testEnv = &envtest.Environment{CRDDirectoryPaths: crdPaths, ErrorIfCRDPathMissing: true}
	var err error
	if cfg, err = testEnv.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "starting envtest:", err)
		_ = testEnv.Stop()
		return 1
	}
	defer func() {
		if err := testEnv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping envtest:", err)
		}
	}()
	if k8sClient, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if admin, err = apiserverlite.NewAdmin(cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := installOperatorRBAC(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "installing RBAC:", err)
		return 1
	}

	operator, err := testEnv.AddUser(envtest.User{Name: operatorUser}, &rest.Config{QPS: 1000, Burst: 2000})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mgr, err = ctrl.NewManager(operator.Config(), ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := (&controller.WebAppReconciler{
		Client:   mgr.GetClient(),
		Scheme:   mgr.GetScheme(),
		Recorder: mgr.GetEventRecorder(controller.ControllerName),
	}).SetupWithManager(mgr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mgrDone := make(chan error, 1)
	go func() { mgrDone <- mgr.Start(ctx) }()
	syncCtx, syncCancel := context.WithTimeout(ctx, 30*time.Second)
	synced := mgr.GetCache().WaitForCacheSync(syncCtx)
	syncCancel()
	if !synced {
		fmt.Fprintln(os.Stderr, "manager cache did not sync")
		return 1
	}

	code := m.Run()
	cancel()
	select {
	case err := <-mgrDone:
		if err != nil {
			fmt.Fprintln(os.Stderr, "manager:", err)
			code = 1
		}
	case <-time.After(30 * time.Second):
		fmt.Fprintln(os.Stderr, "manager did not stop")
		code = 1
	}
	return code
}

// installOperatorRBAC binds the generated ClusterRole to the operator's user.
func installOperatorRBAC(ctx context.Context) error {
	data, err := os.ReadFile(rolePath)
	if err != nil {
		return err
	}
	role := &rbacv1.ClusterRole{}
	if err := yaml.UnmarshalStrict(data, role); err != nil {
		return err
	}
	if err := k8sClient.Create(ctx, role); err != nil {
		return err
	}
	return k8sClient.Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "webapp-manager"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: operatorUser}},
	})
}

// installSuiteState puts back what the suite sets up after the server is ready (CRDs and the operator's RBAC),
// for a test that resets the server to its initial state.
func installSuiteState(ctx context.Context) error {
	if _, err := envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{Paths: crdPaths, ErrorIfPathMissing: true}); err != nil {
		return err
	}
	return installOperatorRBAC(ctx)
}

// startTest gives a test a context, a gomega and a fresh namespace (left behind: no test lists across namespaces
// except those that reset the server).
func startTest(t *testing.T) (context.Context, gomega.Gomega, string) {
	t.Helper()
	g := gomega.NewWithT(t)
	g.SetDefaultEventuallyTimeout(eventuallyFor)
	g.SetDefaultEventuallyPollingInterval(pollEvery)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	ns := strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))
	if len(ns) > 50 {
		ns = ns[:50]
	}
	ns = strings.Trim(ns, "-") + "-" + rand.String(5)
	g.Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(gomega.Succeed())
	t.Cleanup(cancel)
	return ctx, g, ns
}

// newWebApp builds a WebApp with the image nginx:1.27; mutators adjust it.
func newWebApp(ns, name string, mutate ...func(*webappv1.WebApp)) *webappv1.WebApp {
	app := &webappv1.WebApp{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       webappv1.WebAppSpec{Image: "nginx:1.27"},
	}
	for _, m := range mutate {
		m(app)
	}
	return app
}

func key(o client.Object) client.ObjectKey { return client.ObjectKeyFromObject(o) }
