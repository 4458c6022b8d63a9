// Checks of the committed, generated manifests (no generation is run): the CRD decodes as
// apiextensions.k8s.io/v1 with both versions as the operator expects, its schemas name exactly the fields of
// the Go types (so a stale manifest is caught), and the RBAC role covers what the reconciler touches.
package config

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
	webappv1alpha1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1alpha1"
)

const crdPath = "crd/bases/webapp.kal.example.com_webapps.yaml"

func readCRD(t *testing.T) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	data, err := os.ReadFile(crdPath)
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(data, crd); err != nil {
		t.Fatalf("%s: %v", crdPath, err)
	}
	return crd
}

func TestCRDIsApiextensionsV1WithBothVersions(t *testing.T) {
	g := gomega.NewWithT(t)
	crd := readCRD(t)
	g.Expect(crd.APIVersion).To(gomega.Equal("apiextensions.k8s.io/v1"))
	g.Expect(crd.Kind).To(gomega.Equal("CustomResourceDefinition"))
	g.Expect(crd.Name).To(gomega.Equal("webapps.webapp.kal.example.com"))
	g.Expect(crd.Spec.Group).To(gomega.Equal(webappv1.GroupVersion.Group))
	g.Expect(crd.Spec.Scope).To(gomega.Equal(apiextensionsv1.NamespaceScoped))
	g.Expect(crd.Spec.Names.Kind).To(gomega.Equal("WebApp"))
	g.Expect(crd.Spec.Names.ShortNames).To(gomega.Equal([]string{"wa"}))
	g.Expect(crd.Spec.Names.Categories).To(gomega.Equal([]string{"kal"}))
	g.Expect(crd.Spec.Conversion).To(gomega.BeNil())

	g.Expect(crd.Spec.Versions).To(gomega.HaveLen(2))
	byName := map[string]apiextensionsv1.CustomResourceDefinitionVersion{}
	for _, v := range crd.Spec.Versions {
		byName[v.Name] = v
	}
	v1, alpha := byName["v1"], byName["v1alpha1"]
	g.Expect(v1.Served && v1.Storage).To(gomega.BeTrue(), "v1 served and storage")
	g.Expect(alpha.Served).To(gomega.BeTrue())
	g.Expect(alpha.Storage).To(gomega.BeFalse())

	for _, v := range []apiextensionsv1.CustomResourceDefinitionVersion{v1, alpha} {
		g.Expect(v.Subresources).NotTo(gomega.BeNil(), v.Name)
		g.Expect(v.Subresources.Status).NotTo(gomega.BeNil(), v.Name)
		g.Expect(*v.Subresources.Scale).To(gomega.Equal(apiextensionsv1.CustomResourceSubresourceScale{
			SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.readyReplicas",
			LabelSelectorPath: stringPtr(".status.selector"),
		}), v.Name)
	}
	g.Expect(v1.SelectableFields).To(gomega.Equal([]apiextensionsv1.SelectableField{{JSONPath: ".spec.tier"}}))
	var columns []string
	for _, c := range v1.AdditionalPrinterColumns {
		columns = append(columns, c.Name)
	}
	g.Expect(columns).To(gomega.Equal([]string{"Image", "Replicas", "Ready", "Age"}))

	spec := v1.Schema.OpenAPIV3Schema.Properties["spec"]
	g.Expect(spec.Required).To(gomega.Equal([]string{"image"}))
	g.Expect(string(spec.Properties["replicas"].Default.Raw)).To(gomega.Equal("1"))
	g.Expect(*spec.Properties["replicas"].Maximum).To(gomega.Equal(10.0))
	g.Expect(string(spec.Properties["tier"].Default.Raw)).To(gomega.Equal(`"frontend"`))
	g.Expect(spec.Properties["tier"].Enum).To(gomega.HaveLen(2))
	g.Expect(spec.XValidations).To(gomega.HaveLen(1))
	g.Expect(spec.Properties["image"].XValidations).To(gomega.HaveLen(1))
	conds := v1.Schema.OpenAPIV3Schema.Properties["status"].Properties["conditions"]
	g.Expect(*conds.XListType).To(gomega.Equal("map"))
	g.Expect(conds.XListMapKeys).To(gomega.Equal([]string{"type"}))
}

// TestCRDSchemasMatchGoTypes catches a manifest not regenerated after a change to the types.
func TestCRDSchemasMatchGoTypes(t *testing.T) {
	crd := readCRD(t)
	types := map[string][2]reflect.Type{
		"v1":       {reflect.TypeOf(webappv1.WebAppSpec{}), reflect.TypeOf(webappv1.WebAppStatus{})},
		"v1alpha1": {reflect.TypeOf(webappv1alpha1.WebAppSpec{}), reflect.TypeOf(webappv1alpha1.WebAppStatus{})},
	}
	for _, v := range crd.Spec.Versions {
		root := v.Schema.OpenAPIV3Schema.Properties
		for i, part := range []string{"spec", "status"} {
			got := propertyNames(root[part])
			want := jsonFields(types[v.Name][i])
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s .%s: manifest has %v, Go type has %v; run hack/generate.sh", v.Name, part, got, want)
			}
		}
	}
}

func TestRoleCoversReconcilerResources(t *testing.T) {
	g := gomega.NewWithT(t)
	data, err := os.ReadFile("rbac/role.yaml")
	g.Expect(err).NotTo(gomega.HaveOccurred())
	role := &rbacv1.ClusterRole{}
	g.Expect(yaml.UnmarshalStrict(data, role)).To(gomega.Succeed())
	g.Expect(role.Kind).To(gomega.Equal("ClusterRole"))
	g.Expect(role.Name).To(gomega.Equal("webapp-manager-role"))

	allowed := func(group, resource, verb string) bool {
		for _, r := range role.Rules {
			if contains(r.APIGroups, group) && contains(r.Resources, resource) && contains(r.Verbs, verb) {
				return true
			}
		}
		return false
	}
	for _, want := range [][3]string{
		{"webapp.kal.example.com", "webapps", "watch"},
		{"webapp.kal.example.com", "webapps", "update"},
		{"webapp.kal.example.com", "webapps/status", "update"},
		{"webapp.kal.example.com", "webapps/finalizers", "update"},
		{"", "configmaps", "create"},
		{"", "configmaps", "delete"},
		{"apps", "deployments", "update"},
		{"apps", "deployments", "delete"},
		{"events.k8s.io", "events", "create"},
		{"coordination.k8s.io", "leases", "update"},
	} {
		g.Expect(allowed(want[0], want[1], want[2])).To(gomega.BeTrue(), "%v", want)
	}
}

func propertyNames(s apiextensionsv1.JSONSchemaProps) []string {
	var names []string
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func jsonFields(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func stringPtr(s string) *string { return &s }
