// Start, stop, restart and parallel use of envtest.Environment, and the kubeconfig it hands out.
package environment

import (
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

func TestStartServesAndStopShutsDown(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	env := &envtest.Environment{}
	cfg, err := env.Start()
	g.Expect(err).NotTo(gomega.HaveOccurred())
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = env.Stop()
		}
	})

	u, err := url.Parse(cfg.Host)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(u.Scheme).To(gomega.Equal("https"))
	g.Expect(net.ParseIP(u.Hostname()).IsLoopback()).To(gomega.BeTrue(), cfg.Host)
	g.Expect(cfg.CAData).NotTo(gomega.BeEmpty())
	g.Expect(cfg.CertData).NotTo(gomega.BeEmpty(), "envtest's admin user authenticates with a client certificate")

	c := newClient(t, cfg)
	g.Expect(defaultNamespace(ctx, c)).To(gomega.Succeed())
	nsList := &corev1.NamespaceList{}
	g.Expect(c.List(ctx, nsList)).To(gomega.Succeed())
	var names []string
	for _, ns := range nsList.Items {
		names = append(names, ns.Name)
	}
	g.Expect(names).To(gomega.ContainElements("default", "kube-system", "kube-public"))

	// The admin user envtest provisions is in system:masters.
	cs, err := kubernetes.NewForConfig(cfg)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	review, err := cs.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(review.Status.UserInfo.Username).To(gomega.Equal("admin"))
	g.Expect(review.Status.UserInfo.Groups).To(gomega.ContainElements("system:masters", "system:authenticated"))

	certDir := env.ControlPlane.APIServer.CertDir
	g.Expect(certDir).To(gomega.BeADirectory())
	etcdURL := env.ControlPlane.Etcd.URL.String()

	g.Expect(env.Stop()).To(gomega.Succeed())
	stopped = true
	g.Expect(healthz(strings.TrimSuffix(cfg.Host, "/"))).To(gomega.HaveOccurred(), "nothing serves after Stop")
	_, err = os.Stat(certDir)
	g.Expect(os.IsNotExist(err)).To(gomega.BeTrue(), "envtest removed its cert dir")
	err = httpGet(etcdURL + "/health")
	g.Expect(err).To(gomega.HaveOccurred(), "the etcd stand-in is gone too")
}

func TestTwoEnvironmentsInParallelAreIsolated(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	envs := []*envtest.Environment{{}, {}}
	cfgs := make([]*rest.Config, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range envs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfgs[i], errs[i] = envs[i].Start()
		}()
	}
	wg.Wait()
	for i := range envs {
		t.Cleanup(func() {
			if err := envs[i].Stop(); err != nil {
				t.Errorf("stopping environment %d: %v", i, err)
			}
		})
	}
	g.Expect(errs).To(gomega.HaveEach(gomega.Succeed()))
	g.Expect(cfgs[0].Host).NotTo(gomega.Equal(cfgs[1].Host), "each environment has its own port")

	a, b := newClient(t, cfgs[0]), newClient(t, cfgs[1])
	g.Expect(a.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "only-in-a"}, Data: map[string]string{"k": "v"},
	})).To(gomega.Succeed())
	g.Expect(b.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "only-in-b"}})).To(gomega.Succeed())

	g.Expect(a.Get(ctx, client.ObjectKey{Namespace: "default", Name: "only-in-a"}, &corev1.ConfigMap{})).To(gomega.Succeed())
	err := b.Get(ctx, client.ObjectKey{Namespace: "default", Name: "only-in-a"}, &corev1.ConfigMap{})
	g.Expect(apierrors.IsNotFound(err)).To(gomega.BeTrue(), "got %v", err)
	err = a.Get(ctx, client.ObjectKey{Name: "only-in-b"}, &corev1.Namespace{})
	g.Expect(apierrors.IsNotFound(err)).To(gomega.BeTrue(), "got %v", err)

	// Each trusts only its own CA: A's credentials are not B's.
	crossed := rest.CopyConfig(cfgs[1])
	crossed.CertData, crossed.KeyData = cfgs[0].CertData, cfgs[0].KeyData
	crossed.CAData = cfgs[1].CAData
	cross, err := client.New(crossed, client.Options{Scheme: scheme})
	g.Expect(err).NotTo(gomega.HaveOccurred())
	err = defaultNamespace(ctx, cross)
	g.Expect(apierrors.IsUnauthorized(err)).To(gomega.BeTrue(), "got %v", err)
}

func TestRestartAfterStop(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	env := &envtest.Environment{}
	cfg := start(t, env)
	g.Expect(newClient(t, cfg).Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "first-run"}})).To(gomega.Succeed())
	firstHost := cfg.Host

	g.Expect(env.Stop()).To(gomega.Succeed())
	cfg, err := env.Start()
	g.Expect(err).NotTo(gomega.HaveOccurred(), "a stopped Environment starts again")
	// envtest keeps the ports it picked: the new server binds the same address right after the old one went.
	g.Expect(cfg.Host).To(gomega.Equal(firstHost))
	c := newClient(t, cfg)
	g.Expect(defaultNamespace(ctx, c)).To(gomega.Succeed())
	err = c.Get(ctx, client.ObjectKey{Name: "first-run"}, &corev1.Namespace{})
	g.Expect(apierrors.IsNotFound(err)).To(gomega.BeTrue(), "a restarted in-memory control plane starts empty; got %v", err)
	g.Expect(c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "second-run"}})).To(gomega.Succeed())
}

func TestKubeConfigBytesWorkWithClientcmd(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	env := &envtest.Environment{}
	cfg := start(t, env)
	g.Expect(env.KubeConfig).NotTo(gomega.BeEmpty())

	kc, err := clientcmd.Load(env.KubeConfig)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(kc.CurrentContext).To(gomega.Equal("envtest"))
	g.Expect(kc.Clusters["envtest"].Server).To(gomega.Equal(strings.TrimSuffix(cfg.Host, "/")))

	restCfg, err := clientcmd.RESTConfigFromKubeConfig(env.KubeConfig)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	cs, err := kubernetes.NewForConfig(restCfg)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	_, err = cs.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{})
	g.Expect(err).NotTo(gomega.HaveOccurred())
	version, err := cs.Discovery().ServerVersion()
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(version.Major).To(gomega.Equal("1"))
	g.Expect(version.Minor).To(gomega.Equal("36"))

	// Written to a file, the same bytes drive a client loaded the way kubectl loads one.
	path := t.TempDir() + "/kubeconfig"
	g.Expect(os.WriteFile(path, env.KubeConfig, 0o600)).To(gomega.Succeed())
	loaded, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: path}, &clientcmd.ConfigOverrides{}).ClientConfig()
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(defaultNamespace(ctx, newClient(t, loaded))).To(gomega.Succeed())
}
