// kubectl-style server-side apply through the typed clientset and client-go's apply
// configurations: Apply creating and then not changing a Deployment, a conflict between two field
// managers and Force, ApplyStatus, and ExtractDeployment/ExtractDeploymentStatus giving back just a
// manager's fields (which re-apply as a no-op).
package clientgo_test

import (
	"testing"

	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
)

func deploymentConfig(ns, name string, replicas int32, image string) *appsv1ac.DeploymentApplyConfiguration {
	labels := map[string]string{"app": name}
	return appsv1ac.Deployment(name, ns).
		WithSpec(appsv1ac.DeploymentSpec().
			WithReplicas(replicas).
			WithSelector(metav1ac.LabelSelector().WithMatchLabels(labels)).
			WithTemplate(corev1ac.PodTemplateSpec().
				WithLabels(labels).
				WithSpec(corev1ac.PodSpec().WithContainers(
					corev1ac.Container().WithName("web").WithImage(image)))))
}

func managerOf(d *appsv1.Deployment, manager, subresource string) *metav1.ManagedFieldsEntry {
	for i := range d.ManagedFields {
		e := &d.ManagedFields[i]
		if e.Manager == manager && e.Subresource == subresource {
			return e
		}
	}
	return nil
}

func TestDeploymentApplyCreatesThenReapplyIsNoop(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	deployments := cs.AppsV1().Deployments(ns)

	d, err := deployments.Apply(ctx, deploymentConfig(ns, "web", 2, "nginx:1.27"), metav1.ApplyOptions{FieldManager: "kubectl"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*d.Spec.Replicas).To(Equal(int32(2)))
	g.Expect(d.Generation).To(Equal(int64(1)))
	g.Expect(d.Spec.Template.Spec.Containers[0].ImagePullPolicy).To(Equal(corev1.PullIfNotPresent))
	entry := managerOf(d, "kubectl", "")
	g.Expect(entry).NotTo(BeNil())
	g.Expect(entry.Operation).To(Equal(metav1.ManagedFieldsOperationApply))
	g.Expect(entry.APIVersion).To(Equal("apps/v1"))

	again, err := deployments.Apply(ctx, deploymentConfig(ns, "web", 2, "nginx:1.27"), metav1.ApplyOptions{FieldManager: "kubectl"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(again.ResourceVersion).To(Equal(d.ResourceVersion))
	g.Expect(again.ManagedFields).To(Equal(d.ManagedFields))

	changed, err := deployments.Apply(ctx, deploymentConfig(ns, "web", 2, "nginx:1.28"), metav1.ApplyOptions{FieldManager: "kubectl"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(changed.Generation).To(Equal(int64(2)))
	g.Expect(changed.Spec.Template.Spec.Containers[0].Image).To(Equal("nginx:1.28"))

	// A dry-run apply answers with the change and stores nothing.
	dry, err := deployments.Apply(ctx, deploymentConfig(ns, "web", 4, "nginx:1.28"), metav1.ApplyOptions{FieldManager: "kubectl", DryRun: []string{metav1.DryRunAll}})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*dry.Spec.Replicas).To(Equal(int32(4)))
	stored, err := deployments.Get(ctx, "web", metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*stored.Spec.Replicas).To(Equal(int32(2)))
	g.Expect(stored.ResourceVersion).To(Equal(changed.ResourceVersion))
}

func TestDeploymentApplyConflictAndForce(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	deployments := cs.AppsV1().Deployments(ns)

	_, err := deployments.Apply(ctx, deploymentConfig(ns, "contested", 2, "nginx:1.27"), metav1.ApplyOptions{FieldManager: "deployer"})
	g.Expect(err).NotTo(HaveOccurred())

	scaleOnly := appsv1ac.Deployment("contested", ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(5))
	_, err = deployments.Apply(ctx, scaleOnly, metav1.ApplyOptions{FieldManager: "autoscaler"})
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`Apply failed with 1 conflict: conflict with "deployer": .spec.replicas`))

	// Two conflicting fields are listed together.
	both := appsv1ac.Deployment("contested", ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(5).
		WithTemplate(corev1ac.PodTemplateSpec().WithSpec(corev1ac.PodSpec().WithContainers(
			corev1ac.Container().WithName("web").WithImage("nginx:9")))))
	_, err = deployments.Apply(ctx, both, metav1.ApplyOptions{FieldManager: "autoscaler"})
	g.Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal("Apply failed with 2 conflicts: " +
		`conflicts with "deployer":` + "\n" +
		`- .spec.replicas` + "\n" +
		`- .spec.template.spec.containers[name="web"].image`))

	forced, err := deployments.Apply(ctx, scaleOnly, metav1.ApplyOptions{FieldManager: "autoscaler", Force: true})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*forced.Spec.Replicas).To(Equal(int32(5)))
	g.Expect(string(managerOf(forced, "autoscaler", "").FieldsV1.Raw)).To(MatchJSON(`{"f:spec":{"f:replicas":{}}}`))
	g.Expect(string(managerOf(forced, "deployer", "").FieldsV1.Raw)).NotTo(ContainSubstring(`"f:replicas"`))

	// The deployer leaving replicas out now leaves them to the autoscaler.
	cfgNoReplicas := deploymentConfig(ns, "contested", 0, "nginx:1.27")
	cfgNoReplicas.Spec.Replicas = nil
	kept, err := deployments.Apply(ctx, cfgNoReplicas, metav1.ApplyOptions{FieldManager: "deployer"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*kept.Spec.Replicas).To(Equal(int32(5)))
}

func TestDeploymentApplyStatus(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	deployments := cs.AppsV1().Deployments(ns)

	d, err := deployments.Apply(ctx, deploymentConfig(ns, "reported", 3, "nginx:1.27"), metav1.ApplyOptions{FieldManager: "deployer"})
	g.Expect(err).NotTo(HaveOccurred())

	status := appsv1ac.Deployment("reported", ns).WithStatus(appsv1ac.DeploymentStatus().
		WithObservedGeneration(1).
		WithReplicas(3).
		WithReadyReplicas(2).
		WithConditions(appsv1ac.DeploymentCondition().
			WithType(appsv1.DeploymentAvailable).
			WithStatus(corev1.ConditionFalse).
			WithReason("MinimumReplicasUnavailable").
			WithMessage("Deployment does not have minimum availability.")))
	reported, err := deployments.ApplyStatus(ctx, status, metav1.ApplyOptions{FieldManager: "status-controller", Force: true})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(reported.Status.Replicas).To(Equal(int32(3)))
	g.Expect(reported.Status.ReadyReplicas).To(Equal(int32(2)))
	g.Expect(reported.Status.Conditions).To(HaveLen(1))
	g.Expect(reported.Status.Conditions[0].Reason).To(Equal("MinimumReplicasUnavailable"))
	g.Expect(reported.Generation).To(Equal(d.Generation))
	g.Expect(reported.Spec).To(Equal(d.Spec))
	entry := managerOf(reported, "status-controller", "status")
	g.Expect(entry).NotTo(BeNil())
	g.Expect(entry.Operation).To(Equal(metav1.ManagedFieldsOperationApply))

	// Status in a main-resource apply is ignored.
	withStatus := deploymentConfig(ns, "reported", 3, "nginx:1.27").WithStatus(appsv1ac.DeploymentStatus().WithReplicas(99))
	after, err := deployments.Apply(ctx, withStatus, metav1.ApplyOptions{FieldManager: "deployer"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(after.Status.Replicas).To(Equal(int32(3)))
}

func TestExtractDeploymentGivesBackAManagersFields(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	deployments := cs.AppsV1().Deployments(ns)

	_, err := deployments.Apply(ctx, deploymentConfig(ns, "extracted", 2, "nginx:1.27"), metav1.ApplyOptions{FieldManager: "deployer"})
	g.Expect(err).NotTo(HaveOccurred())
	_, err = deployments.Apply(ctx, appsv1ac.Deployment("extracted", ns).WithLabels(map[string]string{"team": "web"}),
		metav1.ApplyOptions{FieldManager: "labeller"})
	g.Expect(err).NotTo(HaveOccurred())
	_, err = deployments.ApplyStatus(ctx, appsv1ac.Deployment("extracted", ns).WithStatus(appsv1ac.DeploymentStatus().WithReplicas(2)),
		metav1.ApplyOptions{FieldManager: "status-controller"})
	g.Expect(err).NotTo(HaveOccurred())
	d, err := deployments.Get(ctx, "extracted", metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())

	mine, err := appsv1ac.ExtractDeployment(d, "deployer")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*mine.Name).To(Equal("extracted"))
	g.Expect(*mine.Namespace).To(Equal(ns))
	g.Expect(mine.Labels).To(BeEmpty())
	g.Expect(*mine.Spec.Replicas).To(Equal(int32(2)))
	g.Expect(mine.Spec.Selector.MatchLabels).To(Equal(map[string]string{"app": "extracted"}))
	g.Expect(mine.Spec.Template.Spec.Containers).To(HaveLen(1))
	g.Expect(*mine.Spec.Template.Spec.Containers[0].Image).To(Equal("nginx:1.27"))
	// Defaults the server filled in belong to nobody's applied configuration.
	g.Expect(mine.Spec.RevisionHistoryLimit).To(BeNil())
	g.Expect(mine.Spec.Template.Spec.Containers[0].ImagePullPolicy).To(BeNil())
	g.Expect(mine.Status).To(BeNil())

	theirs, err := appsv1ac.ExtractDeployment(d, "labeller")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(theirs.Labels).To(Equal(map[string]string{"team": "web"}))
	g.Expect(theirs.Spec).To(BeNil())

	st, err := appsv1ac.ExtractDeploymentStatus(d, "status-controller")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(st.Status).NotTo(BeNil())
	g.Expect(*st.Status.Replicas).To(Equal(int32(2)))
	g.Expect(st.Spec).To(BeNil())

	// Re-applying what was extracted changes nothing; changing it changes just that.
	same, err := deployments.Apply(ctx, mine, metav1.ApplyOptions{FieldManager: "deployer"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(same.ResourceVersion).To(Equal(d.ResourceVersion))
	mine.Spec.WithReplicas(4)
	scaled, err := deployments.Apply(ctx, mine, metav1.ApplyOptions{FieldManager: "deployer"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*scaled.Spec.Replicas).To(Equal(int32(4)))
	g.Expect(scaled.Labels).To(Equal(map[string]string{"team": "web"}))
}
