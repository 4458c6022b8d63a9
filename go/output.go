// The server's output: both streams split into lines, copied to
// Options.Output, the last lines kept for error messages, and the ready line
// watched for.

package apiserverlite

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// tailLines is how many of the server's last output lines an error quotes.
const tailLines = 20

// maxLine caps a line kept in the tail (the rest of a longer line still goes
// to Options.Output).
const maxLine = 4096

// outputLog is shared by the stdout and stderr writers of one process.
type outputLog struct {
	mu    sync.Mutex
	out   io.Writer
	tail  []string // ring of the last tailLines lines
	next  int
	full  bool
	ready chan string // receives the URL of the first "ready: https://" line
	sent  bool
}

func newOutputLog(out io.Writer) *outputLog {
	return &outputLog{out: out, tail: make([]string, tailLines), ready: make(chan string, 1)}
}

// line records one complete line (without its newline) from either stream.
func (l *outputLog) line(s string, fromStdout bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A failing Output must not stop the draining of the pipes.
	_, _ = io.WriteString(l.out, s+"\n")
	kept := s
	if len(kept) > maxLine {
		kept = kept[:maxLine] + "…"
	}
	l.tail[l.next] = kept
	l.next = (l.next + 1) % len(l.tail)
	if l.next == 0 {
		l.full = true
	}
	if fromStdout && !l.sent {
		if u, ok := strings.CutPrefix(strings.TrimSpace(s), "ready: "); ok && strings.HasPrefix(u, "https://") {
			l.sent = true
			l.ready <- u
		}
	}
}

// Tail returns the last lines seen, oldest first, joined by newlines.
func (l *outputLog) Tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var lines []string
	if l.full {
		lines = append(lines, l.tail[l.next:]...)
	}
	lines = append(lines, l.tail[:l.next]...)
	return strings.Join(lines, "\n")
}

// stream is the io.Writer given to exec.Cmd for one of the two streams; exec
// copies the pipe into it from its own goroutine until the pipe closes, so
// the child never blocks on a full pipe.
type stream struct {
	log     *outputLog
	stdout  bool
	partial []byte
}

func (w *stream) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		line := append(w.partial, p[:i]...)
		w.partial = w.partial[:0]
		w.log.line(strings.TrimSuffix(string(line), "\r"), w.stdout)
		p = p[i+1:]
	}
	return n, nil
}

// flush emits a last line that had no newline; call it once the stream closed.
func (w *stream) flush() {
	if len(w.partial) > 0 {
		w.log.line(string(w.partial), w.stdout)
		w.partial = nil
	}
}
