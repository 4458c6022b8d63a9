// Events the reconciler records through the manager's events.k8s.io/v1 recorder, read back in both APIs.
package controller

import (
	"context"
	"testing"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
	"github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/internal/controller"
)

// eventsFor lists the events.k8s.io/v1 Events in ns regarding the WebApp name.
func eventsFor(ctx context.Context, g gomega.Gomega, ns, name string) []eventsv1.Event {
	list := &eventsv1.EventList{}
	g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(gomega.Succeed())
	var out []eventsv1.Event
	for _, e := range list.Items {
		if e.Regarding.Kind == "WebApp" && e.Regarding.Name == name {
			out = append(out, e)
		}
	}
	return out
}

func eventReasons(ctx context.Context, g gomega.Gomega, ns, name string) []string {
	var reasons []string
	for _, e := range eventsFor(ctx, g, ns, name) {
		reasons = append(reasons, e.Reason)
	}
	return reasons
}

func TestEventsAreRecordedAsEventsV1(t *testing.T) {
	ctx, g, ns := startTest(t)
	app := newWebApp(ns, "shop")
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())

	g.Eventually(func() []string { return eventReasons(ctx, g, ns, "shop") }).Should(gomega.ContainElements(
		controller.ReasonConfigMapCreated, controller.ReasonDeploymentCreated))

	for _, e := range eventsFor(ctx, g, ns, "shop") {
		if e.Reason != controller.ReasonDeploymentCreated {
			continue
		}
		g.Expect(e.Type).To(gomega.Equal(corev1.EventTypeNormal))
		g.Expect(e.Action).To(gomega.Equal(controller.ActionCreate))
		g.Expect(e.Note).To(gomega.Equal("created Deployment shop"))
		g.Expect(e.ReportingController).To(gomega.Equal(controller.ControllerName))
		g.Expect(e.ReportingInstance).NotTo(gomega.BeEmpty())
		g.Expect(e.EventTime.IsZero()).To(gomega.BeFalse())
		g.Expect(e.Regarding.APIVersion).To(gomega.Equal(webappv1.GroupVersion.String()))
		g.Expect(e.Regarding.UID).To(gomega.Equal(app.UID))
		g.Expect(e.Regarding.Namespace).To(gomega.Equal(ns))
		g.Expect(e.Related).NotTo(gomega.BeNil())
		g.Expect(e.Related.Kind).To(gomega.Equal("Deployment"))
		g.Expect(e.Related.Name).To(gomega.Equal("shop"))
	}

	// An update of the spec is reported too.
	g.Eventually(func() error {
		got := &webappv1.WebApp{}
		if err := k8sClient.Get(ctx, key(app), got); err != nil {
			return err
		}
		got.Spec.Image = "nginx:1.28"
		return k8sClient.Update(ctx, got)
	}).Should(gomega.Succeed())
	g.Eventually(func() []string { return eventReasons(ctx, g, ns, "shop") }).
		Should(gomega.ContainElement(controller.ReasonDeploymentUpdated))
}

func TestEventsV1AreVisibleAsCoreEvents(t *testing.T) {
	ctx, g, ns := startTest(t)
	app := newWebApp(ns, "site")
	g.Expect(k8sClient.Create(ctx, app)).To(gomega.Succeed())
	g.Eventually(func() []string { return eventReasons(ctx, g, ns, "site") }).
		Should(gomega.ContainElement(controller.ReasonConfigMapCreated))

	// The same Event through core/v1: regarding is involvedObject, note is message, the reporter is kept.
	g.Eventually(func(g gomega.Gomega) {
		list := &corev1.EventList{}
		g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns))).To(gomega.Succeed())
		var found *corev1.Event
		for i := range list.Items {
			if list.Items[i].Reason == controller.ReasonConfigMapCreated {
				found = &list.Items[i]
			}
		}
		g.Expect(found).NotTo(gomega.BeNil())
		g.Expect(found.InvolvedObject.Kind).To(gomega.Equal("WebApp"))
		g.Expect(found.InvolvedObject.Name).To(gomega.Equal("site"))
		g.Expect(found.InvolvedObject.UID).To(gomega.Equal(app.UID))
		g.Expect(found.Message).To(gomega.Equal("created ConfigMap site-config"))
		g.Expect(found.ReportingController).To(gomega.Equal(controller.ControllerName))
		g.Expect(found.Action).To(gomega.Equal(controller.ActionCreate))
		g.Expect(found.Type).To(gomega.Equal(corev1.EventTypeNormal))
	}).Should(gomega.Succeed())
}
