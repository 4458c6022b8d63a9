// Running one corpus step: building its request body, sending it (polling for waitFor), reading a
// bounded watch stream, and capturing variables for later steps.
package golden

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Answer is what the server said to one step, before normalisation.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte   // the whole body (not for a 200 watch)
	Frames [][]byte // watch frames: a JSON event with the whitespace after it, or a protobuf frame's payload
	End    string   // watch: "events" (the count was reached), "closed" (by the server) or "timeout"
	// ProtobufStream: the frames are length-prefixed protobuf WatchEvents.
	ProtobufStream bool
	Request        string // method and path as sent
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// requestBody encodes the step's body; it also returns the default Content-Type for it.
func requestBody(s *Step, contentType string) ([]byte, string, error) {
	switch {
	case s.Body.Kind != 0:
		if strings.Contains(contentType, "yaml") {
			b, err := nodeToYAML(&s.Body)
			return b, "application/yaml", err
		}
		b, err := nodeToJSON(&s.Body)
		return b, "application/json", err
	case s.BodyRaw != nil:
		return []byte(*s.BodyRaw), "application/json", nil
	case s.BodyBase64 != "":
		b, err := base64.StdEncoding.DecodeString(s.BodyBase64)
		return b, "application/vnd.kubernetes.protobuf", err
	case s.BodyProtobuf.Kind != 0:
		// Substitution happens on the JSON form, before encoding (see Run).
		b, err := nodeToJSON(&s.BodyProtobuf)
		return b, "application/vnd.kubernetes.protobuf", err
	}
	return nil, "", nil
}

// Run performs one step. vars holds the captured variables; missing lists the ${names} that
// were not captured (the step then runs with them empty).
func (srv *Server) Run(s *Step, vars map[string]string) (a *Answer, missing []string, err error) {
	path, m := substitute(s.Path, vars)
	missing = append(missing, m...)
	headers := map[string]string{}
	for k, v := range s.Headers {
		headers[k], m = substitute(v, vars)
		missing = append(missing, m...)
	}
	body, defaultCT, err := requestBody(s, headers["Content-Type"])
	if err != nil {
		return nil, missing, err
	}
	if body != nil && s.BodyBase64 == "" {
		var text string
		text, m = substitute(string(body), vars)
		missing = append(missing, m...)
		body = []byte(text)
	}
	if s.BodyProtobuf.Kind != 0 {
		if body, err = encodeProtobuf(body); err != nil {
			return nil, missing, err
		}
	}
	if body != nil && headers["Content-Type"] == "" {
		headers["Content-Type"] = defaultCT
	}
	method := s.HTTPMethod()
	if s.WaitFor == nil {
		a, err = srv.once(s, method, path, headers, body)
		return a, missing, err
	}
	timeout := time.Duration(s.WaitFor.TimeoutSeconds) * time.Second
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	deadline := time.Now().Add(timeout)
	for {
		a, err = srv.once(s, method, path, headers, body)
		if err == nil && waitSatisfied(s.WaitFor, a) {
			return a, missing, nil
		}
		if time.Now().After(deadline) {
			return a, missing, err
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func waitSatisfied(w *WaitFor, a *Answer) bool {
	if w.Status != 0 && a.Status != w.Status {
		return false
	}
	if w.Contains != "" && !bytes.Contains(bytes.Join(append([][]byte{a.Body}, a.Frames...), nil), []byte(w.Contains)) {
		return false
	}
	if w.Condition != "" {
		var obj struct {
			Status struct {
				Conditions []struct{ Type, Status string } `json:"conditions"`
			} `json:"status"`
		}
		if json.Unmarshal(a.Body, &obj) != nil {
			return false
		}
		for _, c := range obj.Status.Conditions {
			if c.Type == w.Condition && c.Status == "True" {
				return true
			}
		}
		return false
	}
	return true
}

func (srv *Server) once(s *Step, method, path string, headers map[string]string, body []byte) (*Answer, error) {
	timeout := 60 * time.Second
	if s.Watch != nil {
		timeout = time.Duration(s.Watch.TimeoutSeconds)*time.Second + 5*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	resp, err := srv.send(ctx, s.User, method, path, headers, body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	a := &Answer{Status: resp.StatusCode, Header: resp.Header, Request: method + " " + path}
	if s.Watch != nil && resp.StatusCode == http.StatusOK {
		protobufStream := strings.HasPrefix(resp.Header.Get("Content-Type"), "application/vnd.kubernetes.protobuf")
		a.ProtobufStream = protobufStream
		a.Frames, a.End = readWatch(resp.Body, s.Watch, protobufStream)
		return a, nil
	}
	a.Body, err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the body: %w", method, path, err)
	}
	return a, nil
}

// readWatch reads frames until w.Events arrived, the stream ended, or the timeout passed.
func readWatch(body io.Reader, w *WatchSpec, protobufStream bool) ([][]byte, string) {
	type chunk struct {
		data []byte
		err  error
	}
	chunks := make(chan chunk, 16)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := body.Read(buf)
			select {
			case chunks <- chunk{buf[:n], err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	deadline := time.After(time.Duration(w.TimeoutSeconds) * time.Second)
	var buf []byte
	var frames [][]byte
	eof := false
	for {
		// Take every complete frame from the buffer.
		for len(frames) < w.Events {
			var f []byte
			var rest []byte
			if protobufStream {
				f, rest = splitProtobufFrame(buf)
			} else {
				f, rest = splitJSONFrame(buf, eof)
			}
			if f == nil {
				break
			}
			frames = append(frames, f)
			buf = rest
		}
		if len(frames) >= w.Events {
			return frames, "events"
		}
		if eof {
			if len(bytes.TrimSpace(buf)) > 0 {
				frames = append(frames, buf) // a partial frame: recorded as it is
			}
			return frames, "closed"
		}
		var settle <-chan time.Time
		if !protobufStream && len(bytes.TrimSpace(buf)) > 0 {
			settle = time.After(500 * time.Millisecond) // a complete event waiting for its newline
		}
		select {
		case c, ok := <-chunks:
			if !ok {
				eof = true
				continue
			}
			buf = append(buf, c.data...)
			if c.err != nil {
				eof = true
			}
		case <-settle:
			if f, rest := splitJSONFrame(buf, true); f != nil {
				frames = append(frames, f)
				buf = rest
			}
		case <-deadline:
			return frames, "timeout"
		}
	}
}

// splitJSONFrame takes one JSON value and the whitespace after it off buf. Without final, the
// frame is complete only when a byte after its whitespace has arrived (so a trailing newline sent
// late still belongs to it).
func splitJSONFrame(buf []byte, final bool) (frame, rest []byte) {
	i := 0
	for i < len(buf) && isSpace(buf[i]) {
		i++
	}
	if i == len(buf) {
		return nil, buf
	}
	depth, inString, escaped := 0, false, false
	end := -1
	for j := i; j < len(buf); j++ {
		c := buf[j]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				end = j + 1
			}
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return nil, buf
	}
	k := end
	for k < len(buf) && isSpace(buf[k]) {
		k++
	}
	if k == len(buf) && !final {
		return nil, buf
	}
	return append([]byte(nil), buf[:k]...), buf[k:]
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// splitProtobufFrame takes one length-prefixed frame off buf.
func splitProtobufFrame(buf []byte) (frame, rest []byte) {
	if len(buf) < 4 {
		return nil, buf
	}
	n := int(binary.BigEndian.Uint32(buf))
	if len(buf) < 4+n {
		return nil, buf
	}
	return append([]byte(nil), buf[4:4+n]...), buf[4+n:]
}

// capture stores the step's captures from the answer's JSON body (or decoded protobuf body).
func capture(s *Step, a *Answer, vars map[string]string) []string {
	if len(s.Capture) == 0 || a == nil {
		return nil
	}
	body := a.Body
	if bytes.HasPrefix(body, protoMagic) {
		if d, _, _, err := decodeProtobuf(body); err == nil {
			body = d
		}
	}
	var v any
	_ = json.Unmarshal(body, &v)
	var failed []string
	for name, path := range s.Capture {
		val, ok := lookupPath(v, path)
		if !ok {
			failed = append(failed, name+"="+path)
		}
		vars[name] = val
	}
	return failed
}
