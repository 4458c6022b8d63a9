// Patch types through controller-runtime's client: JSON merge patch (client.MergeFrom and raw),
// JSON patch (RFC 6902) with a failing test operation, strategic merge patch on built-in kinds
// (containers merged by name, $patch directives), and strategic merge refused for custom resources.
package client_test

import (
	"testing"

	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestMergePatchSetsAndRemovesKeys(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mp"}, Data: map[string]string{"keep": "1", "drop": "2"}}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())

	orig := cm.DeepCopy()
	delete(cm.Data, "drop")
	cm.Data["add"] = "3"
	g.Expect(k8s.Patch(ctx, cm, client.MergeFrom(orig))).To(Succeed())
	g.Expect(cm.Data).To(Equal(map[string]string{"keep": "1", "add": "3"}))

	raw := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"via":"raw"}},"data":{"keep":null}}`))
	g.Expect(k8s.Patch(ctx, cm, raw)).To(Succeed())
	g.Expect(cm.Data).To(Equal(map[string]string{"add": "3"}))
	g.Expect(cm.Labels).To(Equal(map[string]string{"via": "raw"}))

	// Merge patch of a custom resource replaces its lists whole.
	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mp"}, Spec: GadgetSpec{Color: "red", Tags: []string{"a", "b"}}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())
	g.Expect(k8s.Patch(ctx, gd, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"tags":["c"],"color":"green"}}`)))).To(Succeed())
	g.Expect(gd.Spec.Tags).To(Equal([]string{"c"}))
	g.Expect(gd.Spec.Color).To(Equal("green"))
	g.Expect(gd.Generation).To(Equal(int64(2)))
}

func TestJSONPatchOperations(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "jp"}, Data: map[string]string{"a": "1", "b": "2"}}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())

	patch := client.RawPatch(types.JSONPatchType, []byte(`[
		{"op":"test","path":"/data/a","value":"1"},
		{"op":"replace","path":"/data/a","value":"10"},
		{"op":"remove","path":"/data/b"},
		{"op":"add","path":"/data/c","value":"3"},
		{"op":"add","path":"/metadata/labels","value":{"json":"patch"}}
	]`))
	g.Expect(k8s.Patch(ctx, cm, patch)).To(Succeed())
	g.Expect(cm.Data).To(Equal(map[string]string{"a": "10", "c": "3"}))
	g.Expect(cm.Labels).To(Equal(map[string]string{"json": "patch"}))

	// A failing test operation changes nothing.
	rv := cm.ResourceVersion
	failing := client.RawPatch(types.JSONPatchType, []byte(`[
		{"op":"test","path":"/data/a","value":"1"},
		{"op":"replace","path":"/data/a","value":"never"}
	]`))
	err := k8s.Patch(ctx, cm, failing)
	g.Expect(err).To(HaveOccurred())
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	got := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(cm), got)).To(Succeed())
	g.Expect(got.ResourceVersion).To(Equal(rv))
	g.Expect(got.Data["a"]).To(Equal("10"))

	// JSON patch on a custom resource, including an index into a list.
	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "jp"}, Spec: GadgetSpec{Color: "red", Tags: []string{"a", "b"}}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())
	g.Expect(k8s.Patch(ctx, gd, client.RawPatch(types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/tags/1","value":"z"},{"op":"replace","path":"/spec/replicas","value":7}]`)))).To(Succeed())
	g.Expect(gd.Spec.Tags).To(Equal([]string{"a", "z"}))
	g.Expect(*gd.Spec.Replicas).To(Equal(int32(7)))
}

func TestStrategicMergePatchMergesContainersByName(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	d := newDeployment(ns, "smp", 1)
	d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers,
		corev1.Container{Name: "sidecar", Image: "busybox:1.36", Env: []corev1.EnvVar{{Name: "A", Value: "1"}}})
	g.Expect(k8s.Create(ctx, d)).To(Succeed())

	// client.StrategicMergeFrom computes a patch naming the changed container only.
	orig := d.DeepCopy()
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	g.Expect(k8s.Patch(ctx, d, client.StrategicMergeFrom(orig))).To(Succeed())
	g.Expect(d.Spec.Template.Spec.Containers).To(HaveLen(2))
	g.Expect(d.Spec.Template.Spec.Containers[0].Image).To(Equal("nginx:1.28"))
	g.Expect(d.Spec.Template.Spec.Containers[1].Image).To(Equal("busybox:1.36"))

	// A raw strategic merge patch: a new env var merged by name, a container deleted by $patch.
	raw := client.RawPatch(types.StrategicMergePatchType, []byte(`{"spec":{"template":{"spec":{"containers":[
		{"name":"web","env":[{"name":"B","value":"2"}]},
		{"name":"sidecar","$patch":"delete"}
	]}}}}`))
	g.Expect(k8s.Patch(ctx, d, raw)).To(Succeed())

	got := &appsv1.Deployment{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(d), got)).To(Succeed())
	g.Expect(got.Spec.Template.Spec.Containers).To(HaveLen(1))
	web := got.Spec.Template.Spec.Containers[0]
	g.Expect(web.Name).To(Equal("web"))
	g.Expect(web.Image).To(Equal("nginx:1.28"))
	g.Expect(web.Env).To(Equal([]corev1.EnvVar{{Name: "B", Value: "2"}}))

	// The same patch as a JSON merge patch would replace the whole list instead.
	merge := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"only","image":"busybox:1.36"}]}}}}`))
	g.Expect(k8s.Patch(ctx, got, merge)).To(Succeed())
	g.Expect(got.Spec.Template.Spec.Containers).To(HaveLen(1))
	g.Expect(got.Spec.Template.Spec.Containers[0].Name).To(Equal("only"))
	g.Expect(got.Spec.Template.Spec.Containers[0].Image).To(Equal("busybox:1.36"))
}

func TestStrategicMergePatchOfCustomResourceIsUnsupported(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	gd := &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "nosmp"}, Spec: GadgetSpec{Color: "red"}}
	g.Expect(k8s.Create(ctx, gd)).To(Succeed())
	err := k8s.Patch(ctx, gd, client.RawPatch(types.StrategicMergePatchType, []byte(`{"spec":{"color":"blue"}}`)))
	g.Expect(apierrors.IsUnsupportedMediaType(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(HavePrefix("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"))
}
