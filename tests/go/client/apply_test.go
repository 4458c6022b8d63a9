// Server-side apply through controller-runtime's client.Apply with client-go's typed apply
// configurations and with ApplyConfigurationFromUnstructured: create, a re-apply that changes
// nothing, field removal, a conflict between two field owners, ForceOwnership, and custom
// resources' set-typed lists merged between owners.
package client_test

import (
	"testing"

	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// managers returns manager → operation of an object's managedFields.
func managers(entries []metav1.ManagedFieldsEntry) map[string]metav1.ManagedFieldsOperationType {
	out := map[string]metav1.ManagedFieldsOperationType{}
	for _, e := range entries {
		out[e.Manager] = e.Operation
	}
	return out
}

// ownedBy returns the FieldsV1 JSON of one manager's entry.
func ownedBy(entries []metav1.ManagedFieldsEntry, manager string) string {
	for _, e := range entries {
		if e.Manager == manager && e.FieldsV1 != nil {
			return string(e.FieldsV1.Raw)
		}
	}
	return ""
}

func TestApplyCreatesConfigMapAndReapplyIsNoop(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	ac := corev1ac.ConfigMap("applied", ns).
		WithLabels(map[string]string{"owner": "a"}).
		WithData(map[string]string{"k": "v", "k2": "v2"})
	g.Expect(k8s.Apply(ctx, ac, client.FieldOwner("owner-a"))).To(Succeed())
	g.Expect(ac.ResourceVersion).NotTo(BeNil())
	g.Expect(ac.UID).NotTo(BeNil())
	firstRV := *ac.ResourceVersion

	got := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "applied"}, got)).To(Succeed())
	g.Expect(got.Data).To(Equal(map[string]string{"k": "v", "k2": "v2"}))
	g.Expect(managers(got.ManagedFields)).To(Equal(map[string]metav1.ManagedFieldsOperationType{"owner-a": metav1.ManagedFieldsOperationApply}))
	g.Expect(ownedBy(got.ManagedFields, "owner-a")).To(MatchJSON(
		`{"f:data":{"f:k":{},"f:k2":{}},"f:metadata":{"f:labels":{"f:owner":{}}}}`))

	// The same configuration again changes nothing, not even the resourceVersion.
	again := corev1ac.ConfigMap("applied", ns).
		WithLabels(map[string]string{"owner": "a"}).
		WithData(map[string]string{"k": "v", "k2": "v2"})
	g.Expect(k8s.Apply(ctx, again, client.FieldOwner("owner-a"))).To(Succeed())
	g.Expect(*again.ResourceVersion).To(Equal(firstRV))

	// Leaving k2 out of the configuration removes it.
	fewer := corev1ac.ConfigMap("applied", ns).
		WithLabels(map[string]string{"owner": "a"}).
		WithData(map[string]string{"k": "v"})
	g.Expect(k8s.Apply(ctx, fewer, client.FieldOwner("owner-a"))).To(Succeed())
	g.Expect(*fewer.ResourceVersion).NotTo(Equal(firstRV))
	g.Expect(fewer.Data).To(Equal(map[string]string{"k": "v"}))
}

func TestApplyConflictBetweenTwoFieldOwners(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	g.Expect(k8s.Apply(ctx, corev1ac.ConfigMap("contested", ns).WithData(map[string]string{"k": "from-a"}),
		client.FieldOwner("owner-a"))).To(Succeed())

	err := k8s.Apply(ctx, corev1ac.ConfigMap("contested", ns).WithData(map[string]string{"k": "from-b"}),
		client.FieldOwner("owner-b"))
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`Apply failed with 1 conflict: conflict with "owner-a": .data.k`))
	status := statusOf(t, err)
	g.Expect(status.Code).To(Equal(int32(409)))
	g.Expect(status.Reason).To(Equal(metav1.StatusReasonConflict))
	g.Expect(status.Details).NotTo(BeNil())
	g.Expect(status.Details.Causes).To(Equal([]metav1.StatusCause{{
		Type:    metav1.CauseTypeFieldManagerConflict,
		Message: `conflict with "owner-a"`,
		Field:   ".data.k",
	}}))

	got := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "contested"}, got)).To(Succeed())
	g.Expect(got.Data).To(Equal(map[string]string{"k": "from-a"}))

	// Applying the same value is no conflict: both then share the field.
	g.Expect(k8s.Apply(ctx, corev1ac.ConfigMap("contested", ns).WithData(map[string]string{"k": "from-a"}),
		client.FieldOwner("owner-b"))).To(Succeed())
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "contested"}, got)).To(Succeed())
	g.Expect(ownedBy(got.ManagedFields, "owner-a")).To(ContainSubstring(`"f:k"`))
	g.Expect(ownedBy(got.ManagedFields, "owner-b")).To(ContainSubstring(`"f:k"`))
}

func TestApplyForceOwnershipTakesTheField(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	g.Expect(k8s.Apply(ctx, corev1ac.ConfigMap("forced", ns).
		WithLabels(map[string]string{"by": "a"}).
		WithData(map[string]string{"k": "from-a"}), client.FieldOwner("owner-a"))).To(Succeed())

	forced := corev1ac.ConfigMap("forced", ns).WithData(map[string]string{"k": "from-b"})
	g.Expect(k8s.Apply(ctx, forced, client.FieldOwner("owner-b"), client.ForceOwnership)).To(Succeed())
	g.Expect(forced.Data).To(Equal(map[string]string{"k": "from-b"}))

	got := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "forced"}, got)).To(Succeed())
	g.Expect(got.Labels).To(Equal(map[string]string{"by": "a"}))
	g.Expect(ownedBy(got.ManagedFields, "owner-b")).To(MatchJSON(`{"f:data":{"f:k":{}}}`))
	g.Expect(ownedBy(got.ManagedFields, "owner-a")).To(MatchJSON(`{"f:metadata":{"f:labels":{"f:by":{}}}}`))

	// Now owner-a is the one in conflict.
	err := k8s.Apply(ctx, corev1ac.ConfigMap("forced", ns).
		WithLabels(map[string]string{"by": "a"}).
		WithData(map[string]string{"k": "from-a"}), client.FieldOwner("owner-a"))
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`Apply failed with 1 conflict: conflict with "owner-b": .data.k`))
}

func TestApplyDeploymentWithTypedApplyConfiguration(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	labels := map[string]string{"app": "applied"}
	deploy := func(replicas int32, image string) *appsv1ac.DeploymentApplyConfiguration {
		return appsv1ac.Deployment("applied", ns).
			WithSpec(appsv1ac.DeploymentSpec().
				WithReplicas(replicas).
				WithSelector(metav1ac.LabelSelector().WithMatchLabels(labels)).
				WithTemplate(corev1ac.PodTemplateSpec().
					WithLabels(labels).
					WithSpec(corev1ac.PodSpec().WithContainers(
						corev1ac.Container().WithName("web").WithImage(image)))))
	}
	ac := deploy(2, "nginx:1.27")
	g.Expect(k8s.Apply(ctx, ac, client.FieldOwner("deployer"))).To(Succeed())
	g.Expect(*ac.Generation).To(Equal(int64(1)))
	g.Expect(*ac.Spec.RevisionHistoryLimit).To(Equal(int32(10)))

	got := &appsv1.Deployment{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "applied"}, got)).To(Succeed())
	g.Expect(*got.Spec.Replicas).To(Equal(int32(2)))
	g.Expect(got.Spec.Template.Spec.Containers[0].ImagePullPolicy).To(Equal(corev1.PullIfNotPresent))

	// Another manager adds a second container; the containers list merges by name.
	g.Expect(k8s.Apply(ctx, appsv1ac.Deployment("applied", ns).
		WithSpec(appsv1ac.DeploymentSpec().
			WithTemplate(corev1ac.PodTemplateSpec().
				WithSpec(corev1ac.PodSpec().WithContainers(
					corev1ac.Container().WithName("sidecar").WithImage("busybox:1.36"))))),
		client.FieldOwner("sidecar-injector"))).To(Succeed())

	changed := deploy(3, "nginx:1.28")
	g.Expect(k8s.Apply(ctx, changed, client.FieldOwner("deployer"))).To(Succeed())
	g.Expect(*changed.Generation).To(Equal(int64(3)))
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "applied"}, got)).To(Succeed())
	g.Expect(*got.Spec.Replicas).To(Equal(int32(3)))
	var images []string
	for _, c := range got.Spec.Template.Spec.Containers {
		images = append(images, c.Name+"="+c.Image)
	}
	g.Expect(images).To(ConsistOf("web=nginx:1.28", "sidecar=busybox:1.36"))
}

func TestApplyCustomResourceFromUnstructured(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gadget := func(fields map[string]interface{}) *unstructured.Unstructured {
		u := unstructuredGadget(ns, "applied", "red")
		for k, v := range fields {
			g.Expect(unstructured.SetNestedField(u.Object, v, "spec", k)).To(Succeed())
		}
		return u
	}
	g.Expect(k8s.Apply(ctx, client.ApplyConfigurationFromUnstructured(gadget(map[string]interface{}{
		"tags": []interface{}{"a"},
	})), client.FieldOwner("owner-a"))).To(Succeed())

	// A second owner adds to the set-typed list without touching the first owner's item.
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "tests.kal.example.com/v1", "kind": "Gadget",
		"metadata": map[string]interface{}{"name": "applied", "namespace": ns},
		"spec":     map[string]interface{}{"tags": []interface{}{"b"}},
	}}
	g.Expect(k8s.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("owner-b"))).To(Succeed())

	got := &Gadget{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "applied"}, got)).To(Succeed())
	g.Expect(got.Spec.Tags).To(Equal([]string{"a", "b"}))
	g.Expect(got.Spec.Color).To(Equal("red"))
	g.Expect(got.Spec.Size).To(Equal("medium"))
	g.Expect(managers(got.ManagedFields)).To(Equal(map[string]metav1.ManagedFieldsOperationType{
		"owner-a": metav1.ManagedFieldsOperationApply,
		"owner-b": metav1.ManagedFieldsOperationApply,
	}))

	// owner-b changing the colour owner-a set is a conflict on .spec.color.
	u2 := unstructuredGadget(ns, "applied", "blue")
	err := k8s.Apply(ctx, client.ApplyConfigurationFromUnstructured(u2), client.FieldOwner("owner-b"))
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`Apply failed with 1 conflict: conflict with "owner-a": .spec.color`))

	// owner-a dropping its tag leaves owner-b's.
	g.Expect(k8s.Apply(ctx, client.ApplyConfigurationFromUnstructured(gadget(nil)), client.FieldOwner("owner-a"))).To(Succeed())
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "applied"}, got)).To(Succeed())
	g.Expect(got.Spec.Tags).To(Equal([]string{"b"}))
}
