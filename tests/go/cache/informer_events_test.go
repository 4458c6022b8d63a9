// Informer event handlers on a controller-runtime cache: add/update/delete of ConfigMaps (with the
// initial-list flag for objects that existed before the start), a custom resource through an
// unstructured informer, and metadata-only (PartialObjectMetadata) informers.
package cache_test

import (
	"sort"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// event is one handler call seen for an object.
type event struct {
	Type          string // add, update, delete
	Name          string
	InInitialList bool
	Value         string // the object's data["v"] (ConfigMaps) or spec.color (Gadgets)
}

// eventLog collects handler calls for objects of one namespace.
type eventLog struct {
	mu     sync.Mutex
	ns     string
	value  func(obj interface{}) string
	events []event
}

func (l *eventLog) record(typ string, obj interface{}, initial bool) {
	if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	o, ok := obj.(client.Object)
	if !ok || o.GetNamespace() != l.ns {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, event{Type: typ, Name: o.GetName(), InInitialList: initial, Value: l.value(obj)})
}

func (l *eventLog) handler() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerDetailedFuncs{
		AddFunc:    func(obj interface{}, initial bool) { l.record("add", obj, initial) },
		UpdateFunc: func(_, obj interface{}) { l.record("update", obj, false) },
		DeleteFunc: func(obj interface{}) { l.record("delete", obj, false) },
	}
}

func (l *eventLog) snapshot() []event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]event(nil), l.events...)
}

func TestInformerEventHandlerSeesAddUpdateDelete(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "before"},
		Data: map[string]string{"v": "0"}})).To(Succeed())

	log := &eventLog{ns: ns, value: func(obj interface{}) string { return obj.(*corev1.ConfigMap).Data["v"] }}
	c, cctx := startCache(t, cfg, cache.Options{})
	inf, err := c.GetInformer(ctx, &corev1.ConfigMap{})
	g.Expect(err).NotTo(HaveOccurred())
	_, err = inf.AddEventHandler(log.handler())
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(c.WaitForCacheSync(cctx)).To(BeTrue())
	g.Eventually(log.snapshot, 10*time.Second, 10*time.Millisecond).Should(Equal([]event{
		{Type: "add", Name: "before", InInitialList: true, Value: "0"},
	}))

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "after"}, Data: map[string]string{"v": "1"}}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())
	cm.Data["v"] = "2"
	g.Expect(k8s.Update(ctx, cm)).To(Succeed())
	g.Expect(k8s.Delete(ctx, cm)).To(Succeed())

	g.Eventually(log.snapshot, 10*time.Second, 10*time.Millisecond).Should(Equal([]event{
		{Type: "add", Name: "before", InInitialList: true, Value: "0"},
		{Type: "add", Name: "after", Value: "1"},
		{Type: "update", Name: "after", Value: "2"},
		{Type: "delete", Name: "after", Value: "2"},
	}))
}

func TestCustomResourceCacheUnstructured(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gadget := func(name, color string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("tests.kal.example.com/v1")
		u.SetKind("Gadget")
		u.SetNamespace(ns)
		u.SetName(name)
		_ = unstructured.SetNestedField(u.Object, color, "spec", "color")
		return u
	}
	g.Expect(k8s.Create(ctx, gadget("first", "red"))).To(Succeed())

	color := func(obj interface{}) string {
		c, _, _ := unstructured.NestedString(obj.(*unstructured.Unstructured).Object, "spec", "color")
		return c
	}
	log := &eventLog{ns: ns, value: color}
	mgr := startManager(t, cfg, cache.Options{})
	inf, err := mgr.GetCache().GetInformer(ctx, gadget("", ""))
	g.Expect(err).NotTo(HaveOccurred())
	_, err = inf.AddEventHandler(log.handler())
	g.Expect(err).NotTo(HaveOccurred())

	second := gadget("second", "blue")
	g.Expect(k8s.Create(ctx, second)).To(Succeed())
	g.Expect(unstructured.SetNestedField(second.Object, "green", "spec", "color")).To(Succeed())
	g.Expect(k8s.Update(ctx, second)).To(Succeed())

	names := func() []string {
		list := &unstructured.UnstructuredList{}
		list.SetAPIVersion("tests.kal.example.com/v1")
		list.SetKind("GadgetList")
		g.Expect(mgr.GetCache().List(ctx, list, client.InNamespace(ns))).To(Succeed())
		out := []string{}
		for _, item := range list.Items {
			out = append(out, item.GetName()+"="+color(&item))
		}
		sort.Strings(out)
		return out
	}
	g.Eventually(names, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{"first=red", "second=green"}))

	got := gadget("", "")
	g.Expect(mgr.GetCache().Get(ctx, client.ObjectKey{Namespace: ns, Name: "first"}, got)).To(Succeed())
	size, _, _ := unstructured.NestedString(got.Object, "spec", "size")
	g.Expect(size).To(Equal("medium"))

	// A cache selecting by the CRD's selectable field holds only the matching Gadget.
	byColor, cctx := startCache(t, cfg, cache.Options{ByObject: map[client.Object]cache.ByObject{
		gadget("", ""): {Field: fields.OneTermEqualSelector("spec.color", "green")},
	}})
	_, err = byColor.GetInformer(ctx, gadget("", ""))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(byColor.WaitForCacheSync(cctx)).To(BeTrue())
	greens := &unstructured.UnstructuredList{}
	greens.SetAPIVersion("tests.kal.example.com/v1")
	greens.SetKind("GadgetList")
	g.Expect(byColor.List(ctx, greens, client.InNamespace(ns))).To(Succeed())
	g.Expect(greens.Items).To(HaveLen(1))
	g.Expect(greens.Items[0].GetName()).To(Equal("second"))

	g.Eventually(log.snapshot, 10*time.Second, 10*time.Millisecond).Should(Equal([]event{
		{Type: "add", Name: "first", InInitialList: true, Value: "red"},
		{Type: "add", Name: "second", Value: "blue"},
		{Type: "update", Name: "second", Value: "green"},
	}))
}

func TestPartialObjectMetadataInformer(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	g.Expect(k8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "s1",
		Labels: map[string]string{"k": "v"}}, StringData: map[string]string{"password": "hunter2"}})).To(Succeed())

	reqs := &requestLog{}
	mgr := startManager(t, recordingConfig(reqs), cache.Options{})

	meta := func() *metav1.PartialObjectMetadataList {
		l := &metav1.PartialObjectMetadataList{}
		l.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
		return l
	}
	list := meta()
	g.Expect(mgr.GetCache().List(ctx, list, client.InNamespace(ns))).To(Succeed())
	g.Expect(list.Items).To(HaveLen(1))
	g.Expect(list.Items[0].Name).To(Equal("s1"))
	g.Expect(list.Items[0].Labels).To(Equal(map[string]string{"k": "v"}))
	g.Expect(list.Items[0].UID).NotTo(BeEmpty())

	g.Expect(k8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "s2"}})).To(Succeed())
	g.Eventually(func() int {
		l := meta()
		g.Expect(mgr.GetCache().List(ctx, l, client.InNamespace(ns))).To(Succeed())
		return len(l.Items)
	}, 10*time.Second, 20*time.Millisecond).Should(Equal(2))

	p := &metav1.PartialObjectMetadata{}
	p.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	g.Expect(mgr.GetCache().Get(ctx, client.ObjectKey{Namespace: ns, Name: "s2"}, p)).To(Succeed())
	g.Expect(p.Name).To(Equal("s2"))

	// Every request of the informer asked for metadata only.
	secretReqs := reqs.forPath("/api/v1/secrets")
	g.Expect(secretReqs).NotTo(BeEmpty())
	for _, r := range secretReqs {
		g.Expect(r.Accept).To(ContainSubstring("as=PartialObjectMetadata"), "request %s", r.URL)
		g.Expect(r.Status).To(Equal(200), "request %s", r.URL)
	}
}
