// Reads from a manager's cache: Get/List after creates, objects that existed before the cache
// started present right after WaitForCacheSync, namespace-, label- and field-restricted caches
// (objects that stop matching leave the cache), and List through a field index.
package cache_test

import (
	"sort"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

func cmNames(list *corev1.ConfigMapList) []string {
	out := []string{}
	for _, item := range list.Items {
		out = append(out, item.Name)
	}
	sort.Strings(out)
	return out
}

func TestCacheGetAndListAfterCreate(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	mgr := startManager(t, cfg, cache.Options{})
	cached := mgr.GetClient()

	// The first read starts the ConfigMap informer and waits for it to sync.
	list := &corev1.ConfigMapList{}
	g.Expect(cached.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	g.Expect(list.Items).To(BeEmpty())

	for _, name := range []string{"a", "b"} {
		g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Data: map[string]string{"name": name}})).To(Succeed())
	}
	g.Eventually(func() []string {
		l := &corev1.ConfigMapList{}
		g.Expect(cached.List(ctx, l, client.InNamespace(ns))).To(Succeed())
		return cmNames(l)
	}, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"a", "b"}))

	got := &corev1.ConfigMap{}
	g.Expect(cached.Get(ctx, client.ObjectKey{Namespace: ns, Name: "b"}, got)).To(Succeed())
	g.Expect(got.Data).To(Equal(map[string]string{"name": "b"}))

	// Updates and deletes reach the cache too.
	got.Data["name"] = "changed"
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Eventually(func() string {
		c := &corev1.ConfigMap{}
		g.Expect(cached.Get(ctx, client.ObjectKey{Namespace: ns, Name: "b"}, c)).To(Succeed())
		return c.Data["name"]
	}, 10*time.Second, 20*time.Millisecond).Should(Equal("changed"))

	g.Expect(k8s.Delete(ctx, got)).To(Succeed())
	g.Eventually(func() bool {
		return apierrors.IsNotFound(cached.Get(ctx, client.ObjectKey{Namespace: ns, Name: "b"}, &corev1.ConfigMap{}))
	}, 10*time.Second, 20*time.Millisecond).Should(BeTrue())
}

func TestCacheHasPreexistingObjectsRightAfterSync(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	var want []string
	for _, name := range []string{"p1", "p2", "p3", "p4", "p5"} {
		g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})).To(Succeed())
		want = append(want, name)
	}

	c, cctx := startCache(t, cfg, cache.Options{})
	_, err := c.GetInformer(ctx, &corev1.ConfigMap{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(c.WaitForCacheSync(cctx)).To(BeTrue())

	// No Eventually: a synced cache holds everything that existed when its list was taken.
	list := &corev1.ConfigMapList{}
	g.Expect(c.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	g.Expect(cmNames(list)).To(Equal(want))
}

func TestNamespaceRestrictedCache(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	watched := newNamespace(t)
	ignored := newNamespace(t)
	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: watched, Name: "in"}})).To(Succeed())
	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ignored, Name: "out"}})).To(Succeed())

	mgr := startManager(t, cfg, cache.Options{DefaultNamespaces: map[string]cache.Config{watched: {}}})
	list := &corev1.ConfigMapList{}
	g.Expect(mgr.GetCache().List(ctx, list)).To(Succeed())
	var seen []string
	for _, item := range list.Items {
		seen = append(seen, item.Namespace+"/"+item.Name)
	}
	g.Expect(seen).To(Equal([]string{watched + "/in"}))
}

func TestLabelSelectedCacheHoldsOnlyMatchingObjects(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "early",
		Labels: map[string]string{"cached": "yes"}}})).To(Succeed())

	mgr := startManager(t, cfg, cache.Options{ByObject: map[client.Object]cache.ByObject{
		&corev1.ConfigMap{}: {Label: labels.SelectorFromSet(labels.Set{"cached": "yes"})},
	}})
	cached := mgr.GetCache()

	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "late",
		Labels: map[string]string{"cached": "yes"}}})).To(Succeed())
	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "unlabelled"}})).To(Succeed())
	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "other",
		Labels: map[string]string{"cached": "no"}}})).To(Succeed())

	g.Eventually(func() []string {
		l := &corev1.ConfigMapList{}
		g.Expect(cached.List(ctx, l, client.InNamespace(ns))).To(Succeed())
		return cmNames(l)
	}, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"early", "late"}))
	err := cached.Get(ctx, client.ObjectKey{Namespace: ns, Name: "unlabelled"}, &corev1.ConfigMap{})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)

	// An object that loses the label leaves the cache; one that gains it enters.
	late := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "late"}, late)).To(Succeed())
	late.Labels = nil
	g.Expect(k8s.Update(ctx, late)).To(Succeed())
	other := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "other"}, other)).To(Succeed())
	other.Labels["cached"] = "yes"
	g.Expect(k8s.Update(ctx, other)).To(Succeed())
	g.Eventually(func() []string {
		l := &corev1.ConfigMapList{}
		g.Expect(cached.List(ctx, l, client.InNamespace(ns))).To(Succeed())
		return cmNames(l)
	}, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"early", "other"}))
}

func TestFieldSelectedCacheHoldsOnlyMatchingPods(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	mkPod := func(name, node string) {
		g.Expect(k8s.Create(ctx, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "busybox:1.36"}}},
		})).To(Succeed())
	}
	mkPod("on-1", "node-1")

	mgr := startManager(t, cfg, cache.Options{ByObject: map[client.Object]cache.ByObject{
		&corev1.Pod{}: {Field: fields.OneTermEqualSelector("spec.nodeName", "node-1")},
	}})
	mkPod("on-2", "node-2")
	mkPod("also-on-1", "node-1")

	g.Eventually(func() []string {
		l := &corev1.PodList{}
		g.Expect(mgr.GetCache().List(ctx, l, client.InNamespace(ns))).To(Succeed())
		out := []string{}
		for _, p := range l.Items {
			out = append(out, p.Name)
		}
		sort.Strings(out)
		return out
	}, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"also-on-1", "on-1"}))
}

func TestFieldIndexedListFromCache(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	indexOwner := func(mgr manager.Manager) error {
		return mgr.GetFieldIndexer().IndexField(ctx, &corev1.ConfigMap{}, "data.owner", func(o client.Object) []string {
			cm := o.(*corev1.ConfigMap)
			if owner, ok := cm.Data["owner"]; ok {
				return []string{owner}
			}
			return nil
		})
	}
	mgr := startManager(t, cfg, cache.Options{}, indexOwner)

	for name, owner := range map[string]string{"x1": "team-x", "x2": "team-x", "y1": "team-y"} {
		g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Data: map[string]string{"owner": owner}})).To(Succeed())
	}
	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "nobody"}})).To(Succeed())

	byOwner := func(owner string, opts ...client.ListOption) func() []string {
		return func() []string {
			l := &corev1.ConfigMapList{}
			g.Expect(mgr.GetClient().List(ctx, l, append(opts, client.MatchingFields{"data.owner": owner})...)).To(Succeed())
			return cmNames(l)
		}
	}
	// The creates ran in map order, so each owner's objects reach the cache on their own: wait for
	// both rather than read one right after the other arrived.
	g.Eventually(byOwner("team-x", client.InNamespace(ns)), 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"x1", "x2"}))
	g.Eventually(byOwner("team-y", client.InNamespace(ns)), 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"y1"}))
	// Across namespaces too.
	g.Expect(byOwner("team-y")()).To(Equal([]string{"y1"}))
	g.Expect(byOwner("team-z", client.InNamespace(ns))()).To(BeEmpty())

	// The index follows updates.
	y1 := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "y1"}, y1)).To(Succeed())
	y1.Data["owner"] = "team-x"
	g.Expect(k8s.Update(ctx, y1)).To(Succeed())
	g.Eventually(byOwner("team-x", client.InNamespace(ns)), 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"x1", "x2", "y1"}))
	g.Expect(byOwner("team-y", client.InNamespace(ns))()).To(BeEmpty())
}
