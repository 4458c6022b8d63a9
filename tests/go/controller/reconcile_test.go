// The reconcile loop end to end: children with owner references, spec changes, readiness, deletion.
package controller

import (
	"testing"

	"github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
	"github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/internal/controller"
)

func TestCreateMakesOwnedConfigMapAndDeployment(t *testing.T) {
	ctx, g, ns := startTest(t)
	app := newWebApp(ns, "shop", func(a *webappv1.WebApp) {
		a.Spec.Replicas = ptr.To[int32](2)
		a.Spec.Config = map[string]string{"LOG_LEVEL": "info"}
	})
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())
	g.Expect(app.Spec.Tier).To(gomega.Equal(webappv1.TierFrontend), "tier defaulted by the CRD schema")
	g.Expect(app.Generation).To(gomega.Equal(int64(1)))

	owner := metav1.OwnerReference{
		APIVersion: "webapp.kal.example.com/v1", Kind: "WebApp", Name: "shop", UID: app.UID,
		Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}
	cm := &corev1.ConfigMap{}
	g.Eventually(func() error {
		return k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "shop-config"}, cm)
	}).Should(gomega.Succeed())
	g.Expect(cm.Data).To(gomega.Equal(map[string]string{"LOG_LEVEL": "info"}))
	g.Expect(cm.Labels).To(gomega.HaveKeyWithValue("app", "shop"))
	g.Expect(cm.OwnerReferences).To(gomega.Equal([]metav1.OwnerReference{owner}))

	dep := &appsv1.Deployment{}
	g.Eventually(func() error { return k8sClient.Get(ctx, key(app), dep) }).Should(gomega.Succeed())
	g.Expect(dep.OwnerReferences).To(gomega.Equal([]metav1.OwnerReference{owner}))
	g.Expect(*dep.Spec.Replicas).To(gomega.Equal(int32(2)))
	g.Expect(dep.Spec.Selector.MatchLabels).To(gomega.Equal(map[string]string{"app": "shop"}))
	g.Expect(dep.Spec.Template.Labels).To(gomega.HaveKeyWithValue("app", "shop"))
	g.Expect(dep.Spec.Template.Spec.Containers).To(gomega.HaveLen(1))
	g.Expect(dep.Spec.Template.Spec.Containers[0].Image).To(gomega.Equal("nginx:1.27"))
	g.Expect(dep.Spec.Template.Spec.Containers[0].EnvFrom[0].ConfigMapRef.Name).To(gomega.Equal("shop-config"))
	g.Expect(dep.Spec.Paused).To(gomega.BeFalse())

	g.Eventually(func(g gomega.Gomega) {
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Finalizers).To(gomega.ConsistOf(controller.Finalizer))
		g.Expect(got.Status.ObservedGeneration).To(gomega.Equal(int64(1)))
		g.Expect(got.Status.Selector).To(gomega.Equal("app=shop"))
		g.Expect(got.Status.ReadyReplicas).To(gomega.Equal(int32(0)))
		avail := meta.FindStatusCondition(got.Status.Conditions, webappv1.ConditionAvailable)
		g.Expect(avail).NotTo(gomega.BeNil())
		g.Expect(avail.Status).To(gomega.Equal(metav1.ConditionFalse))
		g.Expect(avail.Reason).To(gomega.Equal("ReplicasUnavailable"))
		g.Expect(meta.IsStatusConditionTrue(got.Status.Conditions, webappv1.ConditionProgressing)).To(gomega.BeTrue())
		// A finalizer and status writes are not spec changes: the generation stays.
		g.Expect(got.Generation).To(gomega.Equal(int64(1)))
	}).Should(gomega.Succeed())
}

func TestSpecChangePropagatesToChildren(t *testing.T) {
	ctx, g, ns := startTest(t)
	app := newWebApp(ns, "blog", func(a *webappv1.WebApp) { a.Spec.Config = map[string]string{"A": "1"} })
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())

	dep := &appsv1.Deployment{}
	g.Eventually(func() error { return k8sClient.Get(ctx, key(app), dep) }).Should(gomega.Succeed())
	firstHash := dep.Spec.Template.Annotations[controller.ConfigHashAnnotation]
	g.Expect(firstHash).NotTo(gomega.BeEmpty())
	g.Eventually(func(g gomega.Gomega) {
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Status.ObservedGeneration).To(gomega.Equal(int64(1)))
	}).Should(gomega.Succeed())

	g.Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8sClient.Get(ctx, key(app), app); err != nil {
			return err
		}
		app.Spec.Image = "nginx:1.28"
		app.Spec.Replicas = ptr.To[int32](4)
		app.Spec.Config = map[string]string{"A": "2", "B": "3"}
		app.Spec.Paused = true
		return k8sClient.Update(ctx, app)
	})).To(gomega.Succeed())
	g.Expect(app.Generation).To(gomega.Equal(int64(2)))

	g.Eventually(func(g gomega.Gomega) {
		g.Expect(k8sClient.Get(ctx, key(app), dep)).To(gomega.Succeed())
		g.Expect(dep.Spec.Template.Spec.Containers[0].Image).To(gomega.Equal("nginx:1.28"))
		g.Expect(*dep.Spec.Replicas).To(gomega.Equal(int32(4)))
		g.Expect(dep.Spec.Paused).To(gomega.BeTrue())
		g.Expect(dep.Spec.Template.Annotations[controller.ConfigHashAnnotation]).NotTo(gomega.Equal(firstHash))
	}).Should(gomega.Succeed())
	cm := &corev1.ConfigMap{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "blog-config"}, cm)).To(gomega.Succeed())
	g.Expect(cm.Data).To(gomega.Equal(map[string]string{"A": "2", "B": "3"}))

	g.Eventually(func(g gomega.Gomega) {
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Status.ObservedGeneration).To(gomega.Equal(int64(2)))
		p := meta.FindStatusCondition(got.Status.Conditions, webappv1.ConditionProgressing)
		g.Expect(p).NotTo(gomega.BeNil())
		g.Expect(p.Status).To(gomega.Equal(metav1.ConditionFalse))
		g.Expect(p.Reason).To(gomega.Equal("Paused"))
		g.Expect(p.ObservedGeneration).To(gomega.Equal(int64(2)))
	}).Should(gomega.Succeed())
}

func TestDeploymentReadinessMakesWebAppAvailable(t *testing.T) {
	ctx, g, ns := startTest(t)
	app := newWebApp(ns, "api", func(a *webappv1.WebApp) { a.Spec.Replicas = ptr.To[int32](2) })
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())
	dep := &appsv1.Deployment{}
	g.Eventually(func() error { return k8sClient.Get(ctx, key(app), dep) }).Should(gomega.Succeed())

	// No kube-controller-manager runs: play the Deployment controller and report two ready replicas.
	g.Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8sClient.Get(ctx, key(app), dep); err != nil {
			return err
		}
		dep.Status = appsv1.DeploymentStatus{
			ObservedGeneration: dep.Generation, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2,
		}
		return k8sClient.Status().Update(ctx, dep)
	})).To(gomega.Succeed())

	g.Eventually(func(g gomega.Gomega) {
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Status.ReadyReplicas).To(gomega.Equal(int32(2)))
		avail := meta.FindStatusCondition(got.Status.Conditions, webappv1.ConditionAvailable)
		g.Expect(avail).NotTo(gomega.BeNil())
		g.Expect(avail.Status).To(gomega.Equal(metav1.ConditionTrue))
		g.Expect(avail.Reason).To(gomega.Equal("MinimumReplicasAvailable"))
		g.Expect(avail.Message).To(gomega.Equal("2 of 2 replicas ready"))
		p := meta.FindStatusCondition(got.Status.Conditions, webappv1.ConditionProgressing)
		g.Expect(p.Reason).To(gomega.Equal("RolloutComplete"))
	}).Should(gomega.Succeed())

	// Losing a replica flips Available back.
	g.Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8sClient.Get(ctx, key(app), dep); err != nil {
			return err
		}
		dep.Status.ReadyReplicas, dep.Status.AvailableReplicas = 1, 1
		return k8sClient.Status().Update(ctx, dep)
	})).To(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Status.ReadyReplicas).To(gomega.Equal(int32(1)))
		g.Expect(meta.IsStatusConditionFalse(got.Status.Conditions, webappv1.ConditionAvailable)).To(gomega.BeTrue())
	}).Should(gomega.Succeed())
}

func TestDeleteRunsFinalizerAndRemovesChildren(t *testing.T) {
	ctx, g, ns := startTest(t)
	app := newWebApp(ns, "gone", func(a *webappv1.WebApp) { a.Spec.Config = map[string]string{"k": "v"} })
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		g.Expect(k8sClient.Get(ctx, key(app), &appsv1.Deployment{})).To(gomega.Succeed())
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "gone-config"}, &corev1.ConfigMap{})).To(gomega.Succeed())
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Finalizers).To(gomega.ContainElement(controller.Finalizer))
	}).Should(gomega.Succeed())

	g.Expect(k8sClient.Delete(ctx, app)).To(gomega.Succeed())
	g.Eventually(func() bool {
		return apierrors.IsNotFound(k8sClient.Get(ctx, key(app), &webappv1.WebApp{}))
	}).Should(gomega.BeTrue(), "the WebApp goes once its finalizer is removed")
	// Nothing else deletes dependents here (no garbage collector): the reconciler did.
	g.Expect(apierrors.IsNotFound(k8sClient.Get(ctx, key(app), &appsv1.Deployment{}))).To(gomega.BeTrue())
	g.Expect(apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "gone-config"},
		&corev1.ConfigMap{}))).To(gomega.BeTrue())
	g.Eventually(func() []string { return eventReasons(ctx, g, ns, "gone") }).
		Should(gomega.ContainElement(controller.ReasonCleanedUp))
}

func TestDeletionDoesNotWaitForChildFinalizers(t *testing.T) {
	ctx, g, ns := startTest(t)
	// A finalizer of someone else on the Deployment keeps it (Terminating) after the reconciler's delete;
	// the WebApp's own finalizer still completes because the reconciler only asks for the deletion.
	app := newWebApp(ns, "held")
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())
	dep := &appsv1.Deployment{}
	g.Eventually(func() error { return k8sClient.Get(ctx, key(app), dep) }).Should(gomega.Succeed())
	g.Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8sClient.Get(ctx, key(app), dep); err != nil {
			return err
		}
		dep.Finalizers = append(dep.Finalizers, "example.com/hold")
		return k8sClient.Update(ctx, dep)
	})).To(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Finalizers).To(gomega.ContainElement(controller.Finalizer))
	}).Should(gomega.Succeed())

	g.Expect(k8sClient.Delete(ctx, app)).To(gomega.Succeed())
	g.Eventually(func() bool {
		return apierrors.IsNotFound(k8sClient.Get(ctx, key(app), &webappv1.WebApp{}))
	}).Should(gomega.BeTrue())
	g.Expect(k8sClient.Get(ctx, key(app), dep)).To(gomega.Succeed())
	g.Expect(dep.DeletionTimestamp).NotTo(gomega.BeNil(), "the Deployment is terminating, held by its finalizer")
	g.Expect(dep.Finalizers).To(gomega.Equal([]string{"example.com/hold"}))

	dep.Finalizers = nil
	g.Expect(k8sClient.Update(ctx, dep)).To(gomega.Succeed())
	g.Eventually(func() bool { return apierrors.IsNotFound(k8sClient.Get(ctx, key(app), dep)) }).Should(gomega.BeTrue())
}
