// Options for Start and how the server binary is found.

package apiserverlite

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Environment variables read when Options.BinaryPath is empty.
const (
	// EnvBinary names the kube-apiserver-lite binary to run.
	EnvBinary = "KUBE_APISERVER_LITE"
	// EnvAssets is envtest's assets directory; its kube-apiserver is used
	// when EnvBinary is unset (kube-apiserver-lite's build/envtest is one).
	EnvAssets = "KUBEBUILDER_ASSETS"
	// BinaryName is the name looked up on $PATH as the last resort.
	BinaryName = "kube-apiserver-lite"
)

// Defaults for the zero values of Options.
const (
	DefaultStartTimeout = 20 * time.Second
	DefaultStopTimeout  = 20 * time.Second
)

// Options configure Start. The zero value starts an in-memory server with the
// binary found through the environment.
type Options struct {
	// BinaryPath is the kube-apiserver-lite binary. Empty: $KUBE_APISERVER_LITE,
	// else $KUBEBUILDER_ASSETS/kube-apiserver, else kube-apiserver-lite on $PATH.
	BinaryPath string
	// Args are extra flags for the binary (any kube-apiserver flag), passed
	// after the ones Start sets, so a repeated flag here wins.
	Args []string
	// DataDir persists the server's state there; "" keeps everything in
	// memory. Stop never removes a DataDir.
	DataDir string
	// StartTimeout bounds the wait for the server to be ready (default 20s).
	StartTimeout time.Duration
	// StopTimeout is how long Stop waits after SIGTERM before it sends
	// SIGKILL (default 20s).
	StopTimeout time.Duration
	// Output receives the server's stdout and stderr, line by line; nil
	// discards them. Writes are serialised, so an io.Writer that is not safe
	// for concurrent use (a bytes.Buffer, a testing log adapter) is fine.
	Output io.Writer
}

// withDefaults returns a copy of o with the defaults filled in.
func (o Options) withDefaults() Options {
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.StopTimeout <= 0 {
		o.StopTimeout = DefaultStopTimeout
	}
	if o.Output == nil {
		o.Output = io.Discard
	}
	return o
}

// FindBinary returns the binary Start would run for the given
// Options.BinaryPath: path itself if non-empty, else $KUBE_APISERVER_LITE,
// else $KUBEBUILDER_ASSETS/kube-apiserver, else kube-apiserver-lite on $PATH.
// It fails when the chosen file does not exist or is not executable.
func FindBinary(path string) (string, error) {
	source := "Options.BinaryPath"
	switch {
	case path != "":
	case os.Getenv(EnvBinary) != "":
		path, source = os.Getenv(EnvBinary), "$"+EnvBinary
	case os.Getenv(EnvAssets) != "":
		path, source = filepath.Join(os.Getenv(EnvAssets), "kube-apiserver"), "$"+EnvAssets
	default:
		found, err := exec.LookPath(BinaryName)
		if err != nil {
			return "", fmt.Errorf("apiserverlite: no server binary: set Options.BinaryPath, $%s or $%s, or put %s on $PATH",
				EnvBinary, EnvAssets, BinaryName)
		}
		return found, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("apiserverlite: server binary from %s: %w", source, err)
	}
	if info.IsDir() || info.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("apiserverlite: server binary from %s: %s is not an executable file", source, path)
	}
	return path, nil
}
