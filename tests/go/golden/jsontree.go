// A JSON parser that remembers where every value lies in the source bytes, so that normalisation
// rules can replace or drop single values and everything else is copied byte for byte (field
// order, whitespace and escapes stay exactly as the server wrote them).
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
)

type jkind byte

const (
	jObject jkind = 'o'
	jArray  jkind = 'a'
	jString jkind = 's'
	jNumber jkind = 'n'
	jBool   jkind = 'b'
	jNull   jkind = 'z'
)

// jnode is one JSON value: its span in the source, its members or elements, and the edit a rule
// made (a replacement of the whole value, or members to drop).
type jnode struct {
	kind       jkind
	start, end int
	keys       []string // object member names, decoded
	keyStarts  []int    // where each member's key begins
	vals       []*jnode // object member values or array elements
	str        string   // a string's decoded value
	repl       []byte   // non-nil: the value is replaced by these bytes
	drop       []bool   // object members to leave out
}

// member returns the value of the object member key, or nil.
func (n *jnode) member(key string) *jnode {
	if n == nil || n.kind != jObject {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// memberString returns the decoded string value of member key ("" when absent or not a string).
func (n *jnode) memberString(key string) string {
	if m := n.member(key); m != nil && m.kind == jString {
		return m.str
	}
	return ""
}

func (n *jnode) dropMember(i int) {
	if n.drop == nil {
		n.drop = make([]bool, len(n.keys))
	}
	n.drop[i] = true
}

type jparser struct {
	src []byte
	pos int
}

// parseJSONTree parses one JSON document (surrounding whitespace allowed).
func parseJSONTree(src []byte) (*jnode, error) {
	p := &jparser{src: src}
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.pos != len(src) {
		return nil, fmt.Errorf("trailing data at offset %d", p.pos)
	}
	return n, nil
}

func (p *jparser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) value(depth int) (*jnode, error) {
	if depth > 10000 {
		return nil, fmt.Errorf("nested too deeply")
	}
	if p.pos >= len(p.src) {
		return nil, fmt.Errorf("unexpected end of JSON")
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		n := &jnode{kind: jObject, start: start}
		p.pos++
		p.ws()
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		for {
			p.ws()
			keyStart := p.pos
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if k.kind != jString {
				return nil, fmt.Errorf("object key at offset %d is not a string", keyStart)
			}
			p.ws()
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return nil, fmt.Errorf("expected ':' at offset %d", p.pos)
			}
			p.pos++
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k.str)
			n.keyStarts = append(n.keyStarts, keyStart)
			n.vals = append(n.vals, v)
			p.ws()
			if p.pos >= len(p.src) {
				return nil, fmt.Errorf("unexpected end of JSON in object")
			}
			if p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.src[p.pos] == '}' {
				p.pos++
				n.end = p.pos
				return n, nil
			}
			return nil, fmt.Errorf("expected ',' or '}' at offset %d", p.pos)
		}
	case c == '[':
		n := &jnode{kind: jArray, start: start}
		p.pos++
		p.ws()
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		for {
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
			p.ws()
			if p.pos >= len(p.src) {
				return nil, fmt.Errorf("unexpected end of JSON in array")
			}
			if p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.src[p.pos] == ']' {
				p.pos++
				n.end = p.pos
				return n, nil
			}
			return nil, fmt.Errorf("expected ',' or ']' at offset %d", p.pos)
		}
	case c == '"':
		p.pos++
		for p.pos < len(p.src) && p.src[p.pos] != '"' {
			if p.src[p.pos] == '\\' {
				p.pos++
			}
			p.pos++
		}
		if p.pos >= len(p.src) {
			return nil, fmt.Errorf("unterminated string at offset %d", start)
		}
		p.pos++
		n := &jnode{kind: jString, start: start, end: p.pos}
		if err := json.Unmarshal(p.src[start:p.pos], &n.str); err != nil {
			return nil, fmt.Errorf("bad string at offset %d: %w", start, err)
		}
		return n, nil
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.src[p.pos:], []byte(lit)) {
				p.pos += len(lit)
				kind := jBool
				if lit == "null" {
					kind = jNull
				}
				return &jnode{kind: kind, start: start, end: p.pos}, nil
			}
		}
		return nil, fmt.Errorf("bad literal at offset %d", start)
	case c == '-' || (c >= '0' && c <= '9'):
		p.pos++
		for p.pos < len(p.src) {
			d := p.src[p.pos]
			if (d >= '0' && d <= '9') || d == '.' || d == 'e' || d == 'E' || d == '+' || d == '-' {
				p.pos++
				continue
			}
			break
		}
		if !json.Valid(p.src[start:p.pos]) {
			return nil, fmt.Errorf("bad number at offset %d", start)
		}
		return &jnode{kind: jNumber, start: start, end: p.pos}, nil
	default:
		return nil, fmt.Errorf("unexpected character %q at offset %d", c, start)
	}
}

// render writes the tree back: untouched values as their source bytes, edited ones as edited.
func render(src []byte, n *jnode) []byte {
	var buf bytes.Buffer
	renderTo(&buf, src, n)
	return buf.Bytes()
}

func renderTo(buf *bytes.Buffer, src []byte, n *jnode) {
	if n.repl != nil {
		buf.Write(n.repl)
		return
	}
	switch n.kind {
	case jObject:
		if len(n.keys) == 0 {
			buf.Write(src[n.start:n.end])
			return
		}
		buf.Write(src[n.start:n.keyStarts[0]]) // "{" and any whitespace
		first := true
		for i := range n.keys {
			if n.drop != nil && n.drop[i] {
				continue
			}
			if !first { // the first kept member has no separator before it
				buf.Write(src[n.vals[i-1].end:n.keyStarts[i]]) // the separator the server wrote
			}
			first = false
			buf.Write(src[n.keyStarts[i]:n.vals[i].start]) // key, colon, whitespace
			renderTo(buf, src, n.vals[i])
		}
		buf.Write(src[n.vals[len(n.vals)-1].end:n.end]) // whitespace and "}"
	case jArray:
		if len(n.vals) == 0 {
			buf.Write(src[n.start:n.end])
			return
		}
		buf.Write(src[n.start:n.vals[0].start])
		for i, v := range n.vals {
			if i > 0 {
				buf.Write(src[n.vals[i-1].end:v.start])
			}
			renderTo(buf, src, v)
		}
		buf.Write(src[n.vals[len(n.vals)-1].end:n.end])
	default:
		buf.Write(src[n.start:n.end])
	}
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
