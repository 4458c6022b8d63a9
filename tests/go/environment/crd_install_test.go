// envtest's CRD installation (CRDInstallOptions) against our server: paths, CRD objects, missing paths,
// wait timing and uninstall on Stop; the installed versions as discovery shows them.
package environment

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

// resourcesOf lists the resource names discovery shows for a group version.
func resourcesOf(g gomega.Gomega, cfg *rest.Config, gv string) []string {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	list, err := dc.ServerResourcesForGroupVersion(gv)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	var names []string
	for _, r := range list.APIResources {
		names = append(names, r.Name)
	}
	return names
}

func TestCRDInstallFromPathsServesBothVersions(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	env := &envtest.Environment{CRDInstallOptions: envtest.CRDInstallOptions{
		Paths: []string{crdDir}, ErrorIfPathMissing: true,
	}}
	cfg := start(t, env)
	g.Expect(env.CRDs).To(gomega.HaveLen(1))
	g.Expect(env.CRDs[0].Name).To(gomega.Equal(webappCRDName))
	g.Expect(env.CRDs[0].UID).NotTo(gomega.BeEmpty(), "the returned CRDs are the created objects")

	g.Expect(resourcesOf(g, cfg, "webapp.kal.example.com/v1")).To(gomega.ContainElements("webapps", "webapps/status", "webapps/scale"))
	g.Expect(resourcesOf(g, cfg, "webapp.kal.example.com/v1alpha1")).To(gomega.ContainElements("webapps", "webapps/status", "webapps/scale"))

	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	groups, err := dc.ServerGroups()
	g.Expect(err).NotTo(gomega.HaveOccurred())
	var group *metav1.APIGroup
	for i := range groups.Groups {
		if groups.Groups[i].Name == "webapp.kal.example.com" {
			group = &groups.Groups[i]
		}
	}
	g.Expect(group).NotTo(gomega.BeNil())
	var versions []string
	for _, v := range group.Versions {
		versions = append(versions, v.Version)
	}
	g.Expect(versions).To(gomega.Equal([]string{"v1", "v1alpha1"}))
	g.Expect(group.PreferredVersion.Version).To(gomega.Equal("v1"))

	// No scheme with the spoke was handed to envtest, so it left the conversion strategy alone.
	c := newClient(t, cfg)
	crd := &apiextensionsv1.CustomResourceDefinition{}
	g.Expect(c.Get(ctx, client.ObjectKey{Name: webappCRDName}, crd)).To(gomega.Succeed())
	g.Expect(crd.Spec.Conversion.Strategy).To(gomega.Equal(apiextensionsv1.NoneConverter))
	g.Expect(crd.Status.StoredVersions).To(gomega.Equal([]string{"v1"}))

	// And the storage version is usable at once.
	app := &webappv1.WebApp{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "a"},
		Spec: webappv1.WebAppSpec{Image: "nginx"}}
	g.Expect(c.Create(ctx, app)).To(gomega.Succeed())
	g.Expect(*app.Spec.Replicas).To(gomega.Equal(int32(1)))
}

// gadgetCRD is a small single-version CRD built in Go.
func gadgetCRD() *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets.toys.kal.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "toys.kal.example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList"},
			Scope: apiextensionsv1.ClusterScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"size": {Type: "integer", Minimum: ptr.To(1.0)},
						}},
					},
				}},
			}},
		},
	}
}

func TestCRDInstallFromObjectsAndPathsTogether(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	env := &envtest.Environment{
		CRDs:              []*apiextensionsv1.CustomResourceDefinition{gadgetCRD()},
		CRDDirectoryPaths: []string{crdFile},
	}
	cfg := start(t, env)
	g.Expect(env.CRDs).To(gomega.HaveLen(2))
	g.Expect(resourcesOf(g, cfg, "toys.kal.example.com/v1")).To(gomega.ContainElement("gadgets"))
	g.Expect(resourcesOf(g, cfg, "webapp.kal.example.com/v1")).To(gomega.ContainElement("webapps"))

	c := newClient(t, cfg)
	gadget := &unstructured.Unstructured{}
	gadget.SetGroupVersionKind(schema.GroupVersionKind{Group: "toys.kal.example.com", Version: "v1", Kind: "Gadget"})
	gadget.SetName("g1")
	g.Expect(unstructured.SetNestedField(gadget.Object, int64(0), "spec", "size")).To(gomega.Succeed())
	err := c.Create(ctx, gadget)
	g.Expect(apierrors.IsInvalid(err)).To(gomega.BeTrue(), "the CRD's schema applies; got %v", err)
	g.Expect(unstructured.SetNestedField(gadget.Object, int64(2), "spec", "size")).To(gomega.Succeed())
	g.Expect(c.Create(ctx, gadget)).To(gomega.Succeed())
}

func TestErrorIfPathMissingFailsStart(t *testing.T) {
	g := newG(t)
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	env := &envtest.Environment{CRDDirectoryPaths: []string{crdDir, missing}, ErrorIfCRDPathMissing: true}
	_, err := env.Start()
	t.Cleanup(func() { _ = env.Stop() })
	g.Expect(err).To(gomega.HaveOccurred())
	g.Expect(err.Error()).To(gomega.ContainSubstring("unable to install CRDs onto control plane"))
	g.Expect(err.Error()).To(gomega.ContainSubstring(missing))
}

func TestMissingPathIsSkippedWithoutErrorIfPathMissing(t *testing.T) {
	g := newG(t)
	env := &envtest.Environment{CRDDirectoryPaths: []string{filepath.Join(t.TempDir(), "absent"), crdDir}}
	cfg := start(t, env)
	g.Expect(env.CRDs).To(gomega.HaveLen(1))
	g.Expect(resourcesOf(g, cfg, "webapp.kal.example.com/v1alpha1")).To(gomega.ContainElement("webapps"))
}

func TestInstallCRDsHonoursMaxTimeAndPollInterval(t *testing.T) {
	g := newG(t)
	env := &envtest.Environment{}
	cfg := start(t, env)

	// A short deadline is enough for our server to serve the CRD.
	began := time.Now()
	crds, err := envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{
		Paths: []string{crdDir}, MaxTime: 3 * time.Second, PollInterval: 10 * time.Millisecond,
	})
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(crds).To(gomega.HaveLen(1))
	g.Expect(time.Since(began)).To(gomega.BeNumerically("<", 3*time.Second))

	// Waiting for a CRD that was never created gives up after MaxTime.
	began = time.Now()
	err = envtest.WaitForCRDs(cfg, []*apiextensionsv1.CustomResourceDefinition{gadgetCRD()}, envtest.CRDInstallOptions{
		MaxTime: 400 * time.Millisecond, PollInterval: 50 * time.Millisecond,
	})
	elapsed := time.Since(began)
	g.Expect(wait.Interrupted(err)).To(gomega.BeTrue(), "got %v", err)
	g.Expect(elapsed).To(gomega.BeNumerically(">=", 400*time.Millisecond))
	g.Expect(elapsed).To(gomega.BeNumerically("<", 3*time.Second))
}

func TestCleanUpAfterUseUninstallsCRDsOnStop(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	owner := &envtest.Environment{}
	cfg := start(t, owner)
	c := newClient(t, cfg)

	// A second Environment on the same (existing) cluster installs the CRDs and removes them on Stop,
	// leaving the control plane of the first running, where we can look.
	user := &envtest.Environment{
		UseExistingCluster: ptr.To(true),
		Config:             cfg,
		CRDInstallOptions: envtest.CRDInstallOptions{
			Paths: []string{crdDir}, CRDs: []*apiextensionsv1.CustomResourceDefinition{gadgetCRD()},
			CleanUpAfterUse: true,
		},
	}
	_, err := user.Start()
	g.Expect(err).NotTo(gomega.HaveOccurred())
	for _, name := range []string{webappCRDName, "gadgets.toys.kal.example.com"} {
		g.Expect(c.Get(ctx, client.ObjectKey{Name: name}, &apiextensionsv1.CustomResourceDefinition{})).To(gomega.Succeed())
	}

	g.Expect(user.Stop()).To(gomega.Succeed())
	for _, name := range []string{webappCRDName, "gadgets.toys.kal.example.com"} {
		g.Eventually(func() bool {
			return apierrors.IsNotFound(c.Get(ctx, client.ObjectKey{Name: name}, &apiextensionsv1.CustomResourceDefinition{}))
		}).Should(gomega.BeTrue(), name)
	}
	g.Eventually(func() bool {
		dc, err := discovery.NewDiscoveryClientForConfig(cfg)
		g.Expect(err).NotTo(gomega.HaveOccurred())
		_, err = dc.ServerResourcesForGroupVersion("webapp.kal.example.com/v1")
		return apierrors.IsNotFound(err)
	}).Should(gomega.BeTrue(), "the group version is gone from discovery")
	g.Expect(defaultNamespace(ctx, c)).To(gomega.Succeed(), "the owner's control plane still runs")
}
