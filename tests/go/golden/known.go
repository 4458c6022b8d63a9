// The known mismatches (testdata/golden/known-mismatches.yaml): steps whose answer from our server
// is known to differ from kube-apiserver's, each with the open issue that fixes it. The list may
// only shrink: a listed step that matches fails the test until its entry is removed.
package golden

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// KnownMismatch is one entry.
type KnownMismatch struct {
	Step   string `yaml:"step"`   // <corpus file>/<step name>
	Issues []int  `yaml:"issues"` // the open issues whose fixes together make it match
	Cause  string `yaml:"cause"`  // what differs, in a few words
}

// LoadKnown reads the list; a missing file is an empty list.
func LoadKnown(path string) (map[string]KnownMismatch, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]KnownMismatch{}, nil
	}
	if err != nil {
		return nil, err
	}
	var list []KnownMismatch
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&list); err != nil && err.Error() != "EOF" {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	known := map[string]KnownMismatch{}
	for _, k := range list {
		if !strings.Contains(k.Step, "/") || len(k.Issues) == 0 || k.Cause == "" {
			return nil, fmt.Errorf("%s: entry %q needs step <file>/<step>, issues and cause", path, k.Step)
		}
		if _, dup := known[k.Step]; dup {
			return nil, fmt.Errorf("%s: %s listed twice", path, k.Step)
		}
		known[k.Step] = k
	}
	return known, nil
}
