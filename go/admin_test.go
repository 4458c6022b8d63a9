// The admin API through Admin: reset, snapshots, errors, other configs.

package apiserverlite_test

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
)

// The namespaces kube-apiserver creates at start.
var initialNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

func TestResetRemovesWhatATestCreated(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startServer(t, apiserverlite.Options{})
	c := clientset(t, s)

	before := namespaceNames(ctx, t, c)
	for _, ns := range initialNamespaces {
		if !before[ns] {
			t.Fatalf("initial namespaces %v lack %s", before, ns)
		}
	}
	createNamespace(ctx, t, c, "scratch")
	createConfigMap(ctx, t, c, "scratch", "in-scratch")
	createConfigMap(ctx, t, c, "default", "in-default")
	if err := c.CoreV1().Namespaces().Delete(ctx, "kube-node-lease", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete kube-node-lease: %v", err)
	}

	if err := s.Reset(ctx); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	after := namespaceNames(ctx, t, c)
	for ns := range before {
		if !after[ns] {
			t.Errorf("namespace %s missing after Reset (have %v)", ns, after)
		}
	}
	for ns := range after {
		if !before[ns] {
			t.Errorf("namespace %s survived Reset", ns)
		}
	}
	if ns, err := c.CoreV1().Namespaces().Get(ctx, "kube-node-lease", metav1.GetOptions{}); err != nil || ns.Status.Phase != "Active" {
		t.Errorf("kube-node-lease after Reset = %v, %v; want it back and Active", ns, err)
	}
	if _, err := c.CoreV1().ConfigMaps("default").Get(ctx, "in-default", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("configmap default/in-default after Reset: %v, want NotFound", err)
	}
	// The server keeps serving writes after a reset.
	createConfigMap(ctx, t, c, "default", "in-default")
	if err := s.Reset(ctx); err != nil {
		t.Fatalf("second Reset: %v", err)
	}
}

func TestSnapshotRestoreRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startServer(t, apiserverlite.Options{})
	c := clientset(t, s)

	if snaps, err := s.Snapshots(ctx); err != nil || len(snaps) != 0 {
		t.Fatalf("Snapshots on a fresh server = %v, %v; want none", snaps, err)
	}
	initial, err := s.InitialState(ctx)
	if err != nil || initial.Objects == 0 || initial.Bytes == 0 || initial.ResourceVersion == "" {
		t.Fatalf("InitialState = %+v, %v; want objects, bytes and a resourceVersion", initial, err)
	}

	saved := createConfigMap(ctx, t, c, "default", "saved")
	if err := s.Snapshot(ctx, "fixture-1.ok_name"); err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	snaps, err := s.Snapshots(ctx)
	if err != nil || len(snaps) != 1 {
		t.Fatalf("Snapshots = %v, %v; want one", snaps, err)
	}
	snap := snaps[0]
	if snap.Name != "fixture-1.ok_name" || snap.Objects != initial.Objects+1 || snap.Bytes <= initial.Bytes {
		t.Errorf("snapshot = %+v, want name fixture-1.ok_name, %d objects, more than %d bytes",
			snap, initial.Objects+1, initial.Bytes)
	}
	snapRV, err1 := strconv.ParseUint(snap.ResourceVersion, 10, 64)
	savedRV, err2 := strconv.ParseUint(saved.ResourceVersion, 10, 64)
	if err1 != nil || err2 != nil || snapRV < savedRV {
		t.Errorf("snapshot resourceVersion %q is not at or after the saved configmap's %q", snap.ResourceVersion, saved.ResourceVersion)
	}

	// Change things, then restore.
	if err := c.CoreV1().ConfigMaps("default").Delete(ctx, "saved", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	createConfigMap(ctx, t, c, "default", "later")
	if err := s.Restore(ctx, "fixture-1.ok_name"); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	got, err := c.CoreV1().ConfigMaps("default").Get(ctx, "saved", metav1.GetOptions{})
	if err != nil || got.UID != saved.UID {
		t.Errorf("saved configmap after Restore = %v, %v; want uid %s", got, err, saved.UID)
	}
	if _, err := c.CoreV1().ConfigMaps("default").Get(ctx, "later", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("configmap created after the snapshot survived Restore: %v", err)
	}
	// A restore keeps the snapshot; a reset goes behind it to the initial state.
	if err := s.Restore(ctx, "fixture-1.ok_name"); err != nil {
		t.Errorf("second Restore: %v", err)
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CoreV1().ConfigMaps("default").Get(ctx, "saved", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("configmap from the snapshot survived Reset: %v", err)
	}
	if snaps, _ := s.Snapshots(ctx); len(snaps) != 1 {
		t.Errorf("Reset dropped snapshots: %v", snaps)
	}

	// Saving a name again replaces that snapshot.
	if err := s.Snapshot(ctx, "fixture-1.ok_name"); err != nil {
		t.Fatal(err)
	}
	if err := s.Snapshot(ctx, "second"); err != nil {
		t.Fatal(err)
	}
	snaps, err = s.Snapshots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sn := range snaps {
		names = append(names, sn.Name)
		if sn.Name == "fixture-1.ok_name" && sn.Objects != initial.Objects {
			t.Errorf("replaced snapshot has %d objects, want the initial %d", sn.Objects, initial.Objects)
		}
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "fixture-1.ok_name,second" {
		t.Errorf("snapshot names = %v", names)
	}

	if err := s.DeleteSnapshot(ctx, "fixture-1.ok_name"); err != nil {
		t.Fatalf("DeleteSnapshot: %v", err)
	}
	snaps, err = s.Snapshots(ctx)
	if err != nil || len(snaps) != 1 || snaps[0].Name != "second" {
		t.Errorf("Snapshots after DeleteSnapshot = %v, %v; want only second", snaps, err)
	}
	if err := s.Restore(ctx, "fixture-1.ok_name"); !apierrors.IsNotFound(err) {
		t.Errorf("Restore of a deleted snapshot = %v, want NotFound", err)
	}
}

func TestAdminErrorsAreStatusErrors(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startServer(t, apiserverlite.Options{})

	for name, call := range map[string]func() error{
		"Restore":        func() error { return s.Restore(ctx, "never-saved") },
		"DeleteSnapshot": func() error { return s.DeleteSnapshot(ctx, "never-saved") },
	} {
		err := call()
		var status *apierrors.StatusError
		if !errors.As(err, &status) {
			t.Errorf("%s(never-saved) = %T %v, want *StatusError", name, err, err)
			continue
		}
		if !apierrors.IsNotFound(err) || status.ErrStatus.Code != http.StatusNotFound {
			t.Errorf("%s(never-saved) = %v (reason %s, code %d), want 404 NotFound",
				name, err, status.ErrStatus.Reason, status.ErrStatus.Code)
		}
		if !strings.Contains(err.Error(), "never-saved") {
			t.Errorf("%s(never-saved) message %q does not name the snapshot", name, err)
		}
	}

	// A bad name cannot be saved (400); nothing can be under it, so restoring
	// or deleting it is 404.
	for _, bad := range []string{"has space", "ünicode", strings.Repeat("x", 254), "semi;colon"} {
		err := s.Snapshot(ctx, bad)
		var status *apierrors.StatusError
		if !errors.As(err, &status) || !apierrors.IsBadRequest(err) || status.ErrStatus.Code != http.StatusBadRequest {
			t.Errorf("Snapshot(%.20q) = %v, want 400 BadRequest StatusError", bad, err)
		} else if want := fmt.Sprintf("invalid snapshot name %q: must be 1 to 253 characters of [A-Za-z0-9._-]", bad); err.Error() != want {
			t.Errorf("Snapshot(%.20q) message = %q, want %q", bad, err, want)
		}
		if err := s.Restore(ctx, bad); !apierrors.IsNotFound(err) && !apierrors.IsBadRequest(err) {
			t.Errorf("Restore(%.20q) = %v, want NotFound or BadRequest", bad, err)
		}
	}
	if snaps, err := s.Snapshots(ctx); err != nil || len(snaps) != 0 {
		t.Errorf("bad names created snapshots: %v, %v", snaps, err)
	}
	if err := s.Snapshot(ctx, strings.Repeat("x", 253)); err != nil {
		t.Errorf("Snapshot of a 253-character name: %v", err)
	}
}

func TestNewAdminOverAConfigLoadedFromTheKubeconfig(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startServer(t, apiserverlite.Options{})

	cfg, err := clientcmd.BuildConfigFromFlags("", s.KubeconfigPath())
	if err != nil {
		t.Fatalf("loading %s: %v", s.KubeconfigPath(), err)
	}
	admin, err := apiserverlite.NewAdmin(cfg)
	if err != nil {
		t.Fatalf("NewAdmin: %v", err)
	}
	createConfigMap(ctx, t, clientset(t, s), "default", "to-reset")
	if err := admin.Snapshot(ctx, "from-kubeconfig"); err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	if err := admin.Reset(ctx); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	if _, err := clientset(t, s).CoreV1().ConfigMaps("default").Get(ctx, "to-reset", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("configmap after a Reset through the loaded config: %v, want NotFound", err)
	}
	snaps, err := s.Snapshots(ctx)
	if err != nil || len(snaps) != 1 || snaps[0].Name != "from-kubeconfig" {
		t.Errorf("the server's own Admin sees snapshots %v, %v; want from-kubeconfig", snaps, err)
	}

	if _, err := apiserverlite.NewAdmin(nil); err == nil {
		t.Errorf("NewAdmin(nil) succeeded")
	}
	// A config without credentials is refused: with the default AlwaysAllow
	// authorizer kube turns anonymous authentication off, so it is a 401.
	anonymous, err := apiserverlite.NewAdmin(rest.AnonymousClientConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if err := anonymous.Reset(ctx); !apierrors.IsUnauthorized(err) {
		t.Errorf("anonymous Reset = %v, want Unauthorized", err)
	}
}

func TestNonAdminUserIsForbidden(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("alice-token,alice,alice-uid,\"developers\"\nroot-token,root,root-uid,\"system:masters\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, apiserverlite.Options{Args: []string{"--token-auth-file", tokens}})

	tokenConfig := func(token string) *rest.Config {
		admin := s.Config()
		return &rest.Config{
			Host:            s.URL(),
			BearerToken:     token,
			TLSClientConfig: rest.TLSClientConfig{CAData: admin.CAData},
		}
	}
	alice, err := apiserverlite.NewAdmin(tokenConfig("alice-token"))
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]struct {
		call func() error
		msg  string
	}{
		"Reset": {func() error { return alice.Reset(ctx) },
			`forbidden: User "alice" cannot post path "/admin/reset"`},
		"Snapshot": {func() error { return alice.Snapshot(ctx, "mine") },
			`forbidden: User "alice" cannot post path "/admin/snapshots/mine"`},
		"Snapshots": {func() error { _, err := alice.Snapshots(ctx); return err },
			`forbidden: User "alice" cannot get path "/admin/snapshots"`},
		"DeleteSnapshot": {func() error { return alice.DeleteSnapshot(ctx, "mine") },
			`forbidden: User "alice" cannot delete path "/admin/snapshots/mine"`},
	}
	for name, check := range checks {
		err := check.call()
		var status *apierrors.StatusError
		if !errors.As(err, &status) || !apierrors.IsForbidden(err) || status.ErrStatus.Code != http.StatusForbidden {
			t.Errorf("alice %s = %v, want 403 Forbidden StatusError", name, err)
			continue
		}
		if err.Error() != check.msg {
			t.Errorf("alice %s message = %q, want %q", name, err.Error(), check.msg)
		}
	}

	// A token user in system:masters may.
	root, err := apiserverlite.NewAdmin(tokenConfig("root-token"))
	if err != nil {
		t.Fatal(err)
	}
	if err := root.Reset(ctx); err != nil {
		t.Errorf("Reset as a token user in system:masters: %v", err)
	}
	// An unknown token is 401.
	stranger, err := apiserverlite.NewAdmin(tokenConfig("no-such-token"))
	if err != nil {
		t.Fatal(err)
	}
	if err := stranger.Reset(ctx); !apierrors.IsUnauthorized(err) {
		t.Errorf("Reset with an unknown token = %v, want Unauthorized", err)
	}
}
