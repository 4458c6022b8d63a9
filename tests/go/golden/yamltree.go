// YAML bodies for the structural normalisation rules: a YAML document is read into the same tree
// the JSON rules walk, with each scalar's byte span in the source, so that a rule's replacement
// is spliced into the server's bytes and every other byte (key order, quoting, indentation) stays.
package golden

import (
	"bytes"
	"sort"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// parseYAMLTree reads one YAML document into a jnode tree. Scalars whose span cannot be found
// exactly (block scalars, multi-line plain scalars) are left out of the rules' reach.
func parseYAMLTree(src []byte) (*jnode, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return &jnode{kind: jNull, start: -1}, nil
	}
	var lineStarts []int
	lineStarts = append(lineStarts, 0)
	for i, c := range src {
		if c == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	offset := func(line, col int) int {
		if line < 1 || line > len(lineStarts) {
			return -1
		}
		p := lineStarts[line-1]
		for c := 1; c < col && p < len(src); c++ {
			_, size := utf8.DecodeRune(src[p:])
			p += size
		}
		return p
	}
	return yamlToTree(src, doc.Content[0], offset), nil
}

func yamlToTree(src []byte, n *yaml.Node, offset func(int, int) int) *jnode {
	switch n.Kind {
	case yaml.AliasNode:
		return &jnode{kind: jNull, start: -1}
	case yaml.MappingNode:
		j := &jnode{kind: jObject, start: -1}
		for i := 0; i+1 < len(n.Content); i += 2 {
			j.keys = append(j.keys, n.Content[i].Value)
			j.keyStarts = append(j.keyStarts, -1)
			j.vals = append(j.vals, yamlToTree(src, n.Content[i+1], offset))
		}
		return j
	case yaml.SequenceNode:
		j := &jnode{kind: jArray, start: -1}
		for _, c := range n.Content {
			j.vals = append(j.vals, yamlToTree(src, c, offset))
		}
		return j
	}
	j := &jnode{start: -1, str: n.Value}
	switch n.ShortTag() {
	case "!!str":
		j.kind = jString
	case "!!int", "!!float":
		j.kind = jNumber
	case "!!bool":
		j.kind = jBool
	default:
		j.kind = jNull
	}
	start := offset(n.Line, n.Column)
	if start < 0 || start >= len(src) {
		return j
	}
	end := -1
	switch n.Style {
	case yaml.DoubleQuotedStyle:
		for p := start + 1; p < len(src); p++ {
			if src[p] == '\\' {
				p++
			} else if src[p] == '"' {
				end = p + 1
				break
			}
		}
	case yaml.SingleQuotedStyle:
		for p := start + 1; p < len(src); p++ {
			if src[p] == '\'' {
				if p+1 < len(src) && src[p+1] == '\'' {
					p++
					continue
				}
				end = p + 1
				break
			}
		}
	case 0: // plain
		if bytes.HasPrefix(src[start:], []byte(n.Value)) {
			end = start + len(n.Value)
		}
	}
	if end > start {
		j.start, j.end = start, end
	}
	return j
}

// spliceReplacements writes src with the replacements made in the tree.
func spliceReplacements(src []byte, root *jnode) []byte {
	type edit struct {
		start, end int
		repl       []byte
	}
	var edits []edit
	var collect func(n *jnode)
	collect = func(n *jnode) {
		if n.repl != nil && n.start >= 0 {
			edits = append(edits, edit{n.start, n.end, n.repl})
			return
		}
		for _, v := range n.vals {
			collect(v)
		}
	}
	collect(root)
	sort.Slice(edits, func(a, b int) bool { return edits[a].start < edits[b].start })
	var out bytes.Buffer
	pos := 0
	for _, e := range edits {
		if e.start < pos {
			continue
		}
		out.Write(src[pos:e.start])
		out.Write(e.repl)
		pos = e.end
	}
	out.Write(src[pos:])
	return out.Bytes()
}
