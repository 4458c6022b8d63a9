// Optimistic concurrency through controller-runtime's client: an Update or an optimistic-lock
// merge patch with a stale resourceVersion is kube's 409 Conflict; Update without one is an
// unconditional write for ConfigMaps.
package client_test

import (
	"testing"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestUpdateWithStaleResourceVersionConflicts(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "x"}, Data: map[string]string{"v": "0"}}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())
	stale := cm.DeepCopy()

	cm.Data["v"] = "1"
	g.Expect(k8s.Update(ctx, cm)).To(Succeed())

	stale.Data["v"] = "stale"
	err := k8s.Update(ctx, stale)
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again`))
	status := statusOf(t, err)
	g.Expect(status.Code).To(Equal(int32(409)))
	g.Expect(status.Details).NotTo(BeNil())
	g.Expect(status.Details.Name).To(Equal("x"))
	g.Expect(status.Details.Kind).To(Equal("configmaps"))

	got := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(cm), got)).To(Succeed())
	g.Expect(got.Data["v"]).To(Equal("1"))
}

func TestUpdateCustomResourceWithStaleResourceVersionConflicts(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "race"}, Spec: GadgetSpec{Color: "red"}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())
	stale := gd.DeepCopy()
	gd.Spec.Color = "green"
	g.Expect(k8s.Update(ctx, gd)).To(Succeed())

	stale.Spec.Color = "blue"
	err := k8s.Update(ctx, stale)
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`Operation cannot be fulfilled on gadgets.tests.kal.example.com "race": the object has been modified; please apply your changes to the latest version and try again`))
}

func TestMergePatchWithOptimisticLockConflicts(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "locked"}, Data: map[string]string{"v": "0"}}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())
	stale := cm.DeepCopy()
	cm.Data["v"] = "1"
	g.Expect(k8s.Update(ctx, cm)).To(Succeed())

	changed := stale.DeepCopy()
	changed.Data["v"] = "2"
	err := k8s.Patch(ctx, changed, client.MergeFromWithOptions(stale, client.MergeFromWithOptimisticLock{}))
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`Operation cannot be fulfilled on configmaps "locked": the object has been modified; please apply your changes to the latest version and try again`))

	// The same patch from the current object goes through.
	current := cm.DeepCopy()
	current.Data["v"] = "2"
	g.Expect(k8s.Patch(ctx, current, client.MergeFromWithOptions(cm, client.MergeFromWithOptimisticLock{}))).To(Succeed())
	g.Expect(current.Data["v"]).To(Equal("2"))
}

func TestUpdateWithoutResourceVersionIsUnconditional(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "free"}, Data: map[string]string{"v": "0"}}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())
	cm.Data["v"] = "1"
	g.Expect(k8s.Update(ctx, cm)).To(Succeed())

	blind := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "free"}, Data: map[string]string{"v": "blind"}}
	g.Expect(k8s.Update(ctx, blind)).To(Succeed())
	g.Expect(blind.ResourceVersion).NotTo(Equal(cm.ResourceVersion))
	g.Expect(blind.UID).To(Equal(cm.UID))
	g.Expect(blind.Data).To(Equal(map[string]string{"v": "blind"}))
}

func TestUpdateCustomResourceWithoutResourceVersionIsInvalid(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "strict"}, Spec: GadgetSpec{Color: "red"}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())

	// Custom resources do not allow unconditional updates.
	blind := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "strict"}, Spec: GadgetSpec{Color: "blue"}}
	err := k8s.Update(ctx, blind)
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`gadgets.tests.kal.example.com "strict" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`), "message %q", err.Error())
}
