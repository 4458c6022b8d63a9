// Helpers shared by the tests: a server per test, clients, waiting.

package apiserverlite_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
)

// syncBuffer collects a server's output for the test's log on failure.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startServer starts a server for one test and stops it when the test ends,
// logging its output if the test failed.
func startServer(t testing.TB, opts apiserverlite.Options) *apiserverlite.Server {
	t.Helper()
	out := &syncBuffer{}
	if opts.Output == nil {
		opts.Output = out
	}
	s, err := apiserverlite.Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
		if t.Failed() && out.String() != "" {
			t.Logf("server output:\n%s", out.String())
		}
	})
	return s
}

// clientset is a client-go clientset for the admin config of s.
func clientset(t testing.TB, s *apiserverlite.Server) kubernetes.Interface {
	t.Helper()
	cfg := s.Config()
	cfg.QPS, cfg.Burst = 1000, 2000 // client-go's default 5 per second would dominate
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("kubernetes.NewForConfig: %v", err)
	}
	return c
}

// testContext is a context that ends with the test (or after a minute).
func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// createConfigMap creates namespace/name with one data key.
func createConfigMap(ctx context.Context, t testing.TB, c kubernetes.Interface, namespace, name string) *corev1.ConfigMap {
	t.Helper()
	cm, err := c.CoreV1().ConfigMaps(namespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Data:       map[string]string{"key": name},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create configmap %s/%s: %v", namespace, name, err)
	}
	return cm
}

// createNamespace creates a namespace.
func createNamespace(ctx context.Context, t testing.TB, c kubernetes.Interface, name string) {
	t.Helper()
	if _, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}},
		metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
}

// namespaceNames lists the names of all namespaces.
func namespaceNames(ctx context.Context, t testing.TB, c kubernetes.Interface) map[string]bool {
	t.Helper()
	list, err := c.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list namespaces: %v", err)
	}
	names := map[string]bool{}
	for _, ns := range list.Items {
		names[ns.Name] = true
	}
	return names
}

// eventually polls cond every 10ms until it holds or 10s pass.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processesMentioning lists the pids of live processes whose command line
// contains s (a temporary directory only one test uses).
func processesMentioning(t testing.TB, s string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("reading /proc: %v", err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue // gone meanwhile
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && isZombie(stat) {
			continue
		}
		if strings.Contains(string(cmdline), s) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// isZombie reads the state field of /proc/PID/stat.
func isZombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// useTempDir points os.TempDir (hence Start's temporary directory) at a fresh
// directory for this test and returns it. Not for parallel tests.
func useTempDir(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}
