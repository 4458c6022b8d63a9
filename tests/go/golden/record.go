// The recorded form of an exchange (testdata/golden/recorded/<file>.json): status, the headers
// clients read, and the normalised body in a form that gives back its exact bytes.
package golden

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"unicode/utf8"
)

// RecordedFile is one file of testdata/golden/recorded.
type RecordedFile struct {
	File   string     `json:"file"`
	Server string     `json:"server"` // the recording server's gitVersion
	Note   string     `json:"note"`
	Steps  []Exchange `json:"steps"`
}

// Exchange is one recorded step.
type Exchange struct {
	Name    string       `json:"name"`
	Request string       `json:"request"` // method and the corpus path (before ${} substitution)
	Status  int          `json:"status"`
	Headers Headers      `json:"headers"`
	Body    *Body        `json:"body,omitempty"`
	Watch   *WatchRecord `json:"watch,omitempty"`
	Error   string       `json:"error,omitempty"` // the request failed without an HTTP answer
}

// Headers are the response headers clients act on.
type Headers struct {
	ContentType string   `json:"Content-Type,omitempty"`
	Warning     []string `json:"Warning,omitempty"`
	Location    string   `json:"Location,omitempty"`
	RetryAfter  string   `json:"Retry-After,omitempty"`
	AuditID     bool     `json:"Audit-Id"` // present or not; its value is random
}

// Body is a normalised body. Exactly one form is set. A JSON body is stored as a JSON value (the
// record is indented for reading); its exact bytes are that value compacted, plus a newline when
// TrailingNewline. A body that is JSON but not compact is stored as Text, so its whitespace counts.
type Body struct {
	JSON            json.RawMessage `json:"json,omitempty"`
	TrailingNewline bool            `json:"trailingNewline,omitempty"`
	Text            *string         `json:"text,omitempty"`
	Base64          string          `json:"base64,omitempty"` // neither JSON nor UTF-8 text
	Protobuf        *ProtoBody      `json:"protobuf,omitempty"`
	Digest          json.RawMessage `json:"digest,omitempty"` // a digest of the document (see digest.go)
}

// WatchRecord is a bounded watch stream.
type WatchRecord struct {
	Events []Body `json:"events"`
	End    string `json:"end"`
}

// bodyFromBytes stores normalised bytes in the form that gives them back exactly.
func bodyFromBytes(b []byte) *Body {
	if len(b) > 0 && json.Valid(b) {
		var c bytes.Buffer
		if json.Compact(&c, b) == nil {
			switch {
			case bytes.Equal(c.Bytes(), b):
				return &Body{JSON: json.RawMessage(c.Bytes())}
			case bytes.Equal(append(c.Bytes(), '\n'), b):
				return &Body{JSON: json.RawMessage(c.Bytes()), TrailingNewline: true}
			}
		}
	}
	if utf8.Valid(b) {
		s := string(b)
		return &Body{Text: &s}
	}
	return &Body{Base64: base64.StdEncoding.EncodeToString(b)}
}

// Exact gives back the normalised bytes of a non-protobuf, non-digest body.
func (b *Body) Exact() []byte {
	switch {
	case b == nil:
		return nil
	case b.JSON != nil:
		var c bytes.Buffer
		_ = json.Compact(&c, b.JSON)
		if b.TrailingNewline {
			c.WriteByte('\n')
		}
		return c.Bytes()
	case b.Text != nil:
		return []byte(*b.Text)
	case b.Base64 != "":
		out, _ := base64.StdEncoding.DecodeString(b.Base64)
		return out
	}
	return nil
}

func requestPath(p string) string {
	if u, err := url.Parse(p); err == nil {
		return u.Path
	}
	return p
}

// makeExchange normalises an answer into its recorded form.
func makeExchange(s *Step, a *Answer, runErr error, norm *Normaliser) Exchange {
	norm.SetStep(s.Name)
	ex := Exchange{Name: s.Name, Request: s.HTTPMethod() + " " + s.Path}
	if a == nil {
		msg := "no answer"
		if runErr != nil {
			msg = runErr.Error()
		}
		ex.Error = string(norm.Text([]byte(msg)))
		return ex
	}
	ex.Status = a.Status
	ex.Headers = Headers{
		ContentType: a.Header.Get("Content-Type"),
		Location:    string(norm.Text([]byte(a.Header.Get("Location")))),
		RetryAfter:  a.Header.Get("Retry-After"),
		AuditID:     a.Header.Get("Audit-Id") != "",
	}
	for _, w := range a.Header.Values("Warning") {
		ex.Headers.Warning = append(ex.Headers.Warning, string(norm.Text([]byte(w))))
	}
	ctx := BodyContext{Path: requestPath(s.Path)}
	if a.Frames != nil || a.End != "" {
		wr := &WatchRecord{End: a.End, Events: []Body{}}
		for _, f := range a.Frames {
			if a.ProtobufStream {
				wr.Events = append(wr.Events, Body{Protobuf: protoWatchRecord(f, norm, ctx)})
			} else {
				wr.Events = append(wr.Events, *bodyFromBytes(norm.JSON(f, ctx)))
			}
		}
		ex.Watch = wr
		return ex
	}
	switch {
	case len(a.Body) == 0:
	case s.Digest != "":
		d, err := openapiDigest(a.Body, a.Header.Get("Content-Type"))
		if err != nil {
			msg := "digest: " + err.Error()
			ex.Body = &Body{Text: &msg}
		} else {
			ex.Body = &Body{Digest: json.RawMessage(norm.JSON(d, ctx))}
		}
	case bytes.HasPrefix(a.Body, protoMagic):
		ex.Body = &Body{Protobuf: protoRecord(a.Body, norm, ctx)}
	case strings.Contains(a.Header.Get("Content-Type"), "yaml"):
		ex.Body = bodyFromBytes(norm.YAML(a.Body, ctx))
	default:
		ex.Body = bodyFromBytes(norm.JSON(a.Body, ctx))
	}
	return ex
}

// writeRecorded writes a recorded file (indented, HTML characters unescaped, newline at the end).
func writeRecorded(path string, rf *RecordedFile) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rf); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func readRecorded(path string) (*RecordedFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rf RecordedFile
	if err := json.Unmarshal(data, &rf); err != nil {
		return nil, err
	}
	return &rf, nil
}
