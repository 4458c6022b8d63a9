// DeleteAllOf (deletecollection) through controller-runtime's client: by label in a namespace, for
// custom resources, and limited to its namespace.
package client_test

import (
	"testing"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestDeleteAllOfConfigMapsByLabel(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	other := newNamespace(t)
	createConfigMap(t, ns, "doomed-1", map[string]string{"purge": "yes"})
	createConfigMap(t, ns, "doomed-2", map[string]string{"purge": "yes"})
	createConfigMap(t, ns, "spared", map[string]string{"purge": "no"})
	createConfigMap(t, other, "elsewhere", map[string]string{"purge": "yes"})

	g.Expect(k8s.DeleteAllOf(ctx, &corev1.ConfigMap{}, client.InNamespace(ns), client.MatchingLabels{"purge": "yes"})).To(Succeed())

	list := &corev1.ConfigMapList{}
	g.Expect(k8s.List(ctx, list, client.InNamespace(ns), client.HasLabels{"purge"})).To(Succeed())
	g.Expect(configMapNames(list)).To(Equal([]string{"spared"}))
	g.Expect(k8s.List(ctx, list, client.InNamespace(other))).To(Succeed())
	g.Expect(configMapNames(list)).To(ContainElement("elsewhere"))
}

func TestDeleteAllOfCustomResources(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	for _, name := range []string{"a", "b", "c"} {
		g.Expect(k8s.Create(ctx, &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: GadgetSpec{Color: "red"}})).To(Succeed())
	}
	g.Expect(k8s.Create(ctx, &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "blue"}, Spec: GadgetSpec{Color: "blue"}})).To(Succeed())

	// Only the red ones, by the selectable field.
	g.Expect(k8s.DeleteAllOf(ctx, &Gadget{}, client.InNamespace(ns), client.MatchingFields{"spec.color": "red"})).To(Succeed())
	list := &GadgetList{}
	g.Expect(k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	g.Expect(list.Items).To(HaveLen(1))
	g.Expect(list.Items[0].Name).To(Equal("blue"))

	g.Expect(k8s.DeleteAllOf(ctx, &Gadget{}, client.InNamespace(ns))).To(Succeed())
	g.Expect(k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	g.Expect(list.Items).To(BeEmpty())
}
