// Start, Config, Stop and the server's lifecycle, against the real binary.

package apiserverlite_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
)

func TestStartConfigServesClientGo(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startServer(t, apiserverlite.Options{})

	u, err := url.Parse(s.URL())
	if err != nil || u.Scheme != "https" || u.Hostname() != "127.0.0.1" || u.Port() == "" || u.Port() == "0" {
		t.Fatalf("URL() = %q (%v), want https://127.0.0.1:PORT", s.URL(), err)
	}
	cfg := s.Config()
	if cfg.Host != s.URL() {
		t.Errorf("Config().Host = %q, want URL() %q", cfg.Host, s.URL())
	}
	if len(cfg.CAData) == 0 || len(cfg.CertData) == 0 || len(cfg.KeyData) == 0 {
		t.Errorf("Config() lacks CA or client certificate: CA %d, cert %d, key %d bytes",
			len(cfg.CAData), len(cfg.CertData), len(cfg.KeyData))
	}
	// Config hands out copies: changing one does not change the next.
	cfg.Host = "https://example.invalid"
	if s.Config().Host != s.URL() {
		t.Errorf("changing a Config() copy changed the server's config")
	}
	if _, err := os.Stat(s.KubeconfigPath()); err != nil {
		t.Errorf("kubeconfig: %v", err)
	}

	c := clientset(t, s)
	createConfigMap(ctx, t, c, "default", "first")
	createConfigMap(ctx, t, c, "default", "second")
	list, err := c.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list configmaps: %v", err)
	}
	var names []string
	for _, cm := range list.Items {
		names = append(names, cm.Name)
	}
	if strings.Join(names, ",") != "first,second" {
		t.Errorf("configmaps in default = %v, want [first second]", names)
	}
	got, err := c.CoreV1().ConfigMaps("default").Get(ctx, "second", metav1.GetOptions{})
	if err != nil || got.Data["key"] != "second" {
		t.Errorf("get configmap second = %v, %v", got, err)
	}

	// The admin user is in system:masters.
	review, err := c.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{},
		metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("SelfSubjectReview: %v", err)
	}
	found := false
	for _, g := range review.Status.UserInfo.Groups {
		found = found || g == "system:masters"
	}
	if !found {
		t.Errorf("admin user %q groups = %v, want system:masters among them",
			review.Status.UserInfo.Username, review.Status.UserInfo.Groups)
	}
}

func TestStopIsIdempotentAndClosesThePort(t *testing.T) {
	t.Parallel()
	s, err := apiserverlite.Start(context.Background(), apiserverlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(s.URL(), "https://")
	conn, err := net.DialTimeout("tcp", host, time.Second)
	if err != nil {
		t.Fatalf("dial %s while running: %v", host, err)
	}
	conn.Close()

	// Concurrent calls all wait for the one stop and share its result.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = s.Stop() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("concurrent Stop #%d: %v", i, err)
		}
	}
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if conn, err := net.DialTimeout("tcp", host, time.Second); err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after Stop", host)
	}
	if _, err := os.Stat(s.KubeconfigPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("kubeconfig %s after Stop: %v, want it removed", s.KubeconfigPath(), err)
	}
	if pids := processesMentioning(t, filepath.Dir(s.KubeconfigPath())); len(pids) > 0 {
		t.Errorf("processes of the stopped server still running: %v", pids)
	}
	// The admin API is gone with the server.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Reset(ctx); err == nil {
		t.Errorf("Reset after Stop succeeded")
	}
}

func TestParallelServersAreIsolated(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	var a, b *apiserverlite.Server
	var wg sync.WaitGroup
	wg.Go(func() { a = startServerNoFatal(t) })
	wg.Go(func() { b = startServerNoFatal(t) })
	wg.Wait()
	if a == nil || b == nil {
		t.FailNow()
	}
	if a.URL() == b.URL() {
		t.Fatalf("both servers serve %s", a.URL())
	}
	ca, cb := clientset(t, a), clientset(t, b)
	createConfigMap(ctx, t, ca, "default", "only-in-a")
	createConfigMap(ctx, t, cb, "default", "only-in-b")
	if _, err := cb.CoreV1().ConfigMaps("default").Get(ctx, "only-in-a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("b sees a's configmap: %v", err)
	}
	if err := a.Snapshot(ctx, "a-state"); err != nil {
		t.Fatalf("a.Snapshot: %v", err)
	}
	snaps, err := b.Snapshots(ctx)
	if err != nil || len(snaps) != 0 {
		t.Errorf("b.Snapshots = %v, %v; want none", snaps, err)
	}
	if err := b.Reset(ctx); err != nil {
		t.Fatalf("b.Reset: %v", err)
	}
	if _, err := ca.CoreV1().ConfigMaps("default").Get(ctx, "only-in-a", metav1.GetOptions{}); err != nil {
		t.Errorf("b's reset removed a's configmap: %v", err)
	}
	if _, err := cb.CoreV1().ConfigMaps("default").Get(ctx, "only-in-b", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("b's configmap survived b's reset: %v", err)
	}
}

// startServerNoFatal is startServer for use off the test's goroutine.
func startServerNoFatal(t *testing.T) *apiserverlite.Server {
	s, err := apiserverlite.Start(context.Background(), apiserverlite.Options{})
	if err != nil {
		t.Errorf("Start: %v", err)
		return nil
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return s
}

func TestDataDirPersistsAcrossRestart(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	dataDir := filepath.Join(t.TempDir(), "data")
	opts := apiserverlite.Options{DataDir: dataDir}

	first, err := apiserverlite.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := clientset(t, first)
	createNamespace(ctx, t, c, "kept")
	created := createConfigMap(ctx, t, c, "kept", "survivor")
	if err := first.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if entries, err := os.ReadDir(dataDir); err != nil || len(entries) == 0 {
		t.Fatalf("data dir after Stop: %v entries, %v; want it kept with the store", len(entries), err)
	}

	second := startServer(t, opts)
	if second.URL() == "" {
		t.Fatal("no URL")
	}
	c = clientset(t, second)
	got, err := c.CoreV1().ConfigMaps("kept").Get(ctx, "survivor", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("configmap after restart: %v", err)
	}
	if got.UID != created.UID || got.Data["key"] != "survivor" {
		t.Errorf("configmap after restart = uid %s data %v, want uid %s", got.UID, got.Data, created.UID)
	}
	// After a restart the initial state is what the server came back with.
	createConfigMap(ctx, t, c, "kept", "transient")
	if err := second.Reset(ctx); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	if _, err := c.CoreV1().ConfigMaps("kept").Get(ctx, "survivor", metav1.GetOptions{}); err != nil {
		t.Errorf("persisted configmap after Reset of the restarted server: %v", err)
	}
	if _, err := c.CoreV1().ConfigMaps("kept").Get(ctx, "transient", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("configmap created after the restart survived Reset: %v", err)
	}
}

func TestStartFailureReportsTheServersError(t *testing.T) {
	tmp := useTempDir(t)
	_, err := apiserverlite.Start(testContext(t), apiserverlite.Options{Args: []string{"--no-such-flag=1"}})
	if err == nil {
		t.Fatal("Start with an unknown flag succeeded")
	}
	for _, want := range []string{"exited before it was ready", "Error: unknown flag: --no-such-flag"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Start error does not contain %q:\n%v", want, err)
		}
	}
	assertNothingLeft(t, tmp)
}

func TestStartTimeoutKillsTheServer(t *testing.T) {
	tmp := useTempDir(t)
	_, err := apiserverlite.Start(testContext(t), apiserverlite.Options{StartTimeout: time.Millisecond})
	if err == nil {
		t.Fatal("Start within 1ms succeeded")
	}
	if !strings.Contains(err.Error(), "not ready within 1ms") {
		t.Errorf("Start error = %v, want a timeout", err)
	}
	assertNothingLeft(t, tmp)
}

func TestStartAbortsOnContextCancellation(t *testing.T) {
	tmp := useTempDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := apiserverlite.Start(ctx, apiserverlite.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Start with a cancelled context = %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err = apiserverlite.Start(ctx, apiserverlite.Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Start with a 1ms context = %v, want context.DeadlineExceeded", err)
	}
	assertNothingLeft(t, tmp)
}

func TestStartWithoutBinaryFails(t *testing.T) {
	_, err := apiserverlite.Start(testContext(t), apiserverlite.Options{BinaryPath: filepath.Join(t.TempDir(), "missing")})
	if err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Start with a missing binary = %v", err)
	}
}

// assertNothingLeft checks that a failed Start left no process and no
// temporary directory under tmp.
func assertNothingLeft(t *testing.T, tmp string) {
	t.Helper()
	if pids := processesMentioning(t, tmp); len(pids) > 0 {
		t.Errorf("a failed Start left processes running: %v", pids)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("a failed Start left %d entries in %s (%s…)", len(entries), tmp, entries[0].Name())
	}
}
