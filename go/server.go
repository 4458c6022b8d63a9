// Start and Stop: one kube-apiserver-lite process per Server, in its own
// process group, with its certificates and kubeconfig in a temporary
// directory.

package apiserverlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Server is a running kube-apiserver-lite process. Its embedded *Admin resets
// and snapshots the server's state. Stop it when done (t.Cleanup(func() {
// _ = s.Stop() }) in a test); the process and its temporary files are not
// tied to the context given to Start.
type Server struct {
	*Admin

	opts       Options
	binary     string
	tmpDir     string
	kubeconfig string
	url        string
	config     *rest.Config

	cmd     *exec.Cmd
	log     *outputLog
	exited  chan struct{} // closed once the process has been waited for
	waitErr error         // the process's exit, valid once exited is closed

	stopOnce sync.Once
	stopErr  error
}

// Start runs the server binary on a free loopback port with HTTPS and waits
// until it is ready and its kubeconfig is written:
//
//	BINARY --secure-port 0 --bind-address 127.0.0.1 --cert-dir TMP/certs \
//	       --kubeconfig-out TMP/kubeconfig [--data-dir DIR] ARGS...
//
// It fails, with the last lines of the server's output, when the process
// exits first or when Options.StartTimeout passes; cancelling ctx aborts the
// start. On failure the process group is killed and the temporary directory
// removed. ctx only bounds the start: the server runs until Stop.
func Start(ctx context.Context, opts Options) (*Server, error) {
	opts = opts.withDefaults()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("apiserverlite: start aborted: %w", err)
	}
	binary, err := FindBinary(opts.BinaryPath)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "kube-apiserver-lite-")
	if err != nil {
		return nil, fmt.Errorf("apiserverlite: %w", err)
	}
	s := &Server{
		opts:       opts,
		binary:     binary,
		tmpDir:     tmp,
		kubeconfig: filepath.Join(tmp, "kubeconfig"),
		log:        newOutputLog(opts.Output),
		exited:     make(chan struct{}),
	}
	if err := s.start(ctx); err != nil {
		s.kill()
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	return s, nil
}

// start launches the process and waits for it to be ready.
func (s *Server) start(ctx context.Context) error {
	certDir := filepath.Join(s.tmpDir, "certs")
	if err := os.Mkdir(certDir, 0o700); err != nil {
		return fmt.Errorf("apiserverlite: %w", err)
	}
	args := []string{
		"--secure-port", "0",
		"--bind-address", "127.0.0.1",
		"--cert-dir", certDir,
		"--kubeconfig-out", s.kubeconfig,
	}
	if s.opts.DataDir != "" {
		if err := os.MkdirAll(s.opts.DataDir, 0o700); err != nil {
			return fmt.Errorf("apiserverlite: data dir: %w", err)
		}
		args = append(args, "--data-dir", s.opts.DataDir)
	}
	args = append(args, s.opts.Args...)

	stdout := &stream{log: s.log, stdout: true}
	stderr := &stream{log: s.log}
	s.cmd = exec.Command(s.binary, args...)
	s.cmd.Stdout = stdout
	s.cmd.Stderr = stderr
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A grandchild keeping the pipes open must not hold up Wait forever.
	s.cmd.WaitDelay = 5 * time.Second
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("apiserverlite: starting %s: %w", s.binary, err)
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		stdout.flush()
		stderr.flush()
		close(s.exited)
	}()

	timer := time.NewTimer(s.opts.StartTimeout)
	defer timer.Stop()
	select {
	case s.url = <-s.log.ready:
	case <-s.exited:
		return s.startError(fmt.Sprintf("exited before it was ready (%v)", s.waitErr))
	case <-timer.C:
		return s.startError(fmt.Sprintf("not ready within %v", s.opts.StartTimeout))
	case <-ctx.Done():
		return fmt.Errorf("apiserverlite: start of %s aborted: %w", s.binary, ctx.Err())
	}

	// The kubeconfig is written atomically once the server is ready; it may
	// land just after the ready line.
	poll := time.NewTicker(5 * time.Millisecond)
	defer poll.Stop()
	for {
		cfg, err := s.loadKubeconfig()
		if err == nil {
			s.config = cfg
			break
		}
		select {
		case <-poll.C:
		case <-s.exited:
			return s.startError(fmt.Sprintf("exited before writing its kubeconfig (%v)", s.waitErr))
		case <-timer.C:
			return s.startError(fmt.Sprintf("no kubeconfig within %v: %v", s.opts.StartTimeout, err))
		case <-ctx.Done():
			return fmt.Errorf("apiserverlite: start of %s aborted: %w", s.binary, ctx.Err())
		}
	}
	admin, err := NewAdmin(s.config)
	if err != nil {
		return err
	}
	s.Admin = admin
	return nil
}

func (s *Server) loadKubeconfig() (*rest.Config, error) {
	data, err := os.ReadFile(s.kubeconfig)
	if err != nil {
		return nil, err
	}
	return clientcmd.RESTConfigFromKubeConfig(data)
}

// startError describes a failed start with the server's last output lines.
func (s *Server) startError(what string) error {
	msg := fmt.Sprintf("apiserverlite: %s %s", s.binary, what)
	if tail := s.log.Tail(); tail != "" {
		msg += "; its last output:\n" + tail
	}
	return errors.New(msg)
}

// kill ends the process group at once and waits for the process.
func (s *Server) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.exited
}

// Config returns a fresh copy of the admin's client configuration (a
// client certificate in group system:masters, the server's CA); callers may
// change it freely.
func (s *Server) Config() *rest.Config {
	return rest.CopyConfig(s.config)
}

// URL is the server's base URL, https://127.0.0.1:PORT.
func (s *Server) URL() string { return s.url }

// KubeconfigPath is the kubeconfig the server wrote (admin credentials); it
// is removed by Stop.
func (s *Server) KubeconfigPath() string { return s.kubeconfig }

// Stop sends SIGTERM to the server's process group, waits up to
// Options.StopTimeout for it to exit, then sends SIGKILL; it then removes the
// temporary directory (never Options.DataDir). It may be called more than
// once and concurrently: every call waits for the first one and returns its
// result. It reports a server that had to be killed or that exited with an
// error.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() { s.stopErr = s.stop() })
	return s.stopErr
}

func (s *Server) stop() error {
	var err error
	select {
	case <-s.exited:
		// Already gone (it crashed, or someone else killed it).
		if s.waitErr != nil {
			err = s.stopError(fmt.Sprintf("had exited before Stop (%v)", s.waitErr))
		}
	default:
		pgid := -s.cmd.Process.Pid
		_ = syscall.Kill(pgid, syscall.SIGTERM)
		timer := time.NewTimer(s.opts.StopTimeout)
		select {
		case <-s.exited:
			timer.Stop()
			// Anything the server left in its group goes too.
			_ = syscall.Kill(pgid, syscall.SIGKILL)
			if s.waitErr != nil && !terminatedBy(s.waitErr, syscall.SIGTERM) {
				err = s.stopError(fmt.Sprintf("exited with an error after SIGTERM (%v)", s.waitErr))
			}
		case <-timer.C:
			_ = syscall.Kill(pgid, syscall.SIGKILL)
			<-s.exited
			err = s.stopError(fmt.Sprintf("did not stop within %v of SIGTERM and was killed", s.opts.StopTimeout))
		}
	}
	if rmErr := os.RemoveAll(s.tmpDir); rmErr != nil && err == nil {
		err = fmt.Errorf("apiserverlite: removing %s: %w", s.tmpDir, rmErr)
	}
	return err
}

func (s *Server) stopError(what string) error {
	msg := fmt.Sprintf("apiserverlite: %s (pid %d) %s", s.binary, s.cmd.Process.Pid, what)
	if tail := s.log.Tail(); tail != "" {
		msg += "; its last output:\n" + tail
	}
	return errors.New(msg)
}

// terminatedBy tells whether err is an exit caused by signal sig.
func terminatedBy(err error, sig syscall.Signal) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return false
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}
