// Tests of the generated deepcopy functions and of the scheme registration of the v1 types.
package v1

import (
	"testing"

	"github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestDeepCopyIsIndependentOfTheOriginal(t *testing.T) {
	g := gomega.NewWithT(t)
	replicas := int32(2)
	in := &WebApp{
		ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"k": "v"}},
		Spec:       WebAppSpec{Image: "nginx", Replicas: &replicas, Config: map[string]string{"x": "1"}},
		Status:     WebAppStatus{Conditions: []metav1.Condition{{Type: ConditionAvailable, Status: metav1.ConditionTrue}}},
	}
	out := in.DeepCopy()
	g.Expect(out).To(gomega.Equal(in))
	*out.Spec.Replicas = 5
	out.Spec.Config["x"] = "2"
	out.Labels["k"] = "w"
	out.Status.Conditions[0].Status = metav1.ConditionFalse
	g.Expect(*in.Spec.Replicas).To(gomega.Equal(int32(2)))
	g.Expect(in.Spec.Config["x"]).To(gomega.Equal("1"))
	g.Expect(in.Labels["k"]).To(gomega.Equal("v"))
	g.Expect(in.Status.Conditions[0].Status).To(gomega.Equal(metav1.ConditionTrue))

	list := &WebAppList{Items: []WebApp{*in}}
	g.Expect(list.DeepCopyObject()).To(gomega.Equal(list))
}

func TestAddToSchemeRegistersKindAndList(t *testing.T) {
	g := gomega.NewWithT(t)
	s := runtime.NewScheme()
	g.Expect(AddToScheme(s)).To(gomega.Succeed())
	gvks, _, err := s.ObjectKinds(&WebApp{})
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(gvks).To(gomega.ConsistOf(GroupVersion.WithKind("WebApp")))
	g.Expect(s.Recognizes(GroupVersion.WithKind("WebAppList"))).To(gomega.BeTrue())
}
