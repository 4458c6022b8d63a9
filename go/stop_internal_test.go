// Stop's harder paths, which need the process's pid: a server that ignores
// SIGTERM is killed after StopTimeout, and one that died early is reported.

package apiserverlite

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// processAlive tells whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

func TestStopKillsAServerThatDoesNotStop(t *testing.T) {
	t.Parallel()
	s, err := Start(context.Background(), Options{StopTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	pid := s.cmd.Process.Pid
	if pgid, err := syscall.Getpgid(pid); err != nil || pgid != pid {
		t.Errorf("server pid %d is in process group %d (%v), want its own", pid, pgid, err)
	}
	// A stopped process does not act on SIGTERM; SIGKILL still ends it.
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	err = s.Stop()
	if err == nil || !strings.Contains(err.Error(), "did not stop within 300ms of SIGTERM and was killed") {
		t.Errorf("Stop of a stopped process = %v, want the kill reported", err)
	}
	if took := time.Since(began); took < 300*time.Millisecond || took > 10*time.Second {
		t.Errorf("Stop took %v, want StopTimeout then the kill", took)
	}
	if processAlive(pid) {
		t.Errorf("pid %d alive after Stop", pid)
	}
	if _, err := os.Stat(s.tmpDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary directory %s after Stop: %v", s.tmpDir, err)
	}
	if again := s.Stop(); again == nil || again.Error() != err.Error() {
		t.Errorf("second Stop = %v, want the first result again", again)
	}
}

func TestStopReportsAServerThatDiedEarly(t *testing.T) {
	t.Parallel()
	s, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	pid := s.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s.exited
	err = s.Stop()
	if err == nil || !strings.Contains(err.Error(), "had exited before Stop (signal: killed)") {
		t.Errorf("Stop after the server was killed = %v", err)
	}
	if _, err := os.Stat(s.tmpDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary directory %s after Stop: %v", s.tmpDir, err)
	}
}

func TestStopAfterSIGTERMIsClean(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	s, err := Start(context.Background(), Options{Output: &out})
	if err != nil {
		t.Fatal(err)
	}
	pid := s.cmd.Process.Pid
	began := time.Now()
	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("Stop took %v", took)
	}
	if processAlive(pid) {
		t.Errorf("pid %d alive after Stop", pid)
	}
	if code := s.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("server exit code after SIGTERM = %d, want 0", code)
	}
	// Output got both streams: the ready line (stdout) and the klog
	// "Serving" line (stderr).
	for _, want := range []string{"ready: " + s.URL(), `"Serving" address="` + s.URL() + `"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("Output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestOutputTailKeepsTheLastLines(t *testing.T) {
	log := newOutputLog(&strings.Builder{})
	w := &stream{log: log}
	for i := range 30 {
		if _, err := w.Write([]byte("line " + strconv.Itoa(i) + "\nhalf")); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte("-" + strconv.Itoa(i) + "\r\n")); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = w.Write([]byte("no newline"))
	w.flush()
	lines := strings.Split(log.Tail(), "\n")
	if len(lines) != tailLines || lines[len(lines)-1] != "no newline" || lines[len(lines)-2] != "half-29" ||
		lines[0] != "half-20" {
		t.Errorf("tail = %q", lines)
	}
}
