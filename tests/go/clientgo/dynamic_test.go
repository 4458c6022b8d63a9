// client-go's dynamic client: CRUD of a custom resource (Gadget) and of a built-in (ConfigMap),
// status updates, server-side apply, a watch through the dynamic client, and the dynamic informer
// factory with its lister.
package clientgo_test

import (
	"sort"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic/dynamicinformer"
)

func gadgetObject(name, color string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "tests.kal.example.com/v1",
		"kind":       "Gadget",
		"metadata":   map[string]interface{}{"name": name},
		"spec":       map[string]interface{}{"color": color},
	}}
}

func TestDynamicClientCustomResourceCRUD(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	gadgets := dyn.Resource(gadgetsGVR).Namespace(ns)

	created, err := gadgets.Create(ctx, gadgetObject("dyn", "red"), metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(created.GetUID()).NotTo(BeEmpty())
	g.Expect(created.GetNamespace()).To(Equal(ns))
	size, _, _ := unstructured.NestedString(created.Object, "spec", "size")
	g.Expect(size).To(Equal("medium"))

	got, err := gadgets.Get(ctx, "dyn", metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(got.GetResourceVersion()).To(Equal(created.GetResourceVersion()))

	g.Expect(unstructured.SetNestedField(got.Object, "blue", "spec", "color")).To(Succeed())
	updated, err := gadgets.Update(ctx, got, metav1.UpdateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(updated.GetGeneration()).To(Equal(int64(2)))

	g.Expect(unstructured.SetNestedField(updated.Object, "Ready", "status", "phase")).To(Succeed())
	withStatus, err := gadgets.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	phase, _, _ := unstructured.NestedString(withStatus.Object, "status", "phase")
	g.Expect(phase).To(Equal("Ready"))
	g.Expect(withStatus.GetGeneration()).To(Equal(int64(2)))

	patched, err := gadgets.Patch(ctx, "dyn", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	replicas, _, _ := unstructured.NestedInt64(patched.Object, "spec", "replicas")
	g.Expect(replicas).To(Equal(int64(3)))

	_, err = gadgets.Create(ctx, gadgetObject("dyn-2", "green"), metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	list, err := gadgets.List(ctx, metav1.ListOptions{FieldSelector: "spec.color=green"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(list.Items).To(HaveLen(1))
	g.Expect(list.Items[0].GetName()).To(Equal("dyn-2"))
	g.Expect(list.GetKind()).To(Equal("GadgetList"))

	g.Expect(gadgets.Delete(ctx, "dyn", metav1.DeleteOptions{})).To(Succeed())
	_, err = gadgets.Get(ctx, "dyn", metav1.GetOptions{})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
	g.Expect(gadgets.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})).To(Succeed())
	list, err = gadgets.List(ctx, metav1.ListOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(list.Items).To(BeEmpty())
}

func TestDynamicClientBuiltinCRUDAndApply(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	cms := dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace(ns)

	cm := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "dyn-cm", "labels": map[string]interface{}{"via": "dynamic"}},
		"data":     map[string]interface{}{"a": "1"},
	}}
	created, err := cms.Create(ctx, cm, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(created.GetKind()).To(Equal("ConfigMap"))

	typed, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "dyn-cm", metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(typed.Data).To(Equal(map[string]string{"a": "1"}))

	applied, err := cms.Apply(ctx, "dyn-cm", &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "dyn-cm"},
		"data":     map[string]interface{}{"b": "2"},
	}}, metav1.ApplyOptions{FieldManager: "dynamic-applier"})
	g.Expect(err).NotTo(HaveOccurred())
	data, _, _ := unstructured.NestedStringMap(applied.Object, "data")
	g.Expect(data).To(Equal(map[string]string{"a": "1", "b": "2"}))
	var managers []string
	for _, e := range applied.GetManagedFields() {
		managers = append(managers, e.Manager+"/"+string(e.Operation))
	}
	g.Expect(managers).To(ContainElement("dynamic-applier/Apply"))

	list, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "via=dynamic"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(list.Items).To(HaveLen(1))

	g.Expect(cms.Delete(ctx, "dyn-cm", metav1.DeleteOptions{})).To(Succeed())
	_, err = cms.Get(ctx, "dyn-cm", metav1.GetOptions{})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`configmaps "dyn-cm" not found`))
}

func TestDynamicWatchSeesAddModifyDelete(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	gadgets := dyn.Resource(gadgetsGVR).Namespace(ns)

	list, err := gadgets.List(ctx, metav1.ListOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	w, err := gadgets.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	g.Expect(err).NotTo(HaveOccurred())
	defer w.Stop()

	created, err := gadgets.Create(ctx, gadgetObject("watched", "red"), metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(unstructured.SetNestedField(created.Object, "green", "spec", "color")).To(Succeed())
	updated, err := gadgets.Update(ctx, created, metav1.UpdateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(gadgets.Delete(ctx, "watched", metav1.DeleteOptions{})).To(Succeed())

	type seen struct {
		Type  watch.EventType
		Color string
		RV    string
	}
	var got []seen
	timeout := time.After(10 * time.Second)
	for len(got) < 3 {
		select {
		case ev, ok := <-w.ResultChan():
			g.Expect(ok).To(BeTrue(), "watch closed early after %v", got)
			u, isU := ev.Object.(*unstructured.Unstructured)
			g.Expect(isU).To(BeTrue(), "event object %T", ev.Object)
			g.Expect(u.GetKind()).To(Equal("Gadget"))
			color, _, _ := unstructured.NestedString(u.Object, "spec", "color")
			got = append(got, seen{ev.Type, color, u.GetResourceVersion()})
		case <-timeout:
			t.Fatalf("only %d of 3 events arrived: %v", len(got), got)
		}
	}
	g.Expect(got[0]).To(Equal(seen{watch.Added, "red", created.GetResourceVersion()}))
	g.Expect(got[1]).To(Equal(seen{watch.Modified, "green", updated.GetResourceVersion()}))
	g.Expect(got[2].Type).To(Equal(watch.Deleted))
	g.Expect(got[2].Color).To(Equal("green"))
}

func TestDynamicInformerFactoryWithLister(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	gadgets := dyn.Resource(gadgetsGVR).Namespace(ns)
	_, err := gadgets.Create(ctx, gadgetObject("before", "red"), metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())

	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, ns, nil)
	inf := factory.ForResource(gadgetsGVR)
	log := &handlerLog{ns: ns}
	_, err = inf.Informer().AddEventHandler(log.handlerFor("Gadget"))
	g.Expect(err).NotTo(HaveOccurred())
	stop := make(chan struct{})
	factory.Start(stop)
	t.Cleanup(func() {
		close(stop)
		factory.Shutdown()
	})
	for gvr, ok := range factory.WaitForCacheSync(stop) {
		g.Expect(ok).To(BeTrue(), "informer for %v did not sync", gvr)
	}

	before, err := inf.Lister().ByNamespace(ns).Get("before")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(before.(*unstructured.Unstructured).GetName()).To(Equal("before"))

	_, err = gadgets.Create(ctx, gadgetObject("after", "blue"), metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	_, err = gadgets.Patch(ctx, "before", types.MergePatchType, []byte(`{"metadata":{"labels":{"seen":"yes"}}}`), metav1.PatchOptions{})
	g.Expect(err).NotTo(HaveOccurred())

	g.Eventually(log.sorted, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{
		"Gadget:add:after", "Gadget:add:before", "Gadget:update:before",
	}))
	objs, err := inf.Lister().ByNamespace(ns).List(labels.Everything())
	g.Expect(err).NotTo(HaveOccurred())
	var names []string
	for _, o := range objs {
		names = append(names, o.(*unstructured.Unstructured).GetName())
	}
	sort.Strings(names)
	g.Expect(names).To(Equal([]string{"after", "before"}))
	labelled, err := inf.Lister().List(labels.SelectorFromSet(labels.Set{"seen": "yes"}))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(labelled).To(HaveLen(1))
}
