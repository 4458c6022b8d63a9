// The test binary's entry: it needs the real server binary, and fails (never
// skips) when the environment does not say where it is.

package apiserverlite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-logr/logr"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
)

func TestMain(m *testing.M) {
	if os.Getenv(apiserverlite.EnvBinary) == "" && os.Getenv(apiserverlite.EnvAssets) == "" {
		fmt.Fprintf(os.Stderr, "FAIL: these tests run the real kube-apiserver-lite binary: set %s=/path/to/kube-apiserver-lite "+
			"or %s=/path/to/kube-apiserver-lite/build/envtest\n", apiserverlite.EnvBinary, apiserverlite.EnvAssets)
		os.Exit(1)
	}
	bin, err := apiserverlite.FindBinary("")
	if err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: %v\n", err)
		os.Exit(1)
	}
	// envtest (the envtest test and ExampleNewAdmin) reads KUBEBUILDER_ASSETS;
	// given only the binary, lay out such a directory: the binary acts as
	// kube-apiserver and as etcd by the name it is run under.
	cleanup := func() {}
	if os.Getenv(apiserverlite.EnvAssets) == "" {
		dir, err := os.MkdirTemp("", "kube-apiserver-lite-assets-")
		if err == nil {
			for _, name := range []string{"kube-apiserver", "etcd"} {
				if err == nil {
					err = os.Symlink(bin, filepath.Join(dir, name))
				}
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "FAIL: laying out an envtest assets directory: %v\n", err)
			os.Exit(1)
		}
		os.Setenv(apiserverlite.EnvAssets, dir)
		cleanup = func() { os.RemoveAll(dir) }
	}
	// envtest logs through controller-runtime's logger; without one it
	// complains on the first use.
	ctrllog.SetLogger(logr.Discard())
	code := m.Run()
	cleanup()
	os.Exit(code)
}
