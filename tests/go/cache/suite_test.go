// Suite set-up of the informer and manager-cache tests. client-go 1.36 reads its WatchListClient
// gate once per process, so the package runs twice: TestMain, started without KAL_CACHE_WATCHLIST,
// re-executes the test binary with the same flags once with KUBE_FEATURE_WatchListClient=true
// (streaming lists) and once with =false (LIST then WATCH), prefixes every output line with the
// mode, and fails naming each mode that failed. Each child starts one envtest.Environment.
package cache_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/internal/testenv"
)

const modeEnv = "KAL_CACHE_WATCHLIST"

var (
	testEnv *envtest.Environment
	cfg     *rest.Config
	scheme  = runtime.NewScheme()
	k8s     client.Client
	// watchList is true in the child that runs with streaming lists.
	watchList bool
)

func TestMain(m *testing.M) {
	mode := os.Getenv(modeEnv)
	if mode == "" {
		os.Exit(runInBothModes())
	}
	watchList = mode == "true"
	if os.Getenv("KAL_TEST_LOG") != "" {
		crlog.SetLogger(funcr.New(func(prefix, args string) { fmt.Fprintln(os.Stderr, prefix, args) }, funcr.Options{Verbosity: 1}))
	} else {
		crlog.SetLogger(logr.Discard())
	}
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	testEnv = &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "testdata", "crds")},
		ErrorIfCRDPathMissing: true,
	}
	os.Exit(testenv.Run(m, testEnv, func(c *rest.Config) (err error) {
		cfg = c
		k8s, err = client.New(cfg, client.Options{Scheme: scheme})
		return err
	}))
}

// runInBothModes runs this test binary again per WatchListClient setting and returns the exit
// code: 0 when both passed.
func runInBothModes() int {
	var failed []string
	for _, mode := range []string{"true", "false"} {
		label := fmt.Sprintf("[WatchListClient=%s] ", mode)
		cmd := exec.Command(os.Args[0], os.Args[1:]...)
		cmd.Env = append(os.Environ(), modeEnv+"="+mode, "KUBE_FEATURE_WatchListClient="+mode)
		var wg sync.WaitGroup
		stdout, _ := cmd.StdoutPipe()
		stderr, _ := cmd.StderrPipe()
		var mu sync.Mutex
		for _, pipe := range []struct {
			r io.Reader
			w io.Writer
		}{{stdout, os.Stdout}, {stderr, os.Stderr}} {
			wg.Add(1)
			go func(r io.Reader, w io.Writer) {
				defer wg.Done()
				sc := bufio.NewScanner(r)
				sc.Buffer(make([]byte, 1<<20), 1<<20)
				for sc.Scan() {
					mu.Lock()
					fmt.Fprintln(w, label+sc.Text())
					mu.Unlock()
				}
			}(pipe.r, pipe.w)
		}
		start := time.Now()
		err := cmd.Start()
		if err == nil {
			wg.Wait()
			err = cmd.Wait()
		}
		if err != nil {
			failed = append(failed, mode)
			fmt.Printf("FAIL: the cache tests failed with KUBE_FEATURE_WatchListClient=%s (%s): %v\n", mode, describeMode(mode), err)
		} else {
			fmt.Printf("%sall cache tests passed (%s) in %s\n", label, describeMode(mode), time.Since(start).Round(time.Millisecond))
		}
	}
	if len(failed) > 0 {
		fmt.Printf("FAIL: cache tests failed in mode(s) WatchListClient=%s\n", strings.Join(failed, ", WatchListClient="))
		return 1
	}
	return 0
}

func describeMode(mode string) string {
	if mode == "true" {
		return "streaming list: watch with sendInitialEvents=true"
	}
	return "LIST then WATCH"
}

// testContext is a context that ends with the test (or after a minute).
func testContext(t *testing.T) context.Context { return testenv.Context(t) }

// newNamespace creates a namespace of its own for one test and deletes it afterwards.
func newNamespace(t *testing.T) string { return testenv.Namespace(t, k8s, "cache-test-") }
