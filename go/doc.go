// Package apiserverlite runs kube-apiserver-lite — one binary that behaves as
// a Kubernetes 1.36 API server, with its storage embedded — as a test fixture,
// and drives its admin API, which resets the server to its initial state or
// saves and restores named snapshots of it in milliseconds.
//
// # A server per test or per suite
//
// Start runs the binary on a free loopback port with HTTPS and returns once
// it is ready; Config is an admin rest.Config (client certificate in
// system:masters) for client-go or controller-runtime clients:
//
//	s, err := apiserverlite.Start(ctx, apiserverlite.Options{})
//	if err != nil { t.Fatal(err) }
//	t.Cleanup(func() { _ = s.Stop() })
//	clients := kubernetes.NewForConfigOrDie(s.Config())
//
// Between tests, s.Reset(ctx) brings the state back to what it was when the
// server became ready, which is much cheaper than a restart. Open watches end
// with a 410 Expired error, so informers and controller-runtime caches relist
// and see the reset state.
//
// The binary is Options.BinaryPath, else $KUBE_APISERVER_LITE, else
// $KUBEBUILDER_ASSETS/kube-apiserver, else kube-apiserver-lite on $PATH.
//
// # With envtest
//
// kube-apiserver-lite's build/envtest directory is a KUBEBUILDER_ASSETS
// directory, so controller-runtime's envtest.Environment starts it unchanged
// (KUBEBUILDER_ASSETS=/path/to/build/envtest go test ./...). The environment's
// Config is in system:masters, so NewAdmin over it resets the server started
// by envtest:
//
//	cfg, err := testEnv.Start()
//	...
//	admin, err := apiserverlite.NewAdmin(cfg)
//	...
//	// in each test's cleanup, or a Ginkgo AfterEach:
//	err = admin.Reset(ctx)
//
// Errors answered by the admin API are *k8s.io/apimachinery/pkg/api/errors.StatusError
// values built from the server's Status: apierrors.IsNotFound reports an
// unknown snapshot, IsBadRequest a bad snapshot name, IsForbidden a caller
// outside system:masters.
package apiserverlite
