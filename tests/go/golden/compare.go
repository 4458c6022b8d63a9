// Comparing a replayed exchange with the recorded one, and the readable unified diff printed for
// a mismatch (JSON indented with its field order kept, plus a note when only whitespace, escapes
// or the trailing newline differ, which indenting would hide).
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// sameExchange reports whether two exchanges are equal after normalisation.
func sameExchange(want, got *Exchange) bool {
	return want.Status == got.Status && want.Error == got.Error &&
		sameHeaders(want.Headers, got.Headers) &&
		sameBody(want.Body, got.Body) && sameWatch(want.Watch, got.Watch)
}

func sameHeaders(a, b Headers) bool {
	return a.ContentType == b.ContentType && a.Location == b.Location && a.RetryAfter == b.RetryAfter &&
		a.AuditID == b.AuditID && strings.Join(a.Warning, "\n") == strings.Join(b.Warning, "\n")
}

func compactRaw(r json.RawMessage) []byte {
	if r == nil {
		return nil
	}
	var c bytes.Buffer
	if json.Compact(&c, r) != nil {
		return r
	}
	return c.Bytes()
}

func sameBody(a, b *Body) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	if (a.Protobuf == nil) != (b.Protobuf == nil) || (a.Digest == nil) != (b.Digest == nil) {
		return false
	}
	if a.Protobuf != nil {
		x, y := a.Protobuf, b.Protobuf
		return x.Envelope == y.Envelope && x.Canonical == y.Canonical && x.Error == y.Error &&
			bytes.Equal(compactRaw(x.Decoded), compactRaw(y.Decoded))
	}
	if a.Digest != nil {
		return bytes.Equal(compactRaw(a.Digest), compactRaw(b.Digest))
	}
	return bytes.Equal(a.Exact(), b.Exact())
}

func sameWatch(a, b *WatchRecord) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	if a.End != b.End || len(a.Events) != len(b.Events) {
		return false
	}
	for i := range a.Events {
		if !sameBody(&a.Events[i], &b.Events[i]) {
			return false
		}
	}
	return true
}

// readable renders an exchange as lines for the diff.
func readable(e *Exchange) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "status: %d\n", e.Status)
	if e.Error != "" {
		fmt.Fprintf(&sb, "error: %s\n", e.Error)
	}
	fmt.Fprintf(&sb, "Content-Type: %s\n", e.Headers.ContentType)
	fmt.Fprintf(&sb, "Audit-Id present: %v\n", e.Headers.AuditID)
	for _, w := range e.Headers.Warning {
		fmt.Fprintf(&sb, "Warning: %s\n", w)
	}
	if e.Headers.Location != "" {
		fmt.Fprintf(&sb, "Location: %s\n", e.Headers.Location)
	}
	if e.Headers.RetryAfter != "" {
		fmt.Fprintf(&sb, "Retry-After: %s\n", e.Headers.RetryAfter)
	}
	if e.Body != nil {
		sb.WriteString(readableBody("body", e.Body))
	}
	if e.Watch != nil {
		fmt.Fprintf(&sb, "watch ended: %s, %d events\n", e.Watch.End, len(e.Watch.Events))
		for i := range e.Watch.Events {
			sb.WriteString(readableBody(fmt.Sprintf("event %d", i+1), &e.Watch.Events[i]))
		}
	}
	return sb.String()
}

func indented(b []byte) string {
	var out bytes.Buffer
	if json.Indent(&out, b, "", "  ") != nil {
		return string(b)
	}
	return out.String()
}

func readableBody(label string, b *Body) string {
	var sb strings.Builder
	switch {
	case b.Protobuf != nil:
		fmt.Fprintf(&sb, "%s: protobuf, envelope %s, canonical encoding %v\n", label, b.Protobuf.Envelope, b.Protobuf.Canonical)
		if b.Protobuf.Error != "" {
			fmt.Fprintf(&sb, "decode error: %s\n", b.Protobuf.Error)
		}
		if b.Protobuf.Decoded != nil {
			sb.WriteString(indented(compactRaw(b.Protobuf.Decoded)) + "\n")
		}
	case b.Digest != nil:
		fmt.Fprintf(&sb, "%s: digest\n%s\n", label, indented(compactRaw(b.Digest)))
	case b.JSON != nil:
		fmt.Fprintf(&sb, "%s: JSON, trailing newline %v\n%s\n", label, b.TrailingNewline, indented(compactRaw(b.JSON)))
	case b.Text != nil:
		fmt.Fprintf(&sb, "%s: text (%d bytes)\n%s\n", label, len(*b.Text), *b.Text)
	default:
		fmt.Fprintf(&sb, "%s: binary, base64 %s\n", label, b.Base64)
	}
	return sb.String()
}

// diffExchange prints what differs between the recorded and the replayed exchange.
func diffExchange(want, got *Exchange) string {
	ud := difflib.UnifiedDiff{
		A: difflib.SplitLines(readable(want)), B: difflib.SplitLines(readable(got)),
		FromFile: "kube-apiserver (recorded)", ToFile: "server under test", Context: 3,
	}
	text, _ := difflib.GetUnifiedDiffString(ud)
	if text == "" {
		// Same when indented: the bytes differ in whitespace, escapes or the trailing newline.
		text = "bodies differ only in bytes indenting hides:\n" + byteNote(want.Body, got.Body)
		if want.Watch != nil && got.Watch != nil {
			for i := range want.Watch.Events {
				if i < len(got.Watch.Events) && !sameBody(&want.Watch.Events[i], &got.Watch.Events[i]) {
					text += fmt.Sprintf("event %d: %s", i+1, byteNote(&want.Watch.Events[i], &got.Watch.Events[i]))
				}
			}
		}
	}
	return text
}

func byteNote(a, b *Body) string {
	if a == nil || b == nil {
		return ""
	}
	x, y := a.Exact(), b.Exact()
	if a.Protobuf != nil && b.Protobuf != nil {
		x, y = compactRaw(a.Protobuf.Decoded), compactRaw(b.Protobuf.Decoded)
	}
	if bytes.Equal(x, y) {
		return ""
	}
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	lo := max(i-40, 0)
	return fmt.Sprintf("first difference at byte %d (lengths %d and %d):\n  want %q\n  got  %q\n",
		i, len(x), len(y), x[lo:min(i+40, len(x))], y[lo:min(i+40, len(y))])
}
