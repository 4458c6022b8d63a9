// What the WebApp CRD declares beyond its schema, as served: selectable fields, printer columns, short names.
package controller

import (
	"encoding/json"
	"testing"

	"github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

func TestFieldSelectorOnSelectableTier(t *testing.T) {
	ctx, g, ns := startTest(t)
	g.Expect(k8sClient.Create(ctx, newWebApp(ns, "front"))).To(gomega.Succeed())
	g.Expect(k8sClient.Create(ctx, newWebApp(ns, "back", func(a *webappv1.WebApp) {
		a.Spec.Tier = webappv1.TierBackend
		a.Spec.Replicas = ptr.To[int32](2)
	}))).To(gomega.Succeed())

	list := &webappv1.WebAppList{}
	g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns), client.MatchingFields{"spec.tier": "backend"})).To(gomega.Succeed())
	g.Expect(names(list.Items, func(a *webappv1.WebApp) string { return a.Name })).To(gomega.ConsistOf("back"))
	g.Expect(k8sClient.List(ctx, list, client.InNamespace(ns), client.MatchingFields{"spec.tier": "frontend"})).To(gomega.Succeed())
	g.Expect(names(list.Items, func(a *webappv1.WebApp) string { return a.Name })).To(gomega.ConsistOf("front"))

	// A field that is not selectable is kube's 400.
	err := k8sClient.List(ctx, list, client.InNamespace(ns), client.MatchingFields{"spec.image": "nginx:1.27"})
	g.Expect(err).To(gomega.HaveOccurred())
	g.Expect(err.Error()).To(gomega.ContainSubstring(`field label not supported: spec.image`))
}

func TestTableUsesPrinterColumns(t *testing.T) {
	ctx, g, ns := startTest(t)
	g.Expect(k8sClient.Create(ctx, newWebApp(ns, "tbl"))).To(gomega.Succeed())

	cs, err := kubernetes.NewForConfig(cfg)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	raw, err := cs.Discovery().RESTClient().Get().AbsPath("/apis/webapp.kal.example.com/v1/namespaces", ns, "webapps").
		SetHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").DoRaw(ctx)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	table := &metav1.Table{}
	g.Expect(json.Unmarshal(raw, table)).To(gomega.Succeed())
	g.Expect(table.Kind).To(gomega.Equal("Table"))
	var cols []string
	for _, c := range table.ColumnDefinitions {
		cols = append(cols, c.Name)
	}
	g.Expect(cols).To(gomega.Equal([]string{"Name", "Image", "Replicas", "Ready", "Age"}))
	g.Expect(table.Rows).To(gomega.HaveLen(1))
	g.Expect(table.Rows[0].Cells[0]).To(gomega.Equal("tbl"))
	g.Expect(table.Rows[0].Cells[1]).To(gomega.Equal("nginx:1.27"))
	g.Expect(table.Rows[0].Cells[2]).To(gomega.BeEquivalentTo(1))
}

func TestDiscoveryNamesShortNameAndCategory(t *testing.T) {
	g := gomega.NewWithT(t)
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	res, err := dc.ServerResourcesForGroupVersion(webappv1.GroupVersion.String())
	g.Expect(err).NotTo(gomega.HaveOccurred())
	var found *metav1.APIResource
	for i := range res.APIResources {
		if res.APIResources[i].Name == "webapps" {
			found = &res.APIResources[i]
		}
	}
	g.Expect(found).NotTo(gomega.BeNil())
	g.Expect(found.Kind).To(gomega.Equal("WebApp"))
	g.Expect(found.Namespaced).To(gomega.BeTrue())
	g.Expect(found.ShortNames).To(gomega.Equal([]string{"wa"}))
	g.Expect(found.Categories).To(gomega.Equal([]string{"kal"}))
	subs := map[string]string{}
	for _, r := range res.APIResources {
		subs[r.Name] = r.Kind
	}
	g.Expect(subs).To(gomega.HaveKeyWithValue("webapps/status", "WebApp"))
	g.Expect(subs).To(gomega.HaveKeyWithValue("webapps/scale", "Scale"))
}
