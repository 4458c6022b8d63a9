// Unit tests of the desired-state functions (no server): children, config hash and status conditions.
package controller

import (
	"testing"

	"github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

func newApp() *webappv1.WebApp {
	return &webappv1.WebApp{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: "ns", Generation: 3},
		Spec: webappv1.WebAppSpec{
			Image: "nginx:1.27", Replicas: ptr.To[int32](2), Config: map[string]string{"A": "1"},
		},
	}
}

func TestMutateDeploymentSetsWantedFieldsAndKeepsDefaults(t *testing.T) {
	g := gomega.NewWithT(t)
	app := newApp()
	dep := &appsv1.Deployment{}
	MutateDeployment(dep, app, "h1")
	g.Expect(*dep.Spec.Replicas).To(gomega.Equal(int32(2)))
	g.Expect(dep.Spec.Selector.MatchLabels).To(gomega.Equal(map[string]string{"app": "shop"}))
	g.Expect(dep.Spec.Template.Labels).To(gomega.Equal(map[string]string{"app": "shop"}))
	g.Expect(dep.Spec.Template.Annotations).To(gomega.HaveKeyWithValue(ConfigHashAnnotation, "h1"))
	g.Expect(dep.Spec.Template.Spec.Containers).To(gomega.HaveLen(1))
	c := dep.Spec.Template.Spec.Containers[0]
	g.Expect(c.Name).To(gomega.Equal(ContainerName))
	g.Expect(c.Image).To(gomega.Equal("nginx:1.27"))
	g.Expect(c.EnvFrom[0].ConfigMapRef.Name).To(gomega.Equal("shop-config"))

	// Fields a server defaulted survive a second pass, and the container is not duplicated.
	dep.Spec.Template.Spec.Containers[0].ImagePullPolicy = corev1.PullIfNotPresent
	dep.Spec.Template.Spec.Containers[0].TerminationMessagePath = "/dev/termination-log"
	before := dep.DeepCopy()
	MutateDeployment(dep, app, "h1")
	g.Expect(dep).To(gomega.Equal(before))

	app.Spec.Image, app.Spec.Paused, app.Spec.Replicas = "nginx:1.28", true, nil
	MutateDeployment(dep, app, "h2")
	g.Expect(dep.Spec.Template.Spec.Containers).To(gomega.HaveLen(1))
	g.Expect(dep.Spec.Template.Spec.Containers[0].Image).To(gomega.Equal("nginx:1.28"))
	g.Expect(dep.Spec.Template.Spec.Containers[0].ImagePullPolicy).To(gomega.Equal(corev1.PullIfNotPresent))
	g.Expect(dep.Spec.Paused).To(gomega.BeTrue())
	g.Expect(*dep.Spec.Replicas).To(gomega.Equal(int32(1)))
	g.Expect(dep.Spec.Template.Annotations).To(gomega.HaveKeyWithValue(ConfigHashAnnotation, "h2"))
}

func TestMutateConfigMapCopiesConfig(t *testing.T) {
	g := gomega.NewWithT(t)
	app := newApp()
	cm := &corev1.ConfigMap{Data: map[string]string{"stale": "x"}}
	MutateConfigMap(cm, app)
	g.Expect(cm.Data).To(gomega.Equal(map[string]string{"A": "1"}))
	g.Expect(cm.Labels).To(gomega.HaveKeyWithValue("app", "shop"))
	app.Spec.Config = nil
	MutateConfigMap(cm, app)
	g.Expect(cm.Data).To(gomega.BeNil())
}

func TestConfigHashIsStableAndUnambiguous(t *testing.T) {
	g := gomega.NewWithT(t)
	a := ConfigHash(map[string]string{"x": "1", "y": "2"})
	g.Expect(ConfigHash(map[string]string{"y": "2", "x": "1"})).To(gomega.Equal(a))
	g.Expect(ConfigHash(map[string]string{"x": "12"})).NotTo(gomega.Equal(ConfigHash(map[string]string{"x1": "2"})))
	g.Expect(ConfigHash(nil)).To(gomega.Equal(ConfigHash(map[string]string{})))
}

func TestComputeStatusConditions(t *testing.T) {
	g := gomega.NewWithT(t)
	app := newApp()
	dep := &appsv1.Deployment{}

	st := ComputeStatus(app, dep)
	g.Expect(st.ObservedGeneration).To(gomega.Equal(int64(3)))
	g.Expect(st.Selector).To(gomega.Equal("app=shop"))
	g.Expect(meta.IsStatusConditionFalse(st.Conditions, webappv1.ConditionAvailable)).To(gomega.BeTrue())
	g.Expect(meta.FindStatusCondition(st.Conditions, webappv1.ConditionProgressing).Reason).To(gomega.Equal("RollingOut"))

	app.Status = st
	dep.Status = appsv1.DeploymentStatus{ReadyReplicas: 2, UpdatedReplicas: 2}
	st = ComputeStatus(app, dep)
	g.Expect(st.ReadyReplicas).To(gomega.Equal(int32(2)))
	avail := meta.FindStatusCondition(st.Conditions, webappv1.ConditionAvailable)
	g.Expect(avail.Status).To(gomega.Equal(metav1.ConditionTrue))
	g.Expect(avail.Message).To(gomega.Equal("2 of 2 replicas ready"))
	g.Expect(meta.FindStatusCondition(st.Conditions, webappv1.ConditionProgressing).Reason).To(gomega.Equal("RolloutComplete"))

	// Recomputing an unchanged state changes nothing (no status write, no reconcile loop).
	app.Status = st
	g.Expect(ComputeStatus(app, dep)).To(gomega.Equal(st))

	app.Spec.Paused = true
	st = ComputeStatus(app, dep)
	p := meta.FindStatusCondition(st.Conditions, webappv1.ConditionProgressing)
	g.Expect(p.Status).To(gomega.Equal(metav1.ConditionFalse))
	g.Expect(p.Reason).To(gomega.Equal("Paused"))
}
