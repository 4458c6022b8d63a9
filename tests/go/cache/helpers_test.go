// Helpers of the cache tests: a manager or a bare cache started for one test (metrics off) and
// stopped after it, and a transport wrapper that records every request URL.
package cache_test

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// startManager starts a manager with the given cache options, after running setups on it (such as
// field indexes, which must exist before the informers start), and waits for its cache to sync.
func startManager(t *testing.T, config *rest.Config, cacheOpts cache.Options, setups ...func(manager.Manager) error) manager.Manager {
	t.Helper()
	mgr, err := manager.New(config, manager.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Cache:                  cacheOpts,
	})
	if err != nil {
		t.Fatalf("creating the manager: %v", err)
	}
	for _, setup := range setups {
		if err := setup(mgr); err != nil {
			t.Fatalf("setting up the manager: %v", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("manager stopped with %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("manager did not stop within 30s")
		}
	})
	syncCtx, syncCancel := context.WithTimeout(ctx, 20*time.Second)
	defer syncCancel()
	if !mgr.GetCache().WaitForCacheSync(syncCtx) {
		t.Fatalf("the manager's cache did not sync")
	}
	return mgr
}

// startCache starts a bare cache (no manager) and returns it with its stop function's context.
func startCache(t *testing.T, config *rest.Config, opts cache.Options) (cache.Cache, context.Context) {
	t.Helper()
	if opts.Scheme == nil {
		opts.Scheme = scheme
	}
	c, err := cache.New(config, opts)
	if err != nil {
		t.Fatalf("creating the cache: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Errorf("cache did not stop within 30s")
		}
	})
	return c, ctx
}

// requestLog records method and URL of every request made through a wrapped transport.
type requestLog struct {
	mu   sync.Mutex
	reqs []loggedRequest
}

type loggedRequest struct {
	Method string
	URL    *url.URL
	Accept string
	Status int
}

func (l *requestLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		r := loggedRequest{Method: req.Method, URL: req.URL, Accept: req.Header.Get("Accept")}
		if resp != nil {
			r.Status = resp.StatusCode
		}
		l.mu.Lock()
		l.reqs = append(l.reqs, r)
		l.mu.Unlock()
		return resp, err
	})
}

// forPath returns the recorded GETs of one collection path (e.g. /api/v1/configmaps).
func (l *requestLog) forPath(path string) []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []loggedRequest
	for _, r := range l.reqs {
		if r.Method == http.MethodGet && r.URL.Path == path {
			out = append(out, r)
		}
	}
	return out
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// recordingConfig is a copy of the suite's config whose requests go to log.
func recordingConfig(log *requestLog) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(log.wrap)
	return c
}
