// API errors through controller-runtime's client, with kube's reasons, messages and causes:
// NotFound, AlreadyExists, a namespace that does not exist, and Invalid from built-in validation
// (ConfigMap keys, names, Deployments) and from a CRD's schema (enum, maximum, required).
package client_test

import (
	"testing"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestGetMissingObjectIsNotFound(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	err := k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "missing"}, &corev1.ConfigMap{})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`configmaps "missing" not found`))
	status := statusOf(t, err)
	g.Expect(status.Code).To(Equal(int32(404)))
	g.Expect(status.Details.Name).To(Equal("missing"))
	g.Expect(status.Details.Kind).To(Equal("configmaps"))

	err = k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "missing"}, &Gadget{})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`gadgets.tests.kal.example.com "missing" not found`))
	g.Expect(statusOf(t, err).Details.Group).To(Equal("tests.kal.example.com"))

	err = k8s.Delete(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "missing"}})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`secrets "missing" not found`))
}

func TestCreateExistingObjectIsAlreadyExists(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	g.Expect(k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dup"}})).To(Succeed())
	err := k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dup"}})
	g.Expect(apierrors.IsAlreadyExists(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`configmaps "dup" already exists`))
	g.Expect(statusOf(t, err).Code).To(Equal(int32(409)))

	g.Expect(k8s.Create(ctx, &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dup"}, Spec: GadgetSpec{Color: "red"}})).To(Succeed())
	err = k8s.Create(ctx, &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dup"}, Spec: GadgetSpec{Color: "red"}})
	g.Expect(apierrors.IsAlreadyExists(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`gadgets.tests.kal.example.com "dup" already exists`))
}

func TestCreateInMissingNamespaceIsNotFound(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)

	err := k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "no-such-namespace", Name: "x"}})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`namespaces "no-such-namespace" not found`))
}

func TestCreateInvalidConfigMapReportsCauses(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	err := k8s.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bad"},
		Data:       map[string]string{"bad key": "v"},
	})
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`ConfigMap "bad" is invalid: data[bad key]: Invalid value: "bad key": ` +
		`a valid config key must consist of alphanumeric characters, '-', '_' or '.' ` +
		`(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`))
	status := statusOf(t, err)
	g.Expect(status.Code).To(Equal(int32(422)))
	g.Expect(status.Details.Kind).To(Equal("ConfigMap"))
	g.Expect(status.Details.Name).To(Equal("bad"))
	g.Expect(status.Details.Causes).To(HaveLen(1))
	g.Expect(status.Details.Causes[0].Type).To(Equal(metav1.CauseTypeFieldValueInvalid))
	g.Expect(status.Details.Causes[0].Field).To(Equal("data[bad key]"))

	err = k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "Bad_Name"}})
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	causes := statusOf(t, err).Details.Causes
	g.Expect(causes).To(HaveLen(1))
	g.Expect(causes[0].Type).To(Equal(metav1.CauseTypeFieldValueInvalid))
	g.Expect(causes[0].Field).To(Equal("metadata.name"))
	g.Expect(causes[0].Message).To(HavePrefix(`Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of`))
}

func TestCreateInvalidDeploymentReportsCauses(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	d := newDeployment(ns, "bad", 1)
	d.Spec.Replicas = int32p(-1)
	d.Spec.Template.Labels = map[string]string{"app": "other"}
	err := k8s.Create(ctx, d)
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	status := statusOf(t, err)
	g.Expect(status.Details.Kind).To(Equal("Deployment"))
	g.Expect(status.Details.Group).To(Equal("apps"))
	fields := map[string]metav1.StatusCause{}
	for _, c := range status.Details.Causes {
		fields[c.Field] = c
	}
	g.Expect(fields).To(HaveKey("spec.replicas"))
	g.Expect(fields["spec.replicas"].Type).To(Equal(metav1.CauseTypeFieldValueInvalid))
	g.Expect(fields["spec.replicas"].Message).To(Equal("Invalid value: -1: must be greater than or equal to 0"))
	g.Expect(fields).To(HaveKey("spec.template.metadata.labels"))
	g.Expect(fields["spec.template.metadata.labels"].Message).To(HaveSuffix("`selector` does not match template `labels`"))
}

func TestCreateGadgetViolatingSchemaReportsCauses(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	err := k8s.Create(ctx, &Gadget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bad"},
		Spec:       GadgetSpec{Color: "purple", Replicas: int32p(99)},
	})
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(HavePrefix(`Gadget.tests.kal.example.com "bad" is invalid: `))
	status := statusOf(t, err)
	g.Expect(status.Details.Kind).To(Equal("Gadget"))
	g.Expect(status.Details.Group).To(Equal("tests.kal.example.com"))
	g.Expect(status.Details.Causes).To(ConsistOf(
		metav1.StatusCause{
			Type:    metav1.CauseTypeFieldValueNotSupported,
			Field:   "spec.color",
			Message: `Unsupported value: "purple": supported values: "red", "green", "blue"`,
		},
		metav1.StatusCause{
			Type:    metav1.CauseTypeFieldValueInvalid,
			Field:   "spec.replicas",
			Message: "Invalid value: 99: spec.replicas in body should be less than or equal to 50",
		},
	))

	err = k8s.Create(ctx, &Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "colourless"}})
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`Gadget.tests.kal.example.com "colourless" is invalid: spec.color: Required value`))
	g.Expect(statusOf(t, err).Details.Causes).To(Equal([]metav1.StatusCause{{
		Type: metav1.CauseTypeFieldValueRequired, Field: "spec.color", Message: "Required value",
	}}))
}
