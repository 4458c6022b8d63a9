// Dry runs (client.DryRunAll) of create, update, patch, delete and apply: the answer is the object
// as it would be, and nothing is persisted.
package client_test

import (
	"testing"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestDryRunCreatePersistsNothing(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dry"}, Data: map[string]string{"a": "1"}}
	g.Expect(k8s.Create(ctx, cm, client.DryRunAll)).To(Succeed())
	g.Expect(cm.UID).NotTo(BeEmpty())
	g.Expect(cm.CreationTimestamp.IsZero()).To(BeFalse())
	g.Expect(cm.ResourceVersion).To(BeEmpty())
	g.Expect(cm.Data).To(Equal(map[string]string{"a": "1"}))
	err := k8s.Get(ctx, client.ObjectKeyFromObject(cm), &corev1.ConfigMap{})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "get after dry-run create: %v", err)

	// A dry-run create of a custom resource gets its schema defaults in the answer.
	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dry"}, Spec: GadgetSpec{Color: "blue"}}
	g.Expect(k8s.Create(ctx, gd, client.DryRunAll)).To(Succeed())
	g.Expect(gd.Spec.Size).To(Equal("medium"))
	g.Expect(*gd.Spec.Replicas).To(Equal(int32(1)))
	g.Expect(apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKeyFromObject(gd), &Gadget{}))).To(BeTrue())

	// A dry-run create of an existing name is still AlreadyExists.
	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "real"}})).To(Succeed())
	err = k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "real"}}, client.DryRunAll)
	g.Expect(apierrors.IsAlreadyExists(err)).To(BeTrue(), "got %v", err)
}

func TestDryRunUpdateAndPatchPersistNothing(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "stay"}, Data: map[string]string{"a": "1"}}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())
	rv := cm.ResourceVersion

	upd := cm.DeepCopy()
	upd.Data["a"] = "2"
	g.Expect(k8s.Update(ctx, upd, client.DryRunAll)).To(Succeed())
	g.Expect(upd.Data).To(Equal(map[string]string{"a": "2"}))

	patched := cm.DeepCopy()
	patched.Data["b"] = "3"
	g.Expect(k8s.Patch(ctx, patched, client.MergeFrom(cm), client.DryRunAll)).To(Succeed())
	g.Expect(patched.Data).To(Equal(map[string]string{"a": "1", "b": "3"}))

	ac := corev1ac.ConfigMap("stay", ns).WithData(map[string]string{"c": "4"})
	g.Expect(k8s.Apply(ctx, ac, client.FieldOwner("dry-applier"), client.DryRunAll)).To(Succeed())
	g.Expect(ac.Data).To(HaveKeyWithValue("c", "4"))

	got := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(cm), got)).To(Succeed())
	g.Expect(got.Data).To(Equal(map[string]string{"a": "1"}))
	g.Expect(got.ResourceVersion).To(Equal(rv))
	g.Expect(managers(got.ManagedFields)).NotTo(HaveKey("dry-applier"))
}

func TestDryRunDeleteKeepsTheObject(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kept"}}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())
	g.Expect(k8s.Delete(ctx, cm, client.DryRunAll)).To(Succeed())

	got := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(cm), got)).To(Succeed())
	g.Expect(got.DeletionTimestamp).To(BeNil())
	g.Expect(got.ResourceVersion).To(Equal(cm.ResourceVersion))

	// DeleteAllOf under dry run deletes nothing either.
	g.Expect(k8s.DeleteAllOf(ctx, &corev1.ConfigMap{}, client.InNamespace(ns), client.DryRunAll)).To(Succeed())
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(cm), got)).To(Succeed())

	// A dry-run delete of a missing object is NotFound.
	err := k8s.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "absent"}}, client.DryRunAll)
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
}
