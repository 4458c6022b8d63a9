// OpenAPI through client-go's discovery client: v3 (OpenAPIV3().Paths(), a group version's JSON
// schema, the openapi3 Root's typed spec) and /openapi/v2 in protobuf (OpenAPISchema()), both with
// the Gadget CRD's schema and with a CRD created while the test runs.
package clientgo_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/openapi3"
)

func TestOpenAPIV3PathsAndGroupVersionSchema(t *testing.T) {
	g := NewWithT(t)
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	g.Expect(err).NotTo(HaveOccurred())

	paths, err := dc.OpenAPIV3().Paths()
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(paths).To(HaveKey("api/v1"))
	g.Expect(paths).To(HaveKey("apis/apps/v1"))
	g.Expect(paths).To(HaveKey("apis/apiextensions.k8s.io/v1"))
	g.Expect(paths).To(HaveKey("apis/tests.kal.example.com/v1"))

	raw, err := paths["apis/tests.kal.example.com/v1"].Schema("application/json")
	g.Expect(err).NotTo(HaveOccurred())
	var doc struct {
		OpenAPI    string                     `json:"openapi"`
		Paths      map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	g.Expect(json.Unmarshal(raw, &doc)).To(Succeed())
	g.Expect(doc.OpenAPI).To(HavePrefix("3."))
	g.Expect(doc.Paths).To(HaveKey("/apis/tests.kal.example.com/v1/namespaces/{namespace}/gadgets/{name}"))
	g.Expect(doc.Components.Schemas).To(HaveKey("com.example.kal.tests.v1.Gadget"))

	var gadget struct {
		Properties struct {
			Spec struct {
				Required   []string `json:"required"`
				Properties struct {
					Color struct {
						Enum []string `json:"enum"`
					} `json:"color"`
					Size struct {
						Default string `json:"default"`
					} `json:"size"`
				} `json:"properties"`
			} `json:"spec"`
		} `json:"properties"`
		GVK []map[string]string `json:"x-kubernetes-group-version-kind"`
	}
	g.Expect(json.Unmarshal(doc.Components.Schemas["com.example.kal.tests.v1.Gadget"], &gadget)).To(Succeed())
	g.Expect(gadget.Properties.Spec.Properties.Color.Enum).To(Equal([]string{"red", "green", "blue"}))
	g.Expect(gadget.Properties.Spec.Properties.Size.Default).To(Equal("medium"))
	g.Expect(gadget.Properties.Spec.Required).To(Equal([]string{"color"}))
	g.Expect(gadget.GVK).To(Equal([]map[string]string{{"group": "tests.kal.example.com", "version": "v1", "kind": "Gadget"}}))

	// The typed view of a built-in group version.
	root := openapi3.NewRoot(dc.OpenAPIV3())
	spec, err := root.GVSpec(schema.GroupVersion{Group: "apps", Version: "v1"})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(spec.Components).NotTo(BeNil())
	deployment, ok := spec.Components.Schemas["io.k8s.api.apps.v1.Deployment"]
	g.Expect(ok).To(BeTrue())
	g.Expect(deployment.Properties).To(HaveKey("spec"))
	g.Expect(deployment.Properties).To(HaveKey("status"))
	gvs, err := root.GroupVersions()
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(gvs).To(ContainElement(schema.GroupVersion{Group: "tests.kal.example.com", Version: "v1"}))

	// A CRD created now gets a path of its own.
	createCRD(t, "v3check.kal.example.com", "Lever", apiextensionsv1.NamespaceScoped)
	g.Eventually(func() error {
		paths, err := dc.OpenAPIV3().Paths()
		if err != nil {
			return err
		}
		gv, ok := paths["apis/v3check.kal.example.com/v1"]
		if !ok {
			return errString("no path apis/v3check.kal.example.com/v1 yet")
		}
		raw, err := gv.Schema("application/json")
		if err != nil {
			return err
		}
		if !strings.Contains(string(raw), `"com.example.kal.v3check.v1.Lever"`) {
			return errString("no Lever schema yet")
		}
		return nil
	}, 10*time.Second, 50*time.Millisecond).Should(Succeed())
}

// TestOpenAPIV3DocumentListsEveryCRDRoute checks the paths kube publishes for a CRD's group version:
// collections, items and the status and scale subresources.
func TestOpenAPIV3DocumentListsEveryCRDRoute(t *testing.T) {
	g := NewWithT(t)
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	g.Expect(err).NotTo(HaveOccurred())
	paths, err := dc.OpenAPIV3().Paths()
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(paths).To(HaveKey("apis/tests.kal.example.com/v1"))
	raw, err := paths["apis/tests.kal.example.com/v1"].Schema("application/json")
	g.Expect(err).NotTo(HaveOccurred())
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	g.Expect(json.Unmarshal(raw, &doc)).To(Succeed())
	verbs := func(path string) []string {
		var out []string
		for k := range doc.Paths[path] {
			if k != "parameters" {
				out = append(out, k)
			}
		}
		return out
	}
	const base = "/apis/tests.kal.example.com/v1"
	g.Expect(verbs(base + "/gadgets")).To(ConsistOf("get"))
	g.Expect(verbs(base + "/namespaces/{namespace}/gadgets")).To(ConsistOf("get", "post", "delete"))
	g.Expect(verbs(base + "/namespaces/{namespace}/gadgets/{name}")).To(ConsistOf("get", "put", "patch", "delete"))
	g.Expect(verbs(base + "/namespaces/{namespace}/gadgets/{name}/status")).To(ConsistOf("get", "put", "patch"))
	g.Expect(verbs(base + "/namespaces/{namespace}/gadgets/{name}/scale")).To(ConsistOf("get", "put", "patch"))
	g.Expect(verbs(base + "/gizmos")).To(ConsistOf("get", "post", "delete"))
	g.Expect(verbs(base + "/gizmos/{name}")).To(ConsistOf("get", "put", "patch", "delete"))
	g.Expect(verbs(base + "/gizmos/{name}/status")).To(ConsistOf("get", "put", "patch"))
}

type errString string

func (e errString) Error() string { return string(e) }

func definition(doc *openapi_v2.Document, name string) *openapi_v2.Schema {
	if doc.GetDefinitions() == nil {
		return nil
	}
	for _, d := range doc.GetDefinitions().GetAdditionalProperties() {
		if d.GetName() == name {
			return d.GetValue()
		}
	}
	return nil
}

func property(s *openapi_v2.Schema, name string) *openapi_v2.Schema {
	for _, p := range s.GetProperties().GetAdditionalProperties() {
		if p.GetName() == name {
			return p.GetValue()
		}
	}
	return nil
}

func TestOpenAPIV2ProtobufContainsCRDDefinitions(t *testing.T) {
	g := NewWithT(t)
	rec := &recorder{}
	dc, err := discovery.NewDiscoveryClientForConfig(recordingConfig(rec))
	g.Expect(err).NotTo(HaveOccurred())

	doc, err := dc.OpenAPISchema()
	g.Expect(err).NotTo(HaveOccurred())
	reqs := rec.All()
	g.Expect(reqs).To(HaveLen(1))
	g.Expect(reqs[0].Path).To(Equal("/openapi/v2"))
	g.Expect(reqs[0].Accept).To(Equal("application/com.github.proto-openapi.spec.v2@v1.0+protobuf"))
	g.Expect(reqs[0].ResponseContentType).To(HavePrefix("application/com.github.proto-openapi.spec.v2"))

	g.Expect(doc.GetSwagger()).To(Equal("2.0"))
	g.Expect(doc.GetInfo().GetTitle()).To(Equal("Kubernetes"))
	cm := definition(doc, "io.k8s.api.core.v1.ConfigMap")
	g.Expect(cm).NotTo(BeNil())
	g.Expect(property(cm, "data")).NotTo(BeNil())

	gadget := definition(doc, "com.example.kal.tests.v1.Gadget")
	g.Expect(gadget).NotTo(BeNil(), "the Gadget CRD's definition")
	spec := property(gadget, "spec")
	g.Expect(spec).NotTo(BeNil())
	color := property(spec, "color")
	g.Expect(color).NotTo(BeNil())
	g.Expect(color.GetType().GetValue()).To(Equal([]string{"string"}))
	var enum []string
	for _, e := range color.GetEnum() {
		enum = append(enum, strings.TrimSpace(e.GetYaml()))
	}
	g.Expect(enum).To(Equal([]string{"red", "green", "blue"}))
	g.Expect(definition(doc, "com.example.kal.tests.v1.GadgetList")).NotTo(BeNil())
	g.Expect(definition(doc, "com.example.kal.tests.v1.Gizmo")).NotTo(BeNil())

	// A CRD created now appears in the document.
	createCRD(t, "v2check.kal.example.com", "Knob", apiextensionsv1.NamespaceScoped)
	g.Eventually(func() bool {
		doc, err := dc.OpenAPISchema()
		return err == nil && definition(doc, "com.example.kal.v2check.v1.Knob") != nil
	}, 10*time.Second, 50*time.Millisecond).Should(BeTrue())
}
