// How informers fill a cache in each WatchListClient mode: with the gate on, a streaming list
// (watch=true&sendInitialEvents=true, ended by the k8s.io/initial-events-end bookmark) and no
// plain LIST; with it off, a plain LIST followed by a WATCH. Also: WaitForCacheSync returns
// promptly in both modes (a server that never ends the initial events would stall it for ~10s).
package cache_test

import (
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func unstructuredGadgetList() *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{}
	l.SetAPIVersion("tests.kal.example.com/v1")
	l.SetKind("GadgetList")
	return l
}

func seedObjects(t *testing.T, ns string, n int) {
	g := NewWithT(t)
	ctx := testContext(t)
	for i := 0; i < n; i++ {
		g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("cm-%d", i)}})).To(Succeed())
		g.Expect(k8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("s-%d", i)}})).To(Succeed())
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("tests.kal.example.com/v1")
		u.SetKind("Gadget")
		u.SetNamespace(ns)
		u.SetName(fmt.Sprintf("g-%d", i))
		g.Expect(unstructured.SetNestedField(u.Object, "red", "spec", "color")).To(Succeed())
		g.Expect(k8s.Create(ctx, u)).To(Succeed())
	}
}

// startThreeInformers starts a cache with a typed (ConfigMaps), an unstructured (Gadgets) and a
// metadata-only (Secrets) informer and returns it once synced, with the time the sync took.
func startThreeInformers(t *testing.T, reqs *requestLog) (cache.Cache, time.Duration) {
	g := NewWithT(t)
	ctx := testContext(t)
	config := cfg
	if reqs != nil {
		config = recordingConfig(reqs)
	}
	c, cctx := startCache(t, config, cache.Options{})
	secrets := &metav1.PartialObjectMetadata{}
	secrets.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	gadgets := &unstructured.Unstructured{}
	gadgets.SetAPIVersion("tests.kal.example.com/v1")
	gadgets.SetKind("Gadget")
	for _, obj := range []client.Object{&corev1.ConfigMap{}, gadgets, secrets} {
		_, err := c.GetInformer(ctx, obj)
		g.Expect(err).NotTo(HaveOccurred())
	}
	start := time.Now()
	g.Expect(c.WaitForCacheSync(cctx)).To(BeTrue())
	return c, time.Since(start)
}

func TestWaitForCacheSyncReturnsPromptly(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	seedObjects(t, ns, 20)

	c, took := startThreeInformers(t, nil)
	t.Logf("three informers synced in %s (watch-list %v)", took, watchList)
	g.Expect(took).To(BeNumerically("<", 5*time.Second))

	cms := &corev1.ConfigMapList{}
	g.Expect(c.List(ctx, cms, client.InNamespace(ns))).To(Succeed())
	g.Expect(cms.Items).To(HaveLen(20))
	gadgets := unstructuredGadgetList()
	g.Expect(c.List(ctx, gadgets, client.InNamespace(ns))).To(Succeed())
	g.Expect(gadgets.Items).To(HaveLen(20))
	secrets := &metav1.PartialObjectMetadataList{}
	secrets.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
	g.Expect(c.List(ctx, secrets, client.InNamespace(ns))).To(Succeed())
	g.Expect(secrets.Items).To(HaveLen(20))
}

func TestInitialSyncRequestsMatchWatchListMode(t *testing.T) {
	g := NewWithT(t)
	ns := newNamespace(t)
	seedObjects(t, ns, 3)

	reqs := &requestLog{}
	startThreeInformers(t, reqs)

	paths := []string{"/api/v1/configmaps", "/apis/tests.kal.example.com/v1/gadgets", "/api/v1/secrets"}
	for _, path := range paths {
		if watchList {
			var streaming, plainLists int
			for _, r := range reqs.forPath(path) {
				q := r.URL.Query()
				if q.Get("watch") != "true" {
					plainLists++
					continue
				}
				if q.Get("sendInitialEvents") == "true" {
					streaming++
					g.Expect(q.Get("allowWatchBookmarks")).To(Equal("true"), "request %s", r.URL)
					g.Expect(q.Get("resourceVersionMatch")).To(Equal("NotOlderThan"), "request %s", r.URL)
					g.Expect(r.Status).To(Equal(200), "request %s", r.URL)
				}
			}
			g.Expect(streaming).To(Equal(1), "streaming list requests for %s: %v", path, reqs.forPath(path))
			g.Expect(plainLists).To(Equal(0), "plain LIST requests for %s (client fell back?): %v", path, reqs.forPath(path))
			continue
		}
		// LIST then WATCH: the list first, the watch from the list's resourceVersion.
		g.Eventually(func() []string {
			var kinds []string
			for _, r := range reqs.forPath(path) {
				q := r.URL.Query()
				switch {
				case q.Get("watch") != "true":
					g.Expect(r.Status).To(Equal(200), "request %s", r.URL)
					kinds = append(kinds, "list")
				case q.Get("sendInitialEvents") == "":
					g.Expect(q.Get("resourceVersion")).NotTo(BeEmpty(), "request %s", r.URL)
					kinds = append(kinds, "watch")
				default:
					kinds = append(kinds, "streaming")
				}
			}
			return kinds
		}, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"list", "watch"}), "requests for %s", path)
	}
}
