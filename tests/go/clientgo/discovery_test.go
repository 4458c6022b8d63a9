// Discovery and REST mapping: ServerGroupsAndResources through aggregated discovery v2 (asked for
// in the Accept header, answered as such, and no per-group-version requests needed), the
// DeferredDiscoveryRESTMapper over a memory cache finding a new CRD after Reset, and
// controller-runtime's dynamic RESTMapper finding CRDs created after it was built.
package clientgo_test

import (
	"mime"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

func findResource(lists []*metav1.APIResourceList, groupVersion, name string) *metav1.APIResource {
	for _, l := range lists {
		if l.GroupVersion != groupVersion {
			continue
		}
		for i := range l.APIResources {
			if l.APIResources[i].Name == name {
				return &l.APIResources[i]
			}
		}
	}
	return nil
}

func TestAggregatedDiscoveryServerGroupsAndResources(t *testing.T) {
	g := NewWithT(t)
	rec := &recorder{}
	dc, err := discovery.NewDiscoveryClientForConfig(recordingConfig(rec))
	g.Expect(err).NotTo(HaveOccurred())

	groups, resources, err := dc.ServerGroupsAndResources()
	g.Expect(err).NotTo(HaveOccurred())
	var names []string
	for _, grp := range groups {
		names = append(names, grp.Name)
	}
	g.Expect(names).To(ContainElements("", "apps", "rbac.authorization.k8s.io", "apiextensions.k8s.io", "tests.kal.example.com"))

	gadgets := findResource(resources, "tests.kal.example.com/v1", "gadgets")
	g.Expect(gadgets).NotTo(BeNil())
	g.Expect(gadgets.Kind).To(Equal("Gadget"))
	g.Expect(gadgets.Namespaced).To(BeTrue())
	g.Expect(gadgets.SingularName).To(Equal("gadget"))
	g.Expect(gadgets.ShortNames).To(Equal([]string{"gdg"}))
	g.Expect(gadgets.Categories).To(Equal([]string{"kaltests"}))
	g.Expect([]string(gadgets.Verbs)).To(ConsistOf("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"))
	status := findResource(resources, "tests.kal.example.com/v1", "gadgets/status")
	g.Expect(status).NotTo(BeNil())
	g.Expect([]string(status.Verbs)).To(ConsistOf("get", "patch", "update"))
	scale := findResource(resources, "tests.kal.example.com/v1", "gadgets/scale")
	g.Expect(scale).NotTo(BeNil())
	g.Expect(scale.Kind).To(Equal("Scale"))
	g.Expect(scale.Group).To(Equal("autoscaling"))
	g.Expect(scale.Version).To(Equal("v1"))
	gizmos := findResource(resources, "tests.kal.example.com/v1", "gizmos")
	g.Expect(gizmos).NotTo(BeNil())
	g.Expect(gizmos.Namespaced).To(BeFalse())
	deployments := findResource(resources, "apps/v1", "deployments")
	g.Expect(deployments).NotTo(BeNil())
	g.Expect(deployments.ShortNames).To(Equal([]string{"deploy"}))
	g.Expect(findResource(resources, "apps/v1", "deployments/scale")).NotTo(BeNil())
	pods := findResource(resources, "v1", "pods")
	g.Expect(pods).NotTo(BeNil())
	g.Expect(pods.Categories).To(Equal([]string{"all"}))

	// Two requests, /api and /apis, each asking for and answered with aggregated discovery v2.
	var paths []string
	for _, r := range rec.All() {
		paths = append(paths, r.Path)
		g.Expect(strings.HasPrefix(r.Accept, discovery.AcceptV2+",")).To(BeTrue(), "Accept of %s: %q", r.Path, r.Accept)
		mediaType, params, err := mime.ParseMediaType(r.ResponseContentType)
		g.Expect(err).NotTo(HaveOccurred(), "Content-Type of %s: %q", r.Path, r.ResponseContentType)
		g.Expect(mediaType).To(Equal("application/json"), "Content-Type of %s", r.Path)
		g.Expect(params).To(Equal(map[string]string{"g": "apidiscovery.k8s.io", "v": "v2", "as": "APIGroupDiscoveryList"}),
			"Content-Type of %s", r.Path)
		g.Expect(r.Status).To(Equal(200), "status of %s", r.Path)
	}
	g.Expect(paths).To(ConsistOf("/api", "/apis"))
}

func TestDeferredDiscoveryRESTMapperSeesNewCRDAfterReset(t *testing.T) {
	g := NewWithT(t)
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	g.Expect(err).NotTo(HaveOccurred())
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))

	gvk, err := mapper.KindFor(schema.GroupVersionResource{Resource: "configmaps"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(gvk).To(Equal(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}))
	mapping, err := mapper.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(mapping.Resource).To(Equal(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}))
	g.Expect(mapping.Scope.Name()).To(Equal(meta.RESTScopeNameNamespace))
	gvk, err = mapper.KindFor(schema.GroupVersionResource{Group: "tests.kal.example.com", Resource: "gizmo"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(gvk.Kind).To(Equal("Gizmo"))
	mapping, err = mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(mapping.Scope.Name()).To(Equal(meta.RESTScopeNameRoot))

	createCRD(t, "deferred.kal.example.com", "Sprocket", apiextensionsv1.NamespaceScoped)
	// Wait until the server serves it, so that the mapper's miss below is its cache's doing.
	g.Eventually(func() error {
		_, err := dc.ServerResourcesForGroupVersion("deferred.kal.example.com/v1")
		return err
	}, 10*time.Second, 20*time.Millisecond).Should(Succeed())

	sprockets := schema.GroupVersionResource{Group: "deferred.kal.example.com", Resource: "sprockets"}
	_, err = mapper.KindFor(sprockets)
	g.Expect(meta.IsNoMatchError(err)).To(BeTrue(), "a cached mapper should not know the new CRD yet: %v", err)

	mapper.Reset()
	gvk, err = mapper.KindFor(sprockets)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(gvk).To(Equal(schema.GroupVersionKind{Group: "deferred.kal.example.com", Version: "v1", Kind: "Sprocket"}))
	mapping, err = mapper.RESTMapping(gvk.GroupKind())
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(mapping.Resource.Resource).To(Equal("sprockets"))
}

func TestDynamicRESTMapperFindsCRDsCreatedAfterIt(t *testing.T) {
	g := NewWithT(t)
	httpClient, err := rest.HTTPClientFor(cfg)
	g.Expect(err).NotTo(HaveOccurred())
	mapper, err := apiutil.NewDynamicRESTMapper(cfg, httpClient)
	g.Expect(err).NotTo(HaveOccurred())

	mapping, err := mapper.RESTMapping(schema.GroupKind{Kind: "ConfigMap"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(mapping.Resource.Resource).To(Equal("configmaps"))
	_, err = mapper.RESTMapping(schema.GroupKind{Group: "later.kal.example.com", Kind: "Cog"})
	g.Expect(meta.IsNoMatchError(err)).To(BeTrue(), "got %v", err)

	// A new group.
	createCRD(t, "later.kal.example.com", "Cog", apiextensionsv1.ClusterScoped)
	g.Eventually(func() error {
		_, err := mapper.RESTMapping(schema.GroupKind{Group: "later.kal.example.com", Kind: "Cog"})
		return err
	}, 10*time.Second, 50*time.Millisecond).Should(Succeed())
	mapping, err = mapper.RESTMapping(schema.GroupKind{Group: "later.kal.example.com", Kind: "Cog"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(mapping.Resource).To(Equal(schema.GroupVersionResource{Group: "later.kal.example.com", Version: "v1", Resource: "cogs"}))
	g.Expect(mapping.Scope.Name()).To(Equal(meta.RESTScopeNameRoot))

	// A new kind in a group the mapper already knows.
	createCRD(t, "later.kal.example.com", "Wheel", apiextensionsv1.NamespaceScoped)
	g.Eventually(func() error {
		_, err := mapper.RESTMapping(schema.GroupKind{Group: "later.kal.example.com", Kind: "Wheel"})
		return err
	}, 10*time.Second, 50*time.Millisecond).Should(Succeed())
	namespaced, err := apiutil.IsGVKNamespaced(schema.GroupVersionKind{Group: "later.kal.example.com", Version: "v1", Kind: "Wheel"}, mapper)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(namespaced).To(BeTrue())
}
