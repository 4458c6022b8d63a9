// Status and scale subresources through controller-runtime's client: Status().Update/Patch/Apply
// leave spec alone and main-resource writes leave status alone; SubResource("scale") reads and
// writes the replica count of a Deployment and of the Gadget custom resource.
package client_test

import (
	"testing"

	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestStatusUpdateLeavesSpecUntouched(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "st"}, Spec: GadgetSpec{Color: "red"}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())
	rv := gd.ResourceVersion

	gd.Spec.Color = "blue"
	gd.Status.Phase = "Ready"
	gd.Status.Replicas = 1
	g.Expect(k8s.Status().Update(ctx, gd)).To(Succeed())
	g.Expect(gd.ResourceVersion).NotTo(Equal(rv))
	// The answer is the stored object: the spec change was dropped.
	g.Expect(gd.Spec.Color).To(Equal("red"))
	g.Expect(gd.Status.Phase).To(Equal("Ready"))
	g.Expect(gd.Generation).To(Equal(int64(1)))

	got := &Gadget{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(gd), got)).To(Succeed())
	g.Expect(got.Spec.Color).To(Equal("red"))
	g.Expect(got.Status).To(Equal(GadgetStatus{Phase: "Ready", Replicas: 1}))
}

func TestMainResourceUpdateLeavesStatusUntouched(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "main"}, Spec: GadgetSpec{Color: "red"}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())
	gd.Status.Phase = "Ready"
	g.Expect(k8s.Status().Update(ctx, gd)).To(Succeed())

	gd.Spec.Color = "green"
	gd.Status.Phase = "Broken"
	g.Expect(k8s.Update(ctx, gd)).To(Succeed())
	g.Expect(gd.Spec.Color).To(Equal("green"))
	g.Expect(gd.Status.Phase).To(Equal("Ready"))
	g.Expect(gd.Generation).To(Equal(int64(2)))

	// Status on create is dropped too.
	withStatus := &Gadget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "born-ready"},
		Spec:       GadgetSpec{Color: "red"},
		Status:     GadgetStatus{Phase: "Ready"},
	}
	g.Expect(k8s.Create(ctx, withStatus)).To(Succeed())
	g.Expect(withStatus.Status).To(Equal(GadgetStatus{}))
}

func TestStatusPatchAndApply(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "sp"}, Spec: GadgetSpec{Color: "red"}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())

	orig := gd.DeepCopy()
	gd.Status.Phase = "Progressing"
	gd.Spec.Color = "blue"
	g.Expect(k8s.Status().Patch(ctx, gd, client.MergeFrom(orig))).To(Succeed())
	g.Expect(gd.Status.Phase).To(Equal("Progressing"))
	g.Expect(gd.Spec.Color).To(Equal("red"))

	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "tests.kal.example.com/v1", "kind": "Gadget",
		"metadata": map[string]interface{}{"name": "sp", "namespace": ns},
		"status":   map[string]interface{}{"replicas": int64(3)},
	}}
	g.Expect(k8s.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("status-writer"))).To(Succeed())

	got := &Gadget{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(gd), got)).To(Succeed())
	g.Expect(got.Status).To(Equal(GadgetStatus{Phase: "Progressing", Replicas: 3}))
	g.Expect(got.Spec.Color).To(Equal("red"))
	var sub string
	for _, e := range got.ManagedFields {
		if e.Manager == "status-writer" {
			sub = e.Subresource
			g.Expect(e.Operation).To(Equal(metav1.ManagedFieldsOperationApply))
		}
	}
	g.Expect(sub).To(Equal("status"))
}

func TestDeploymentScaleSubresource(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	d := newDeployment(ns, "scaled", 2)
	g.Expect(k8s.Create(ctx, d)).To(Succeed())

	scale := &autoscalingv1.Scale{}
	g.Expect(k8s.SubResource("scale").Get(ctx, d, scale)).To(Succeed())
	g.Expect(scale.Spec.Replicas).To(Equal(int32(2)))
	g.Expect(scale.Name).To(Equal("scaled"))
	g.Expect(scale.Namespace).To(Equal(ns))
	g.Expect(scale.UID).To(Equal(d.UID))
	g.Expect(scale.Status.Selector).To(Equal("app=scaled"))

	scale.Spec.Replicas = 5
	g.Expect(k8s.SubResource("scale").Update(ctx, d, client.WithSubResourceBody(scale))).To(Succeed())
	g.Expect(scale.Spec.Replicas).To(Equal(int32(5)))

	got := &appsv1.Deployment{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(d), got)).To(Succeed())
	g.Expect(*got.Spec.Replicas).To(Equal(int32(5)))
	g.Expect(got.Generation).To(Equal(int64(2)))

	// A stale scale is a conflict like any stale write.
	stale := scale.DeepCopy()
	stale.ResourceVersion = d.ResourceVersion
	stale.Spec.Replicas = 7
	err := k8s.SubResource("scale").Update(ctx, d, client.WithSubResourceBody(stale))
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
}

func TestGadgetScaleSubresource(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "gs"}, Spec: GadgetSpec{Color: "red"}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())
	gd.Status = GadgetStatus{Replicas: 1, Selector: "app=gs"}
	g.Expect(k8s.Status().Update(ctx, gd)).To(Succeed())

	scale := &autoscalingv1.Scale{}
	g.Expect(k8s.SubResource("scale").Get(ctx, gd, scale)).To(Succeed())
	g.Expect(scale.Name).To(Equal("gs"))
	g.Expect(scale.UID).To(Equal(gd.UID))
	g.Expect(scale.Spec.Replicas).To(Equal(int32(1)))
	g.Expect(scale.Status.Replicas).To(Equal(int32(1)))
	g.Expect(scale.Status.Selector).To(Equal("app=gs"))

	scale.Spec.Replicas = 4
	g.Expect(k8s.SubResource("scale").Update(ctx, gd, client.WithSubResourceBody(scale))).To(Succeed())

	got := &Gadget{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(gd), got)).To(Succeed())
	g.Expect(*got.Spec.Replicas).To(Equal(int32(4)))
	g.Expect(got.Spec.Color).To(Equal("red"))
	g.Expect(got.Status.Replicas).To(Equal(int32(1)))
	g.Expect(got.Generation).To(Equal(int64(2)))

	// The CR's schema still applies: 60 is over the maximum of 50.
	g.Expect(k8s.SubResource("scale").Get(ctx, gd, scale)).To(Succeed())
	scale.Spec.Replicas = 60
	err := k8s.SubResource("scale").Update(ctx, gd, client.WithSubResourceBody(scale))
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(ContainSubstring("spec.replicas: Invalid value: 60: spec.replicas in body should be less than or equal to 50"))
}
