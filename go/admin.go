// Admin: a client of kube-apiserver-lite's admin API (reset and snapshots),
// usable over any admin rest.Config, such as envtest's.

package apiserverlite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// maxBody caps what is read of an admin API answer.
const maxBody = 4 << 20

// Admin calls the admin API of a kube-apiserver-lite server. Only users in
// system:masters may; anyone else gets 403 Forbidden. Every error the server
// answers is an *apierrors.StatusError, so apierrors.IsNotFound,
// IsBadRequest, IsForbidden and the like work on it. An Admin is safe for
// concurrent use.
type Admin struct {
	client *http.Client
	base   *url.URL // the server URL, with any path prefix of the config's Host
}

// SnapshotInfo describes one saved state, as GET /admin/snapshots lists it.
type SnapshotInfo struct {
	Name            string `json:"name"`
	ResourceVersion string `json:"resourceVersion"` // the revision the state was saved at
	Objects         int    `json:"objects"`         // stored objects in the state
	Bytes           int64  `json:"bytes"`           // their encoded size
}

// snapshotList is the answer of GET /admin/snapshots.
type snapshotList struct {
	Kind    string         `json:"kind"`
	Initial SnapshotInfo   `json:"initial"`
	Items   []SnapshotInfo `json:"items"`
}

// NewAdmin returns an Admin talking to the server cfg points at with cfg's
// credentials and TLS settings (cfg is not modified). With envtest, pass
// Environment.Config (its user is in system:masters).
func NewAdmin(cfg *rest.Config) (*Admin, error) {
	if cfg == nil {
		return nil, fmt.Errorf("apiserverlite: NewAdmin: nil rest.Config")
	}
	cfg = rest.CopyConfig(cfg)
	if cfg.UserAgent == "" {
		cfg.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	base, _, err := rest.DefaultServerUrlFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("apiserverlite: NewAdmin: %w", err)
	}
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("apiserverlite: NewAdmin: %w", err)
	}
	return &Admin{client: client, base: base}, nil
}

// Reset brings the server back to its initial state: what it held when it
// reported ready (the initial namespaces, the bootstrap RBAC policy, what
// --load created). Every open watch ends with a 410 Expired error, so
// informers relist and see the reset state.
func (a *Admin) Reset(ctx context.Context) error {
	_, err := a.do(ctx, http.MethodPost, "reset")
	return err
}

// Snapshot saves the current state under name (replacing a snapshot of that
// name). Names are [A-Za-z0-9._-]{1,253}; the server answers 400 BadRequest
// for others.
func (a *Admin) Snapshot(ctx context.Context, name string) error {
	_, err := a.do(ctx, http.MethodPost, "snapshots", name)
	return err
}

// Restore brings back the state saved under name (the snapshot stays).
// An unknown name is 404 NotFound. Open watches end as for Reset.
func (a *Admin) Restore(ctx context.Context, name string) error {
	_, err := a.do(ctx, http.MethodPost, "snapshots", name, "restore")
	return err
}

// DeleteSnapshot forgets the state saved under name; an unknown name is
// 404 NotFound.
func (a *Admin) DeleteSnapshot(ctx context.Context, name string) error {
	_, err := a.do(ctx, http.MethodDelete, "snapshots", name)
	return err
}

// Snapshots lists the saved states (not the initial one), as the server
// orders them.
func (a *Admin) Snapshots(ctx context.Context) ([]SnapshotInfo, error) {
	list, err := a.snapshotList(ctx)
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// InitialState describes the state Reset goes back to.
func (a *Admin) InitialState(ctx context.Context) (SnapshotInfo, error) {
	list, err := a.snapshotList(ctx)
	if err != nil {
		return SnapshotInfo{}, err
	}
	return list.Initial, nil
}

func (a *Admin) snapshotList(ctx context.Context) (*snapshotList, error) {
	body, err := a.do(ctx, http.MethodGet, "snapshots")
	if err != nil {
		return nil, err
	}
	var list snapshotList
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("apiserverlite: decoding the snapshot list: %w", err)
	}
	if list.Kind != "SnapshotList" {
		return nil, fmt.Errorf("apiserverlite: GET /admin/snapshots answered kind %q, want SnapshotList", list.Kind)
	}
	return &list, nil
}

// do sends one admin request to /admin/<segments...> (each segment
// path-escaped) and returns the body of a 2xx answer; any other answer
// becomes an *apierrors.StatusError.
func (a *Admin) do(ctx context.Context, method string, segments ...string) ([]byte, error) {
	u := *a.base
	prefix := strings.TrimSuffix(u.Path, "/")
	rawPrefix := strings.TrimSuffix(u.EscapedPath(), "/")
	u.Path, u.RawPath = prefix+"/admin", rawPrefix+"/admin"
	for _, seg := range segments {
		u.Path += "/" + seg
		u.RawPath += "/" + url.PathEscape(seg)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("apiserverlite: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("apiserverlite: %s %s: %w", method, u.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("apiserverlite: %s %s: reading the answer: %w", method, u.Path, err)
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		// A Status answer may still report a failure.
		if st, ok := decodeStatus(body); ok && st.Status == metav1.StatusFailure {
			return nil, &apierrors.StatusError{ErrStatus: st}
		}
		return body, nil
	}
	if st, ok := decodeStatus(body); ok {
		if st.Code == 0 {
			st.Code = int32(resp.StatusCode)
		}
		return nil, &apierrors.StatusError{ErrStatus: st}
	}
	return nil, apierrors.NewGenericServerResponse(resp.StatusCode, method, schema.GroupResource{}, "",
		strings.TrimSpace(string(body)), retryAfter(resp), true)
}

// decodeStatus reads body as a metav1.Status, if it is one.
func decodeStatus(body []byte) (metav1.Status, bool) {
	var st metav1.Status
	if !bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) || json.Unmarshal(body, &st) != nil {
		return metav1.Status{}, false
	}
	return st, st.Kind == "Status"
}

// retryAfter is the Retry-After header in seconds, or 0.
func retryAfter(resp *http.Response) int {
	var n int
	if _, err := fmt.Sscanf(resp.Header.Get("Retry-After"), "%d", &n); err != nil || n < 0 {
		return 0
	}
	return n
}
