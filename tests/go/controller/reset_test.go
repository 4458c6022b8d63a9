// A reset of the server with the manager still running: its informers relist after the 410 and carry on.
package controller

import (
	"context"
	"testing"

	"github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

const webappCRD = "webapps.webapp.kal.example.com"

func names[T any](items []T, name func(*T) string) []string {
	var out []string
	for i := range items {
		out = append(out, name(&items[i]))
	}
	return out
}

func TestResetWithRunningManagerRecovers(t *testing.T) {
	ctx, g, ns := startTest(t)
	before := newWebApp(ns, "before")
	g.Expect(k8sClient.Create(ctx, before)).To(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		g.Expect(k8sClient.Get(ctx, key(before), &appsv1.Deployment{})).To(gomega.Succeed())
		cached := &webappv1.WebAppList{}
		g.Expect(mgr.GetCache().List(ctx, cached)).To(gomega.Succeed())
		g.Expect(names(cached.Items, func(a *webappv1.WebApp) string { return a.Name })).To(gomega.ContainElement("before"))
	}).Should(gomega.Succeed())

	// Back to the server's initial state: the namespace, the WebApp, its children, the CRD and the operator's
	// RBAC are gone; every watch ended with 410 Expired. Put the suite's CRD and RBAC back, as a suite would.
	g.Expect(admin.Reset(ctx)).To(gomega.Succeed())
	nsList := &corev1.NamespaceList{}
	g.Expect(k8sClient.List(ctx, nsList)).To(gomega.Succeed())
	g.Expect(names(nsList.Items, func(n *corev1.Namespace) string { return n.Name })).To(gomega.ConsistOf(
		"default", "kube-system", "kube-public", "kube-node-lease"))
	err := k8sClient.Get(ctx, client.ObjectKey{Name: webappCRD}, &apiextensionsv1.CustomResourceDefinition{})
	g.Expect(apierrors.IsNotFound(err)).To(gomega.BeTrue(), "the CRD went with the reset; got %v", err)
	g.Expect(installSuiteState(ctx)).To(gomega.Succeed())

	// The manager's cache relisted: the pre-reset objects are no longer in it.
	g.Eventually(func(g gomega.Gomega) {
		apps := &webappv1.WebAppList{}
		g.Expect(mgr.GetCache().List(ctx, apps)).To(gomega.Succeed())
		g.Expect(names(apps.Items, func(a *webappv1.WebApp) string { return a.Namespace + "/" + a.Name })).
			NotTo(gomega.ContainElement(ns + "/before"))
		cms := &corev1.ConfigMapList{}
		g.Expect(mgr.GetCache().List(ctx, cms, client.InNamespace(ns))).To(gomega.Succeed())
		g.Expect(cms.Items).To(gomega.BeEmpty())
		deps := &appsv1.DeploymentList{}
		g.Expect(mgr.GetCache().List(ctx, deps, client.InNamespace(ns))).To(gomega.Succeed())
		g.Expect(deps.Items).To(gomega.BeEmpty())
	}).Should(gomega.Succeed())

	// And it still reconciles new objects.
	ns2 := ns + "-after"
	g.Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns2}})).To(gomega.Succeed())
	after := newWebApp(ns2, "after")
	g.Expect(k8sClient.Create(ctx, after)).To(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		dep := &appsv1.Deployment{}
		g.Expect(k8sClient.Get(ctx, key(after), dep)).To(gomega.Succeed())
		g.Expect(dep.OwnerReferences).To(gomega.HaveLen(1))
		g.Expect(dep.OwnerReferences[0].UID).To(gomega.Equal(after.UID))
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(after), got)).To(gomega.Succeed())
		g.Expect(got.Status.ObservedGeneration).To(gomega.Equal(int64(1)))
	}).Should(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		cached := &webappv1.WebApp{}
		g.Expect(mgr.GetCache().Get(ctx, key(after), cached)).To(gomega.Succeed())
	}).Should(gomega.Succeed())
}

func TestSnapshotRestoreWithRunningManager(t *testing.T) {
	ctx, g, ns := startTest(t)
	const snapshot = "controller-before-extra"
	g.Expect(admin.Snapshot(ctx, snapshot)).To(gomega.Succeed())
	t.Cleanup(func() { _ = admin.DeleteSnapshot(context.Background(), snapshot) })

	extraNS := ns + "-extra"
	g.Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: extraNS}})).To(gomega.Succeed())
	extra := newWebApp(extraNS, "extra")
	g.Expect(k8sClient.Create(ctx, extra)).To(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		g.Expect(k8sClient.Get(ctx, key(extra), &appsv1.Deployment{})).To(gomega.Succeed())
		g.Expect(mgr.GetCache().Get(ctx, key(extra), &webappv1.WebApp{})).To(gomega.Succeed())
	}).Should(gomega.Succeed())

	// Back to the snapshot: the namespace made since and everything in it are gone, the CRD and RBAC stay.
	g.Expect(admin.Restore(ctx, snapshot)).To(gomega.Succeed())
	g.Expect(apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKey{Name: extraNS}, &corev1.Namespace{}))).To(gomega.BeTrue())
	g.Expect(apierrors.IsNotFound(k8sClient.Get(ctx, key(extra), &webappv1.WebApp{}))).To(gomega.BeTrue())
	g.Expect(k8sClient.Get(ctx, client.ObjectKey{Name: ns}, &corev1.Namespace{})).To(gomega.Succeed(), "saved before")
	g.Eventually(func(g gomega.Gomega) {
		err := mgr.GetCache().Get(ctx, key(extra), &webappv1.WebApp{})
		g.Expect(apierrors.IsNotFound(err)).To(gomega.BeTrue(), "got %v", err)
		deps := &appsv1.DeploymentList{}
		g.Expect(mgr.GetCache().List(ctx, deps, client.InNamespace(extraNS))).To(gomega.Succeed())
		g.Expect(deps.Items).To(gomega.BeEmpty())
	}).Should(gomega.Succeed())

	again := newWebApp(ns, "again")
	g.Expect(k8sClient.Create(ctx, again)).To(gomega.Succeed())
	g.Eventually(func(g gomega.Gomega) {
		got := &webappv1.WebApp{}
		g.Expect(k8sClient.Get(ctx, key(again), got)).To(gomega.Succeed())
		g.Expect(got.Status.ObservedGeneration).To(gomega.Equal(int64(1)))
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "again-config"}, &corev1.ConfigMap{})).To(gomega.Succeed())
	}).Should(gomega.Succeed())
}
