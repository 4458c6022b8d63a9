// Custom resources through controller-runtime's client: the namespaced Gadget as unstructured and
// as the hand-written typed Gadget, and the cluster-scoped Gizmo; schema defaults, pruning of
// unknown fields and the generation rule of a CR with a status subresource.
package client_test

import (
	"testing"

	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func unstructuredGadget(ns, name, color string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("tests.kal.example.com/v1")
	u.SetKind("Gadget")
	u.SetNamespace(ns)
	u.SetName(name)
	_ = unstructured.SetNestedField(u.Object, color, "spec", "color")
	return u
}

func TestGadgetUnstructuredCreateGetUpdateDelete(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	u := unstructuredGadget(ns, "g1", "red")
	g.Expect(unstructured.SetNestedField(u.Object, "dropped", "spec", "unknownField")).To(Succeed())
	g.Expect(k8s.Create(ctx, u)).To(Succeed())
	g.Expect(u.GetUID()).NotTo(BeEmpty())
	g.Expect(u.GetGeneration()).To(Equal(int64(1)))

	got := &unstructured.Unstructured{}
	got.SetAPIVersion("tests.kal.example.com/v1")
	got.SetKind("Gadget")
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(u), got)).To(Succeed())
	spec, _, _ := unstructured.NestedMap(got.Object, "spec")
	// Defaults from the schema filled in, the unknown field pruned.
	g.Expect(spec).To(Equal(map[string]interface{}{"color": "red", "size": "medium", "replicas": int64(1)}))

	g.Expect(unstructured.SetNestedField(got.Object, "blue", "spec", "color")).To(Succeed())
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(got.GetGeneration()).To(Equal(int64(2)))
	color, _, _ := unstructured.NestedString(got.Object, "spec", "color")
	g.Expect(color).To(Equal("blue"))

	// Metadata-only changes keep the generation.
	got.SetLabels(map[string]string{"touched": "yes"})
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(got.GetGeneration()).To(Equal(int64(2)))

	g.Expect(k8s.Delete(ctx, got)).To(Succeed())
	err := k8s.Get(ctx, client.ObjectKeyFromObject(u), got)
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "get after delete: %v", err)
	g.Expect(err.Error()).To(Equal(`gadgets.tests.kal.example.com "g1" not found`))
}

func TestGadgetTypedCreateGetListUpdateDelete(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gd := &Gadget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "typed"},
		Spec:       GadgetSpec{Color: "green", Replicas: int32p(3), Tags: []string{"a", "b"}},
	}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())
	g.Expect(gd.Spec.Size).To(Equal("medium"))
	g.Expect(gd.UID).NotTo(BeEmpty())

	got := &Gadget{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(gd), got)).To(Succeed())
	g.Expect(got.Spec).To(Equal(GadgetSpec{Color: "green", Size: "medium", Replicas: int32p(3), Tags: []string{"a", "b"}}))

	second := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "typed-2"}, Spec: GadgetSpec{Color: "blue"}}
	g.Expect(k8s.Create(ctx, second)).To(Succeed())
	g.Expect(*second.Spec.Replicas).To(Equal(int32(1)))

	list := &GadgetList{}
	g.Expect(k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	g.Expect(list.Items).To(HaveLen(2))
	g.Expect([]string{list.Items[0].Name, list.Items[1].Name}).To(ConsistOf("typed", "typed-2"))
	g.Expect(list.ResourceVersion).NotTo(BeEmpty())

	got.Spec.Size = "large"
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(got.Spec.Size).To(Equal("large"))
	g.Expect(got.Generation).To(Equal(int64(2)))

	g.Expect(k8s.Delete(ctx, got)).To(Succeed())
	g.Expect(k8s.Delete(ctx, second)).To(Succeed())
	g.Expect(k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	g.Expect(list.Items).To(BeEmpty())
}

func TestGizmoClusterScopedCreateGetUpdateDelete(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)

	u := &unstructured.Unstructured{}
	u.SetAPIVersion("tests.kal.example.com/v1")
	u.SetKind("Gizmo")
	u.SetGenerateName("gizmo-")
	g.Expect(unstructured.SetNestedField(u.Object, "mk1", "spec", "model")).To(Succeed())
	g.Expect(k8s.Create(ctx, u)).To(Succeed())
	t.Cleanup(func() { _ = k8s.Delete(ctx, u) })
	g.Expect(u.GetNamespace()).To(BeEmpty())
	g.Expect(u.GetName()).To(HavePrefix("gizmo-"))
	speed, found, _ := unstructured.NestedInt64(u.Object, "spec", "maxSpeed")
	g.Expect(found).To(BeTrue())
	g.Expect(speed).To(Equal(int64(10)))

	got := &unstructured.Unstructured{}
	got.SetGroupVersionKind(u.GroupVersionKind())
	g.Expect(k8s.Get(ctx, client.ObjectKey{Name: u.GetName()}, got)).To(Succeed())
	g.Expect(got.GetUID()).To(Equal(u.GetUID()))

	list := &unstructured.UnstructuredList{}
	list.SetAPIVersion("tests.kal.example.com/v1")
	list.SetKind("GizmoList")
	g.Expect(k8s.List(ctx, list)).To(Succeed())
	var names []string
	for _, item := range list.Items {
		names = append(names, item.GetName())
	}
	g.Expect(names).To(ContainElement(u.GetName()))

	g.Expect(unstructured.SetNestedField(got.Object, int64(99), "spec", "maxSpeed")).To(Succeed())
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(got.GetGeneration()).To(Equal(int64(2)))

	g.Expect(k8s.Delete(ctx, got)).To(Succeed())
	g.Expect(apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKey{Name: u.GetName()}, got))).To(BeTrue())
}
