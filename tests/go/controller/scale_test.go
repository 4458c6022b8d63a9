// The scale subresource of WebApp through the controller-runtime client, and the CRD's validation rules.
package controller

import (
	"context"
	"testing"

	"github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

// writeScale sets spec.replicas through the scale subresource, reading the Scale afresh while the reconciler's
// status writes make the read one stale (409 Conflict).
func writeScale(ctx context.Context, app *webappv1.WebApp, replicas int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		scale := &autoscalingv1.Scale{}
		if err := k8sClient.SubResource("scale").Get(ctx, app, scale); err != nil {
			return err
		}
		scale.Spec.Replicas = replicas
		return k8sClient.SubResource("scale").Update(ctx, app, client.WithSubResourceBody(scale))
	})
}

func TestScaleSubresourceChangesReplicasAndDeployment(t *testing.T) {
	ctx, g, ns := startTest(t)
	app := newWebApp(ns, "web")
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())
	g.Expect(*app.Spec.Replicas).To(gomega.Equal(int32(1)), "replicas defaulted by the CRD schema")
	g.Eventually(func(g gomega.Gomega) {
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Status.Selector).To(gomega.Equal("app=web"))
	}).Should(gomega.Succeed())

	scale := &autoscalingv1.Scale{}
	g.Expect(k8sClient.SubResource("scale").Get(ctx, app, scale)).To(gomega.Succeed())
	g.Expect(scale.Spec.Replicas).To(gomega.Equal(int32(1)))
	g.Expect(scale.Status.Selector).To(gomega.Equal("app=web"))
	g.Expect(scale.Status.Replicas).To(gomega.Equal(int32(0)))

	g.Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8sClient.SubResource("scale").Get(ctx, app, scale); err != nil {
			return err
		}
		scale.Spec.Replicas = 3
		return k8sClient.SubResource("scale").Update(ctx, app, client.WithSubResourceBody(scale))
	})).To(gomega.Succeed())
	g.Expect(scale.Spec.Replicas).To(gomega.Equal(int32(3)))

	got := &webappv1.WebApp{}
	g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
	g.Expect(*got.Spec.Replicas).To(gomega.Equal(int32(3)))
	g.Expect(got.Generation).To(gomega.Equal(int64(2)), "a scale write is a spec change")

	g.Eventually(func(g gomega.Gomega) {
		dep := &appsv1.Deployment{}
		g.Expect(k8sClient.Get(ctx, key(app), dep)).To(gomega.Succeed())
		g.Expect(*dep.Spec.Replicas).To(gomega.Equal(int32(3)))
		g.Expect(k8sClient.Get(ctx, key(app), got)).To(gomega.Succeed())
		g.Expect(got.Status.ObservedGeneration).To(gomega.Equal(int64(2)))
	}).Should(gomega.Succeed())

	// status.readyReplicas is what the scale subresource reports as status.replicas.
	dep := &appsv1.Deployment{}
	g.Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8sClient.Get(ctx, key(app), dep); err != nil {
			return err
		}
		dep.Status = appsv1.DeploymentStatus{ObservedGeneration: dep.Generation, Replicas: 3, UpdatedReplicas: 3,
			ReadyReplicas: 2, AvailableReplicas: 2}
		return k8sClient.Status().Update(ctx, dep)
	})).To(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		g.Expect(k8sClient.SubResource("scale").Get(ctx, app, scale)).To(gomega.Succeed())
		g.Expect(scale.Status.Replicas).To(gomega.Equal(int32(2)))
	}).Should(gomega.Succeed())
}

func TestScaleBeyondSchemaMaximumIsInvalid(t *testing.T) {
	ctx, g, ns := startTest(t)
	app := newWebApp(ns, "big")
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())
	err := writeScale(ctx, app, 11)
	g.Expect(apierrors.IsInvalid(err)).To(gomega.BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(gomega.ContainSubstring("spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10"))
}

func TestCELRulesRejectInvalidWebApps(t *testing.T) {
	ctx, g, ns := startTest(t)

	err := k8sClient.Create(ctx, newWebApp(ns, "spaces", func(a *webappv1.WebApp) { a.Spec.Image = "nginx latest" }))
	g.Expect(apierrors.IsInvalid(err)).To(gomega.BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(gomega.Equal(`WebApp.webapp.kal.example.com "spaces" is invalid: spec.image: Invalid value: "nginx latest": image must not contain spaces`))

	err = k8sClient.Create(ctx, newWebApp(ns, "backend", func(a *webappv1.WebApp) {
		a.Spec.Tier = webappv1.TierBackend
		a.Spec.Replicas = ptr.To[int32](5)
	}))
	g.Expect(apierrors.IsInvalid(err)).To(gomega.BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(gomega.Equal(`WebApp.webapp.kal.example.com "backend" is invalid: spec: Invalid value: a backend WebApp may have at most 3 replicas`))

	err = k8sClient.Create(ctx, newWebApp(ns, "tier", func(a *webappv1.WebApp) { a.Spec.Tier = "middle" }))
	g.Expect(apierrors.IsInvalid(err)).To(gomega.BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(gomega.ContainSubstring(`spec.tier: Unsupported value: "middle": supported values: "frontend", "backend"`))

	// The rule also holds when a valid backend WebApp is scaled past 3 through the scale subresource.
	ok := newWebApp(ns, "backend-ok", func(a *webappv1.WebApp) {
		a.Spec.Tier = webappv1.TierBackend
		a.Spec.Replicas = ptr.To[int32](3)
	})
	g.Expect(k8sClient.Create(ctx, ok)).To(gomega.Succeed())
	err = writeScale(ctx, ok, 4)
	g.Expect(apierrors.IsInvalid(err)).To(gomega.BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(gomega.ContainSubstring("a backend WebApp may have at most 3 replicas"))
}
