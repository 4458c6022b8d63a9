// List through controller-runtime's client: label selectors (equality and set-based), field
// selectors (metadata.name, metadata.namespace, Pods' status.phase and spec.nodeName, the Gadget
// CRD's selectable field .spec.color), an unsupported field label, and paging with Limit/Continue.
package client_test

import (
	"fmt"
	"sort"
	"testing"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func createConfigMap(t *testing.T, ns, name string, lbls map[string]string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls}}
	if err := k8s.Create(testContext(t), cm); err != nil {
		t.Fatalf("creating configmap %s/%s: %v", ns, name, err)
	}
	return cm
}

func configMapNames(list *corev1.ConfigMapList) []string {
	names := []string{}
	for _, item := range list.Items {
		names = append(names, item.Name)
	}
	sort.Strings(names)
	return names
}

func TestListWithMatchingLabels(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	createConfigMap(t, ns, "prod-web", map[string]string{"env": "prod", "app": "web"})
	createConfigMap(t, ns, "prod-db", map[string]string{"env": "prod", "app": "db"})
	createConfigMap(t, ns, "dev-web", map[string]string{"env": "dev", "app": "web"})

	list := &corev1.ConfigMapList{}
	g.Expect(k8s.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{"env": "prod"})).To(Succeed())
	g.Expect(configMapNames(list)).To(Equal([]string{"prod-db", "prod-web"}))

	g.Expect(k8s.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{"env": "prod", "app": "web"})).To(Succeed())
	g.Expect(configMapNames(list)).To(Equal([]string{"prod-web"}))

	g.Expect(k8s.List(ctx, list, client.InNamespace(ns), client.HasLabels{"app"})).To(Succeed())
	g.Expect(configMapNames(list)).To(Equal([]string{"dev-web", "prod-db", "prod-web"}))

	g.Expect(k8s.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{"env": "qa"})).To(Succeed())
	g.Expect(list.Items).To(BeEmpty())
}

func TestListWithSetBasedLabelSelector(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	createConfigMap(t, ns, "a", map[string]string{"env": "prod", "tier": "1"})
	createConfigMap(t, ns, "b", map[string]string{"env": "staging"})
	createConfigMap(t, ns, "c", map[string]string{"env": "dev", "tier": "2"})
	createConfigMap(t, ns, "d", map[string]string{"env": "prod", "legacy": "true"})
	createConfigMap(t, ns, "e", nil)

	cases := []struct {
		selector string
		want     []string
	}{
		{"env in (prod,staging)", []string{"a", "b", "d"}},
		{"env in (prod,staging),!legacy", []string{"a", "b"}},
		{"env notin (prod)", []string{"b", "c", "e"}},
		{"tier", []string{"a", "c"}},
		{"env!=dev,tier", []string{"a"}},
		{"tier in (1,2),env=dev", []string{"c"}},
	}
	for _, tc := range cases {
		sel, err := labels.Parse(tc.selector)
		g.Expect(err).NotTo(HaveOccurred())
		list := &corev1.ConfigMapList{}
		g.Expect(k8s.List(ctx, list, client.InNamespace(ns), client.MatchingLabelsSelector{Selector: sel})).To(Succeed())
		g.Expect(configMapNames(list)).To(Equal(tc.want), "selector %q", tc.selector)
	}
}

func TestListWithMetadataNameFieldSelector(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	createConfigMap(t, ns, "one", nil)
	createConfigMap(t, ns, "two", nil)

	list := &corev1.ConfigMapList{}
	g.Expect(k8s.List(ctx, list, client.InNamespace(ns), client.MatchingFields{"metadata.name": "two"})).To(Succeed())
	g.Expect(configMapNames(list)).To(Equal([]string{"two"}))

	g.Expect(k8s.List(ctx, list, client.InNamespace(ns), client.MatchingFields{"metadata.name": "three"})).To(Succeed())
	g.Expect(list.Items).To(BeEmpty())
}

func TestListAcrossNamespacesWithMetadataNamespaceFieldSelector(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns1 := newNamespace(t)
	ns2 := newNamespace(t)
	createConfigMap(t, ns1, "shared-name", map[string]string{"suite": "fieldns"})
	createConfigMap(t, ns2, "shared-name", map[string]string{"suite": "fieldns"})
	createConfigMap(t, ns2, "other", map[string]string{"suite": "fieldns"})

	list := &corev1.ConfigMapList{}
	g.Expect(k8s.List(ctx, list, client.MatchingFields{"metadata.namespace": ns2})).To(Succeed())
	g.Expect(configMapNames(list)).To(Equal([]string{"other", "shared-name"}))
	for _, item := range list.Items {
		g.Expect(item.Namespace).To(Equal(ns2))
	}

	g.Expect(k8s.List(ctx, list, client.MatchingLabels{"suite": "fieldns"}, client.MatchingFields{"metadata.name": "shared-name"})).To(Succeed())
	var namespaces []string
	for _, item := range list.Items {
		namespaces = append(namespaces, item.Namespace)
	}
	g.Expect(namespaces).To(ConsistOf(ns1, ns2))
}

func TestListPodsByStatusPhaseAndSpecNodeName(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	mkPod := func(name, node string) *corev1.Pod {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: corev1.PodSpec{
				NodeName:   node,
				Containers: []corev1.Container{{Name: "c", Image: "busybox:1.36"}},
			},
		}
		g.Expect(k8s.Create(ctx, p)).To(Succeed())
		return p
	}
	running := mkPod("running", "node-a")
	mkPod("pending-a", "node-a")
	mkPod("pending-b", "node-b")
	g.Expect(running.Status.Phase).To(Equal(corev1.PodPending))

	running.Status.Phase = corev1.PodRunning
	g.Expect(k8s.Status().Update(ctx, running)).To(Succeed())

	names := func(opts ...client.ListOption) []string {
		list := &corev1.PodList{}
		g.Expect(k8s.List(ctx, list, append(opts, client.InNamespace(ns))...)).To(Succeed())
		out := []string{}
		for _, p := range list.Items {
			out = append(out, p.Name)
		}
		sort.Strings(out)
		return out
	}
	g.Expect(names(client.MatchingFields{"status.phase": "Running"})).To(Equal([]string{"running"}))
	g.Expect(names(client.MatchingFields{"status.phase": "Pending"})).To(Equal([]string{"pending-a", "pending-b"}))
	g.Expect(names(client.MatchingFields{"spec.nodeName": "node-a"})).To(Equal([]string{"pending-a", "running"}))
	g.Expect(names(client.MatchingFields{"spec.nodeName": "node-a", "status.phase": "Pending"})).To(Equal([]string{"pending-a"}))
}

func TestListWithUnsupportedFieldSelectorIsBadRequest(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	err := k8s.List(ctx, &corev1.PodList{}, client.InNamespace(ns), client.MatchingFields{"spec.unknown": "x"})
	g.Expect(apierrors.IsBadRequest(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal("field label not supported: spec.unknown"))
}

func TestListGadgetsBySelectableField(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	for name, color := range map[string]string{"r1": "red", "r2": "red", "b1": "blue", "g1": "green"} {
		g.Expect(k8s.Create(ctx, &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: GadgetSpec{Color: color}})).To(Succeed())
	}

	names := func(opts ...client.ListOption) []string {
		list := &GadgetList{}
		g.Expect(k8s.List(ctx, list, append(opts, client.InNamespace(ns))...)).To(Succeed())
		out := []string{}
		for _, item := range list.Items {
			out = append(out, item.Name)
		}
		sort.Strings(out)
		return out
	}
	g.Expect(names(client.MatchingFields{"spec.color": "red"})).To(Equal([]string{"r1", "r2"}))
	g.Expect(names(client.MatchingFields{"spec.color": "green"})).To(Equal([]string{"g1"}))
	g.Expect(names(client.MatchingFields{"spec.color": "red", "metadata.name": "r2"})).To(Equal([]string{"r2"}))

	// A field the CRD does not declare selectable is refused.
	err := k8s.List(ctx, &GadgetList{}, client.InNamespace(ns), client.MatchingFields{"spec.size": "medium"})
	g.Expect(apierrors.IsBadRequest(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal("field label not supported: spec.size"))
}

func TestListPagingWithLimitAndContinue(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	var want []string
	for i := 0; i < 7; i++ {
		name := fmt.Sprintf("page-%d", i)
		createConfigMap(t, ns, name, map[string]string{"paged": "yes"})
		want = append(want, name)
	}

	all := &corev1.ConfigMapList{}
	g.Expect(k8s.List(ctx, all, client.InNamespace(ns))).To(Succeed())
	total := len(all.Items)
	g.Expect(total).To(BeNumerically(">=", 7))

	// With a label selector: pages of 3, 3 and 1, each but the last with a continue token.
	var got []string
	var pages []int
	cont := ""
	for {
		page := &corev1.ConfigMapList{}
		g.Expect(k8s.List(ctx, page, client.InNamespace(ns), client.MatchingLabels{"paged": "yes"},
			client.Limit(3), client.Continue(cont))).To(Succeed())
		pages = append(pages, len(page.Items))
		for _, item := range page.Items {
			got = append(got, item.Name)
		}
		cont = page.Continue
		if cont == "" {
			break
		}
		g.Expect(len(pages)).To(BeNumerically("<", 5), "paging does not end")
	}
	g.Expect(pages).To(Equal([]int{3, 3, 1}))
	g.Expect(got).To(Equal(want))

	// Without a selector the first page also says how many items remain.
	first := &corev1.ConfigMapList{}
	g.Expect(k8s.List(ctx, first, client.InNamespace(ns), client.Limit(3))).To(Succeed())
	g.Expect(first.Items).To(HaveLen(3))
	g.Expect(first.Continue).NotTo(BeEmpty())
	g.Expect(first.RemainingItemCount).NotTo(BeNil())
	g.Expect(*first.RemainingItemCount).To(Equal(int64(total - 3)))

	// Pages after a write still show the snapshot of the first page's resourceVersion.
	createConfigMap(t, ns, "page-9", map[string]string{"paged": "yes"})
	rest := &corev1.ConfigMapList{}
	g.Expect(k8s.List(ctx, rest, client.InNamespace(ns), client.Continue(first.Continue))).To(Succeed())
	g.Expect(rest.Items).To(HaveLen(total - 3))
	g.Expect(rest.ResourceVersion).To(Equal(first.ResourceVersion))
	for _, item := range rest.Items {
		g.Expect(item.Name).NotTo(Equal("page-9"))
	}
}
