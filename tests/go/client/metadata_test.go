// Metadata-only access (PartialObjectMetadata) through controller-runtime's client: Get, List and
// Patch of built-in objects and custom resources without their bodies.
package client_test

import (
	"strings"
	"testing"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func partialMetadata(gvk schema.GroupVersionKind) *metav1.PartialObjectMetadata {
	p := &metav1.PartialObjectMetadata{}
	p.SetGroupVersionKind(gvk)
	return p
}

func TestMetadataOnlyGetListPatchConfigMaps(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	c, rec := recordingClient(t)

	for _, name := range []string{"m1", "m2"} {
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"set": "meta"}},
			Data:       map[string]string{"big": "value"},
		}
		g.Expect(k8s.Create(ctx, cm)).To(Succeed())
	}

	cmGVK := corev1.SchemeGroupVersion.WithKind("ConfigMap")
	p := partialMetadata(cmGVK)
	g.Expect(c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "m1"}, p)).To(Succeed())
	g.Expect(p.Name).To(Equal("m1"))
	g.Expect(p.Labels).To(Equal(map[string]string{"set": "meta"}))
	g.Expect(p.UID).NotTo(BeEmpty())
	g.Expect(p.ResourceVersion).NotTo(BeEmpty())

	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMapList"))
	g.Expect(c.List(ctx, list, client.InNamespace(ns), client.MatchingLabels{"set": "meta"})).To(Succeed())
	g.Expect(list.Items).To(HaveLen(2))
	for _, item := range list.Items {
		g.Expect(item.Namespace).To(Equal(ns))
		g.Expect(item.Labels).To(Equal(map[string]string{"set": "meta"}))
	}

	orig := p.DeepCopy()
	p.Annotations = map[string]string{"patched": "by-metadata"}
	g.Expect(c.Patch(ctx, p, client.MergeFrom(orig))).To(Succeed())
	g.Expect(p.Annotations).To(HaveKeyWithValue("patched", "by-metadata"))

	full := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "m1"}, full)).To(Succeed())
	g.Expect(full.Annotations).To(HaveKeyWithValue("patched", "by-metadata"))
	g.Expect(full.Data).To(Equal(map[string]string{"big": "value"}))

	// The metadata client prefers PartialObjectMetadata(List) in protobuf, which kube serves for
	// built-in resources.
	var asked int
	for _, r := range rec.All() {
		if r.Method == "GET" && strings.Contains(r.URL, "/configmaps") {
			asked++
			g.Expect(r.Accept).To(HavePrefix("application/vnd.kubernetes.protobuf;as=PartialObjectMetadata"), "request %s", r.URL)
			g.Expect(r.ResponseContentType).To(HavePrefix("application/vnd.kubernetes.protobuf"), "request %s", r.URL)
		}
	}
	g.Expect(asked).To(Equal(2))
}

func TestMetadataOnlyGetListPatchCustomResources(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	for _, name := range []string{"a", "b", "c"} {
		g.Expect(k8s.Create(ctx, &Gadget{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"name": name}},
			Spec:       GadgetSpec{Color: "red"},
		})).To(Succeed())
	}

	p := partialMetadata(gadgetGV.WithKind("Gadget"))
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "b"}, p)).To(Succeed())
	g.Expect(p.Labels).To(Equal(map[string]string{"name": "b"}))
	g.Expect(p.Generation).To(Equal(int64(1)))

	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(gadgetGV.WithKind("GadgetList"))
	g.Expect(k8s.List(ctx, list, client.InNamespace(ns))).To(Succeed())
	var names []string
	for _, item := range list.Items {
		names = append(names, item.Name)
	}
	g.Expect(names).To(Equal([]string{"a", "b", "c"}))

	orig := p.DeepCopy()
	p.Labels["extra"] = "yes"
	g.Expect(k8s.Patch(ctx, p, client.MergeFrom(orig))).To(Succeed())

	full := &Gadget{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "b"}, full)).To(Succeed())
	g.Expect(full.Labels).To(Equal(map[string]string{"name": "b", "extra": "yes"}))
	g.Expect(full.Spec.Color).To(Equal("red"))
	g.Expect(full.Generation).To(Equal(int64(1)))
}
