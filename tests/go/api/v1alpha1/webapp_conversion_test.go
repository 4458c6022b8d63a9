// Round trips between the v1alpha1 spoke and the v1 hub, in pure Go (no server).
package v1alpha1

import (
	"testing"

	"github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	ctrlconversion "sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

func hubWebApp() *webappv1.WebApp {
	return &webappv1.WebApp{
		TypeMeta: metav1.TypeMeta{APIVersion: webappv1.GroupVersion.String(), Kind: "WebApp"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "shop", Namespace: "team-a", Generation: 4, ResourceVersion: "17",
			Labels:      map[string]string{"team": "a"},
			Annotations: map[string]string{"note": "kept"},
			Finalizers:  []string{"webapp.kal.example.com/cleanup"},
		},
		Spec: webappv1.WebAppSpec{
			Image:    "registry.example.com:5000/shop/web:1.4.2",
			Replicas: ptr.To[int32](3),
			Config:   map[string]string{"LOG_LEVEL": "debug"},
			Tier:     webappv1.TierBackend,
			Paused:   true,
		},
		Status: webappv1.WebAppStatus{
			ObservedGeneration: 4, ReadyReplicas: 2, Selector: "app=shop",
			Conditions: []metav1.Condition{{
				Type: webappv1.ConditionAvailable, Status: metav1.ConditionFalse, Reason: "ReplicasUnavailable",
				Message: "2 of 3 replicas ready", ObservedGeneration: 4,
				LastTransitionTime: metav1.Unix(1700000000, 0),
			}},
		},
	}
}

func TestHubToSpokeSplitsImageAndKeepsTierInAnnotation(t *testing.T) {
	g := gomega.NewWithT(t)
	spoke := &WebApp{}
	g.Expect(spoke.ConvertFrom(hubWebApp())).To(gomega.Succeed())
	g.Expect(spoke.Spec.ImageName).To(gomega.Equal("registry.example.com:5000/shop/web"))
	g.Expect(spoke.Spec.ImageTag).To(gomega.Equal("1.4.2"))
	g.Expect(spoke.Spec.Replicas).To(gomega.Equal(ptr.To[int32](3)))
	g.Expect(spoke.Spec.Paused).To(gomega.BeTrue())
	g.Expect(spoke.Annotations).To(gomega.Equal(map[string]string{"note": "kept", TierAnnotation: "backend"}))
	g.Expect(spoke.Status.ReadyReplicas).To(gomega.Equal(int32(2)))
	g.Expect(spoke.Status.Conditions).To(gomega.HaveLen(1))
}

func TestHubSpokeHubRoundTripIsLossless(t *testing.T) {
	g := gomega.NewWithT(t)
	for _, image := range []string{
		"nginx",
		"nginx:1.27",
		"registry.example.com:5000/shop/web",
		"registry.example.com:5000/shop/web:1.4.2",
		"ghcr.io/org/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	} {
		for _, tier := range []string{"", webappv1.TierFrontend, webappv1.TierBackend} {
			in := hubWebApp()
			in.Spec.Image = image
			in.Spec.Tier = tier
			spoke := &WebApp{}
			g.Expect(spoke.ConvertFrom(in.DeepCopy())).To(gomega.Succeed())
			out := &webappv1.WebApp{TypeMeta: in.TypeMeta}
			g.Expect(spoke.ConvertTo(out)).To(gomega.Succeed())
			g.Expect(out).To(gomega.Equal(in), "image %q tier %q", image, tier)
		}
	}
}

func TestSpokeHubSpokeRoundTripIsLossless(t *testing.T) {
	g := gomega.NewWithT(t)
	in := &WebApp{
		TypeMeta:   metav1.TypeMeta{APIVersion: GroupVersion.String(), Kind: "WebApp"},
		ObjectMeta: metav1.ObjectMeta{Name: "blog", Namespace: "default"},
		Spec: WebAppSpec{
			ImageName: "docker.io/library/ghost", ImageTag: "5", Replicas: ptr.To[int32](0),
			Config: map[string]string{"url": "https://blog.example.com"},
		},
	}
	hub := &webappv1.WebApp{}
	g.Expect(in.DeepCopy().ConvertTo(hub)).To(gomega.Succeed())
	g.Expect(hub.Spec.Image).To(gomega.Equal("docker.io/library/ghost:5"))
	g.Expect(hub.Spec.Tier).To(gomega.BeEmpty())
	g.Expect(hub.Annotations).To(gomega.BeNil())

	out := &WebApp{TypeMeta: in.TypeMeta}
	g.Expect(out.ConvertFrom(hub)).To(gomega.Succeed())
	g.Expect(out).To(gomega.Equal(in))
}

func TestSpokeTierAnnotationBecomesHubTierAndIsRemoved(t *testing.T) {
	g := gomega.NewWithT(t)
	in := &WebApp{
		ObjectMeta: metav1.ObjectMeta{Name: "api", Annotations: map[string]string{TierAnnotation: "backend"}},
		Spec:       WebAppSpec{ImageName: "api", ImageTag: "2"},
	}
	hub := &webappv1.WebApp{}
	g.Expect(in.ConvertTo(hub)).To(gomega.Succeed())
	g.Expect(hub.Spec.Tier).To(gomega.Equal(webappv1.TierBackend))
	g.Expect(hub.Annotations).To(gomega.BeNil())
	// The source keeps its annotation: conversion does not write through to its input.
	g.Expect(in.Annotations).To(gomega.HaveKeyWithValue(TierAnnotation, "backend"))
}

func TestConversionRejectsForeignHub(t *testing.T) {
	g := gomega.NewWithT(t)
	var notV1 conversion.Hub = &otherHub{}
	g.Expect((&WebApp{}).ConvertTo(notV1)).To(gomega.MatchError(gomega.ContainSubstring("converts to *v1.WebApp")))
	g.Expect((&WebApp{}).ConvertFrom(notV1)).To(gomega.MatchError(gomega.ContainSubstring("converts from *v1.WebApp")))
}

func TestSchemeSeesHubAndSpokeAsConvertible(t *testing.T) {
	g := gomega.NewWithT(t)
	s := runtime.NewScheme()
	g.Expect(webappv1.AddToScheme(s)).To(gomega.Succeed())
	g.Expect(AddToScheme(s)).To(gomega.Succeed())
	ok, err := ctrlconversion.IsConvertible(s, &webappv1.WebApp{})
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(ok).To(gomega.BeTrue())

	// With the hub alone the kind is single-version: nothing to convert (what the envtest suites rely on to
	// keep the CRD's conversion strategy None).
	hubOnly := runtime.NewScheme()
	g.Expect(webappv1.AddToScheme(hubOnly)).To(gomega.Succeed())
	ok, err = ctrlconversion.IsConvertible(hubOnly, &webappv1.WebApp{})
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(ok).To(gomega.BeFalse())
}

func TestSplitAndJoinImage(t *testing.T) {
	g := gomega.NewWithT(t)
	cases := []struct{ image, name, tag string }{
		{"nginx", "nginx", ""},
		{"nginx:1.27", "nginx", "1.27"},
		{"localhost:5000/app", "localhost:5000/app", ""},
		{"localhost:5000/app:v2", "localhost:5000/app", "v2"},
		{"app@sha256:abc", "app@sha256:abc", ""},
	}
	for _, c := range cases {
		name, tag := SplitImage(c.image)
		g.Expect([]string{name, tag}).To(gomega.Equal([]string{c.name, c.tag}), c.image)
		g.Expect(JoinImage(name, tag)).To(gomega.Equal(c.image))
	}
}

// otherHub is a hub of some other kind, which a WebApp must refuse to convert through.
type otherHub struct{ webappv1.WebApp }

func (*otherHub) Hub() {}
