// Package golden is the differential harness: it replays the corpus of HTTP exchanges in
// testdata/golden/corpus against an API server started by envtest, normalises the answers
// (normalise.go) and compares them byte for byte with answers recorded from a real
// kube-apiserver (testdata/golden/recorded).
//
// This file reads the corpus: one YAML file per area, each a list of steps.
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// CorpusFile is one file of testdata/golden/corpus.
type CorpusFile struct {
	Name  string          // file name without .yaml
	Users map[string]User `yaml:"users"`
	// APIServerFlags are added to envtest's kube-apiserver flags for this file (both servers).
	APIServerFlags map[string]string `yaml:"apiserverFlags"`
	Steps          []Step            `yaml:"steps"`
}

// User is a client-certificate user made with envtest's AddUser.
type User struct {
	Groups []string `yaml:"groups"`
}

// Step is one request of the corpus.
type Step struct {
	Name    string            `yaml:"name"`
	Method  string            `yaml:"method"`
	Path    string            `yaml:"path"`
	Headers map[string]string `yaml:"headers"`
	// Exactly one of the body forms, or none.
	Body         yaml.Node `yaml:"body"`         // an object or list, sent as JSON (as YAML if Content-Type says yaml), keys in file order
	BodyRaw      *string   `yaml:"bodyRaw"`      // sent as is
	BodyBase64   string    `yaml:"bodyBase64"`   // decoded, then sent
	BodyProtobuf yaml.Node `yaml:"bodyProtobuf"` // an object with apiVersion and kind, encoded as Kubernetes protobuf
	// User: "" or admin (system:masters), anonymous, invalid-token, or a name from the file's users.
	User    string            `yaml:"user"`
	WaitFor *WaitFor          `yaml:"waitFor"`
	Watch   *WatchSpec        `yaml:"watch"`
	Digest  string            `yaml:"digest"`  // "openapi": record a digest of the document instead of the body
	Capture map[string]string `yaml:"capture"` // variable → dotted path in the (un-normalised) JSON answer
	Record  *bool             `yaml:"record"`  // false: a set-up step, its answer is not compared
}

// WaitFor polls the request until its answer has the status (and, if given, the substring or the
// condition type with status "True").
type WaitFor struct {
	Status         int    `yaml:"status"`
	Contains       string `yaml:"contains"`
	Condition      string `yaml:"condition"`
	TimeoutSeconds int    `yaml:"timeoutSeconds"`
}

// WatchSpec reads a watch stream until Events events arrived, the server closed it, or
// TimeoutSeconds passed.
type WatchSpec struct {
	Events         int `yaml:"events"`
	TimeoutSeconds int `yaml:"timeoutSeconds"`
}

// Recorded reports whether the step's answer is part of the golden record.
func (s *Step) Recorded() bool { return s.Record == nil || *s.Record }

// HTTPMethod is the step's method, GET when not given.
func (s *Step) HTTPMethod() string {
	if s.Method == "" {
		return "GET"
	}
	return strings.ToUpper(s.Method)
}

var stepNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// LoadCorpus reads every *.yaml file of dir, sorted by name.
func LoadCorpus(dir string) ([]*CorpusFile, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var files []*CorpusFile
	for _, p := range paths {
		f, err := loadCorpusFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no corpus files in %s", dir)
	}
	return files, nil
}

func loadCorpusFile(path string) (*CorpusFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &CorpusFile{Name: strings.TrimSuffix(filepath.Base(path), ".yaml")}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{}
	for i := range f.Steps {
		s := &f.Steps[i]
		if !stepNameRE.MatchString(s.Name) {
			return nil, fmt.Errorf("%s: step %d: bad or missing name %q", path, i, s.Name)
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("%s: step name %q used twice", path, s.Name)
		}
		seen[s.Name] = true
		if !strings.HasPrefix(s.Path, "/") {
			return nil, fmt.Errorf("%s: step %s: path must start with /", path, s.Name)
		}
		forms := 0
		for _, set := range []bool{s.Body.Kind != 0, s.BodyRaw != nil, s.BodyBase64 != "", s.BodyProtobuf.Kind != 0} {
			if set {
				forms++
			}
		}
		if forms > 1 {
			return nil, fmt.Errorf("%s: step %s: more than one body form", path, s.Name)
		}
		switch s.User {
		case "", "admin", "anonymous", "invalid-token":
		default:
			if _, ok := f.Users[s.User]; !ok {
				return nil, fmt.Errorf("%s: step %s: user %q is not in the file's users", path, s.Name, s.User)
			}
		}
		if s.Digest != "" && s.Digest != "openapi" {
			return nil, fmt.Errorf("%s: step %s: unknown digest %q", path, s.Name, s.Digest)
		}
		if s.Watch != nil && s.Watch.Events <= 0 {
			return nil, fmt.Errorf("%s: step %s: watch.events must be positive", path, s.Name)
		}
	}
	return f, nil
}

// nodeToJSON writes a YAML node as JSON, keeping the key order of the file. Scalars keep their
// YAML types (an unquoted 3 is a number, a quoted "3" a string).
func nodeToJSON(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeNodeJSON(&buf, n); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeNodeJSON(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		return writeNodeJSON(buf, n.Content[0])
	case yaml.AliasNode:
		return writeNodeJSON(buf, n.Alias)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			buf.Write(k)
			buf.WriteByte(':')
			if err := writeNodeJSON(buf, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeNodeJSON(buf, c); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			buf.WriteString("null")
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return err
			}
			buf.WriteString(strconv.FormatBool(b))
		case "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return err
			}
			out, err := json.Marshal(v)
			if err != nil {
				return err
			}
			buf.Write(out)
		default:
			enc := json.NewEncoder(buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(n.Value); err != nil {
				return err
			}
			buf.Truncate(buf.Len() - 1) // the encoder's newline
		}
	default:
		return fmt.Errorf("unsupported YAML node kind %d", n.Kind)
	}
	return nil
}

// nodeToYAML writes a YAML node as a YAML document (keys in file order).
func nodeToYAML(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var varRE = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`)

// substitute replaces ${name} by the captured variable; it reports the names it did not know.
func substitute(s string, vars map[string]string) (string, []string) {
	var missing []string
	out := varRE.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		v, ok := vars[name]
		if !ok {
			missing = append(missing, name)
		}
		return v
	})
	return out, missing
}

// lookupPath finds a dotted path (list indexes as numbers) in a decoded JSON value and returns
// it as a string (numbers and booleans in their JSON form).
func lookupPath(v any, path string) (string, bool) {
	for _, part := range strings.Split(path, ".") {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[part]; !ok {
				return "", false
			}
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(c) {
				return "", false
			}
			v = c[i]
		default:
			return "", false
		}
	}
	switch c := v.(type) {
	case string:
		return c, true
	case nil:
		return "", false
	default:
		out, _ := json.Marshal(c)
		return string(out), true
	}
}
