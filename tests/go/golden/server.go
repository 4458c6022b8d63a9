// Starting the server under test with controller-runtime's envtest (KUBEBUILDER_ASSETS chooses
// the real kube-apiserver or ours, so flags, certificates and the admin user are the same), and
// the HTTP clients of the users a corpus file names.
package golden

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// userAgent is sent by every client; field managers without ?fieldManager are named after it.
const userAgent = "golden/v0.0.0 (linux/amd64) kubernetes/golden"

// Server is one envtest control plane.
type Server struct {
	env      *envtest.Environment
	cfg      *rest.Config
	base     string // https://127.0.0.1:PORT
	HostPort string
	Version  string // gitVersion from /version
	clients  map[string]*http.Client
	users    map[string]User
}

// AssetsDir returns KUBEBUILDER_ASSETS made absolute (relative paths are tried against the
// working directory, then the repository root).
func AssetsDir(repoRoot string) (string, error) {
	dir := os.Getenv("KUBEBUILDER_ASSETS")
	if dir == "" {
		return "", fmt.Errorf("KUBEBUILDER_ASSETS is not set: point it at build/oracle (the real kube-apiserver) or build/envtest (ours)")
	}
	if !filepath.IsAbs(dir) {
		if _, err := os.Stat(dir); err != nil {
			dir = filepath.Join(repoRoot, dir)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(abs, "kube-apiserver")); err != nil {
		return "", fmt.Errorf("KUBEBUILDER_ASSETS=%s has no kube-apiserver: %w", abs, err)
	}
	return abs, nil
}

// StartServer starts etcd and kube-apiserver from assets.
func StartServer(assets string, users map[string]User, flags map[string]string) (*Server, error) {
	if err := os.Setenv("KUBEBUILDER_ASSETS", assets); err != nil {
		return nil, err
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory:    assets,
		ControlPlaneStartTimeout: 3 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	for k, v := range flags {
		env.ControlPlane.GetAPIServer().Configure().Set(k, v)
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("starting the control plane from %s: %w", assets, err)
	}
	s := &Server{env: env, cfg: rest.CopyConfig(cfg), clients: map[string]*http.Client{}, users: users}
	s.cfg.UserAgent = userAgent
	u, err := url.Parse(cfg.Host)
	if err != nil || u.Host == "" {
		u, err = url.Parse("https://" + cfg.Host)
	}
	if err != nil {
		_ = s.Stop()
		return nil, err
	}
	s.HostPort = u.Host
	s.base = "https://" + u.Host
	if err := s.readVersion(); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) readVersion() error {
	c, err := s.client("admin")
	if err != nil {
		return err
	}
	resp, err := c.Get(s.base + "/version")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var v struct {
		GitVersion string `json:"gitVersion"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("/version: %s: %w", body, err)
	}
	s.Version = v.GitVersion
	return nil
}

// Stop stops the control plane.
func (s *Server) Stop() error { return s.env.Stop() }

// client returns the HTTP client of a corpus user.
func (s *Server) client(user string) (*http.Client, error) {
	if user == "" {
		user = "admin"
	}
	if c, ok := s.clients[user]; ok {
		return c, nil
	}
	var cfg *rest.Config
	switch user {
	case "admin":
		cfg = rest.CopyConfig(s.cfg)
	case "anonymous":
		cfg = rest.AnonymousClientConfig(s.cfg)
	case "invalid-token":
		cfg = rest.AnonymousClientConfig(s.cfg)
		cfg.BearerToken = "golden-invalid-token"
	default:
		u, ok := s.users[user]
		if !ok {
			return nil, fmt.Errorf("unknown user %q", user)
		}
		au, err := s.env.AddUser(envtest.User{Name: user, Groups: u.Groups}, nil)
		if err != nil {
			return nil, fmt.Errorf("adding user %s: %w", user, err)
		}
		cfg = rest.CopyConfig(au.Config())
	}
	cfg.UserAgent = userAgent
	c, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	s.clients[user] = c
	return c, nil
}

// send makes one HTTP request.
func (s *Server) send(ctx context.Context, user, method, path string, headers map[string]string, body []byte) (*http.Response, error) {
	c, err := s.client(user)
	if err != nil {
		return nil, err
	}
	var r io.Reader
	if body != nil {
		r = bytesReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, r)
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return c.Do(req)
}
