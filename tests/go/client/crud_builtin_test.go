// Create/get/update/delete of built-in kinds through controller-runtime's typed client, which sends
// protobuf bodies for them: ConfigMap, Secret, Service, Deployment and Namespace, with the defaults
// and system fields kube-apiserver fills in.
package client_test

import (
	"net"
	"strings"
	"testing"

	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func newDeployment(ns, name string, replicas int32) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: int32p(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:  "web",
					Image: "nginx:1.27",
				}}},
			},
		},
	}
}

func TestConfigMapCreateGetUpdateDelete(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "settings", Labels: map[string]string{"tier": "web"}},
		Data:       map[string]string{"mode": "fast"},
		BinaryData: map[string][]byte{"blob": {0, 1, 2, 255}},
	}
	g.Expect(k8s.Create(ctx, cm)).To(Succeed())
	g.Expect(cm.UID).NotTo(BeEmpty())
	g.Expect(cm.ResourceVersion).NotTo(BeEmpty())
	g.Expect(cm.CreationTimestamp.IsZero()).To(BeFalse())
	g.Expect(cm.ManagedFields).NotTo(BeEmpty())

	got := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(cm), got)).To(Succeed())
	g.Expect(got.Data).To(Equal(map[string]string{"mode": "fast"}))
	g.Expect(got.BinaryData).To(Equal(map[string][]byte{"blob": {0, 1, 2, 255}}))
	g.Expect(got.UID).To(Equal(cm.UID))
	g.Expect(got.Labels).To(HaveKeyWithValue("tier", "web"))

	got.Data["mode"] = "safe"
	got.Data["extra"] = "1"
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(got.ResourceVersion).NotTo(Equal(cm.ResourceVersion))

	again := &corev1.ConfigMap{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(cm), again)).To(Succeed())
	g.Expect(again.Data).To(Equal(map[string]string{"mode": "safe", "extra": "1"}))
	g.Expect(again.ResourceVersion).To(Equal(got.ResourceVersion))

	g.Expect(k8s.Delete(ctx, again)).To(Succeed())
	err := k8s.Get(ctx, client.ObjectKeyFromObject(cm), &corev1.ConfigMap{})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "get after delete: %v", err)
}

func TestSecretStringDataIsMergedIntoData(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "creds"},
		Data:       map[string][]byte{"user": []byte("admin")},
		StringData: map[string]string{"password": "s3cr3t"},
	}
	g.Expect(k8s.Create(ctx, s)).To(Succeed())

	got := &corev1.Secret{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(s), got)).To(Succeed())
	g.Expect(got.Type).To(Equal(corev1.SecretTypeOpaque))
	g.Expect(got.StringData).To(BeEmpty())
	g.Expect(got.Data).To(Equal(map[string][]byte{"user": []byte("admin"), "password": []byte("s3cr3t")}))

	got.Data["user"] = []byte("root")
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(s), got)).To(Succeed())
	g.Expect(string(got.Data["user"])).To(Equal("root"))

	g.Expect(k8s.Delete(ctx, got)).To(Succeed())
	g.Expect(apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKeyFromObject(s), &corev1.Secret{}))).To(BeTrue())
}

func TestServiceGetsClusterIPAndDefaults(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "web"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80}},
		},
	}
	g.Expect(k8s.Create(ctx, svc)).To(Succeed())

	got := &corev1.Service{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(svc), got)).To(Succeed())
	g.Expect(got.Spec.Type).To(Equal(corev1.ServiceTypeClusterIP))
	g.Expect(got.Spec.SessionAffinity).To(Equal(corev1.ServiceAffinityNone))
	// envtest starts the server with --service-cluster-ip-range=10.0.0.0/24.
	_, ipRange, _ := net.ParseCIDR("10.0.0.0/24")
	ip := net.ParseIP(got.Spec.ClusterIP)
	g.Expect(ip).NotTo(BeNil(), "clusterIP %q", got.Spec.ClusterIP)
	g.Expect(ipRange.Contains(ip)).To(BeTrue(), "clusterIP %s outside 10.0.0.0/24", ip)
	g.Expect(got.Spec.ClusterIPs).To(Equal([]string{got.Spec.ClusterIP}))
	g.Expect(got.Spec.IPFamilies).To(Equal([]corev1.IPFamily{corev1.IPv4Protocol}))
	g.Expect(got.Spec.IPFamilyPolicy).NotTo(BeNil())
	g.Expect(*got.Spec.IPFamilyPolicy).To(Equal(corev1.IPFamilyPolicySingleStack))
	g.Expect(got.Spec.Ports).To(HaveLen(1))
	g.Expect(got.Spec.Ports[0].Protocol).To(Equal(corev1.ProtocolTCP))
	g.Expect(got.Spec.Ports[0].TargetPort).To(Equal(intstr.FromInt32(80)))

	got.Spec.Ports = append(got.Spec.Ports, corev1.ServicePort{Name: "https", Port: 443})
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(got.Spec.Ports).To(HaveLen(2))
	g.Expect(got.Spec.ClusterIP).To(Equal(ip.String()))

	g.Expect(k8s.Delete(ctx, got)).To(Succeed())
}

func TestDeploymentCreateGetsDefaultsAndGeneration(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	d := newDeployment(ns, "web", 2)
	g.Expect(k8s.Create(ctx, d)).To(Succeed())
	g.Expect(d.Generation).To(Equal(int64(1)))

	got := &appsv1.Deployment{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(d), got)).To(Succeed())
	g.Expect(got.Spec.Strategy.Type).To(Equal(appsv1.RollingUpdateDeploymentStrategyType))
	g.Expect(got.Spec.Strategy.RollingUpdate).NotTo(BeNil())
	g.Expect(*got.Spec.Strategy.RollingUpdate.MaxSurge).To(Equal(intstr.FromString("25%")))
	g.Expect(*got.Spec.Strategy.RollingUpdate.MaxUnavailable).To(Equal(intstr.FromString("25%")))
	g.Expect(*got.Spec.RevisionHistoryLimit).To(Equal(int32(10)))
	g.Expect(*got.Spec.ProgressDeadlineSeconds).To(Equal(int32(600)))
	pod := got.Spec.Template.Spec
	g.Expect(pod.RestartPolicy).To(Equal(corev1.RestartPolicyAlways))
	g.Expect(pod.DNSPolicy).To(Equal(corev1.DNSClusterFirst))
	g.Expect(pod.SchedulerName).To(Equal("default-scheduler"))
	g.Expect(*pod.TerminationGracePeriodSeconds).To(Equal(int64(30)))
	g.Expect(pod.Containers[0].ImagePullPolicy).To(Equal(corev1.PullIfNotPresent))
	g.Expect(pod.Containers[0].TerminationMessagePath).To(Equal("/dev/termination-log"))
	g.Expect(pod.Containers[0].TerminationMessagePolicy).To(Equal(corev1.TerminationMessageReadFile))

	// A spec change bumps the generation; a label change does not.
	got.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(got.Generation).To(Equal(int64(2)))
	got.Labels["extra"] = "yes"
	g.Expect(k8s.Update(ctx, got)).To(Succeed())
	g.Expect(got.Generation).To(Equal(int64(2)))

	g.Expect(k8s.Delete(ctx, got)).To(Succeed())
	g.Expect(apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKeyFromObject(d), &appsv1.Deployment{}))).To(BeTrue())
}

func TestNamespaceCreateAndDelete(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)

	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "client-ns-"}}
	g.Expect(k8s.Create(ctx, ns)).To(Succeed())
	g.Expect(ns.Name).To(HavePrefix("client-ns-"))
	g.Expect(len(ns.Name)).To(Equal(len("client-ns-") + 5))

	got := &corev1.Namespace{}
	g.Expect(k8s.Get(ctx, client.ObjectKey{Name: ns.Name}, got)).To(Succeed())
	g.Expect(got.Status.Phase).To(Equal(corev1.NamespaceActive))
	g.Expect(got.Spec.Finalizers).To(Equal([]corev1.FinalizerName{corev1.FinalizerKubernetes}))
	g.Expect(got.Labels).To(HaveKeyWithValue("kubernetes.io/metadata.name", ns.Name))

	g.Expect(k8s.Delete(ctx, got)).To(Succeed())
	// Without kube-controller-manager a namespace stays Terminating; with a namespace controller
	// it goes away. Either way it is no longer Active and carries a deletion timestamp.
	after := &corev1.Namespace{}
	err := k8s.Get(ctx, client.ObjectKey{Name: ns.Name}, after)
	if err == nil {
		g.Expect(after.DeletionTimestamp).NotTo(BeNil())
		g.Expect(after.Status.Phase).To(Equal(corev1.NamespaceTerminating))
	} else {
		g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "get after delete: %v", err)
	}
}

func TestBuiltinWritesSendProtobufBodies(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	c, rec := recordingClient(t)

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "proto"}, Data: map[string]string{"a": "b"}}
	g.Expect(c.Create(ctx, cm)).To(Succeed())
	cm.Data["a"] = "c"
	g.Expect(c.Update(ctx, cm)).To(Succeed())
	d := newDeployment(ns, "proto", 1)
	g.Expect(c.Create(ctx, d)).To(Succeed())
	got := &appsv1.Deployment{}
	g.Expect(c.Get(ctx, client.ObjectKeyFromObject(d), got)).To(Succeed())
	g.Expect(got.Spec.Template.Spec.Containers[0].Image).To(Equal("nginx:1.27"))

	var writes int
	for _, r := range rec.All() {
		if r.Method != "POST" && r.Method != "PUT" {
			continue
		}
		writes++
		g.Expect(r.ContentType).To(Equal("application/vnd.kubernetes.protobuf"), "request %s %s", r.Method, r.URL)
		g.Expect(r.Accept).To(HavePrefix("application/vnd.kubernetes.protobuf"), "request %s %s", r.Method, r.URL)
		g.Expect(r.Status).To(BeNumerically("<", 300), "request %s %s", r.Method, r.URL)
	}
	g.Expect(writes).To(Equal(3))
	var protobufAnswers int
	for _, r := range rec.All() {
		if strings.HasPrefix(r.ResponseContentType, "application/vnd.kubernetes.protobuf") {
			protobufAnswers++
		}
	}
	g.Expect(protobufAnswers).To(BeNumerically(">=", 4), "answers: %+v", rec.All())
}
