// The OpenAPI digest: documents too large to record (v2 is megabytes) are recorded as the sorted
// names of their schemas and their paths with the operations of each, from JSON (v2 or v3) or
// from v2's protobuf form. A missing or extra definition, path or verb shows in the comparison.
package golden

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
)

type openapiDigestDoc struct {
	Format      string   `json:"format"`
	Definitions []string `json:"definitions"`
	Paths       []string `json:"paths"` // "<path> <op> <op>..."
}

var httpOps = []string{"get", "put", "post", "delete", "options", "head", "patch"}

func openapiDigest(body []byte, contentType string) ([]byte, error) {
	d := openapiDigestDoc{Definitions: []string{}, Paths: []string{}}
	if strings.Contains(contentType, "protobuf") {
		var doc openapiv2.Document
		if err := proto.Unmarshal(body, &doc); err != nil {
			return nil, fmt.Errorf("openapi v2 protobuf: %w", err)
		}
		d.Format = "swagger " + doc.GetSwagger() + " (protobuf)"
		for _, p := range doc.GetDefinitions().GetAdditionalProperties() {
			d.Definitions = append(d.Definitions, p.GetName())
		}
		for _, p := range doc.GetPaths().GetPath() {
			item := p.GetValue()
			ops := []struct {
				name string
				set  bool
			}{
				{"get", item.GetGet() != nil}, {"put", item.GetPut() != nil}, {"post", item.GetPost() != nil},
				{"delete", item.GetDelete() != nil}, {"options", item.GetOptions() != nil},
				{"head", item.GetHead() != nil}, {"patch", item.GetPatch() != nil},
			}
			line := p.GetName()
			for _, o := range ops {
				if o.set {
					line += " " + o.name
				}
			}
			d.Paths = append(d.Paths, line)
		}
	} else {
		var doc struct {
			Swagger     string                                `json:"swagger"`
			OpenAPI     string                                `json:"openapi"`
			Definitions map[string]json.RawMessage            `json:"definitions"`
			Components  struct{ Schemas map[string]any }      `json:"components"`
			Paths       map[string]map[string]json.RawMessage `json:"paths"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			return nil, fmt.Errorf("openapi JSON: %w", err)
		}
		if doc.Swagger != "" {
			d.Format = "swagger " + doc.Swagger
		} else {
			d.Format = "openapi " + doc.OpenAPI
		}
		for k := range doc.Definitions {
			d.Definitions = append(d.Definitions, k)
		}
		for k := range doc.Components.Schemas {
			d.Definitions = append(d.Definitions, k)
		}
		for p, item := range doc.Paths {
			line := p
			for _, o := range httpOps {
				if _, ok := item[o]; ok {
					line += " " + o
				}
			}
			d.Paths = append(d.Paths, line)
		}
	}
	sort.Strings(d.Definitions)
	sort.Strings(d.Paths)
	return marshalNoEscape(d)
}
