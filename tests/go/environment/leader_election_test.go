// Leader election between two controller-runtime managers over a coordination.k8s.io/v1 Lease.
package environment

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onsi/gomega"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

const (
	leaseName      = "webapp-operator-lock"
	leaseNamespace = "leader-election"
	leaseDuration  = 4 * time.Second
	renewDeadline  = 3 * time.Second
	retryPeriod    = 250 * time.Millisecond
)

// candidate is a manager contending for the lease, with a leader-only runnable that counts its starts.
type candidate struct {
	mgr     manager.Manager
	cancel  context.CancelFunc
	done    chan error
	started atomic.Int32
}

func newCandidate(t *testing.T, cfg *rest.Config) *candidate {
	t.Helper()
	mgr, err := ctrl.NewManager(rest.CopyConfig(cfg), ctrl.Options{
		Scheme:                        scheme,
		Metrics:                       metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:        "0",
		LeaderElection:                true,
		LeaderElectionID:              leaseName,
		LeaderElectionNamespace:       leaseNamespace,
		LeaderElectionReleaseOnCancel: true,
		LeaseDuration:                 ptrDuration(leaseDuration),
		RenewDeadline:                 ptrDuration(renewDeadline),
		RetryPeriod:                   ptrDuration(retryPeriod),
	})
	if err != nil {
		t.Fatal(err)
	}
	c := &candidate{mgr: mgr, done: make(chan error, 1)}
	// A RunnableFunc needs leader election: it runs only on the leader.
	if err := mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		c.started.Add(1)
		<-ctx.Done()
		return nil
	})); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() { c.done <- mgr.Start(ctx) }()
	t.Cleanup(c.stop)
	return c
}

func (c *candidate) elected() bool {
	select {
	case <-c.mgr.Elected():
		return true
	default:
		return false
	}
}

// stop cancels the manager and waits for it (it releases the lease before returning).
func (c *candidate) stop() {
	if c.cancel == nil {
		return
	}
	c.cancel()
	c.cancel = nil
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
	}
}

func ptrDuration(d time.Duration) *time.Duration { return &d }

func getLease(ctx context.Context, g gomega.Gomega, c client.Client) *coordinationv1.Lease {
	lease := &coordinationv1.Lease{}
	g.Expect(c.Get(ctx, client.ObjectKey{Namespace: leaseNamespace, Name: leaseName}, lease)).To(gomega.Succeed())
	return lease
}

func TestLeaderElectionOneLeaderThenTakeover(t *testing.T) {
	g := newG(t)
	ctx := testContext(t)
	env := &envtest.Environment{}
	cfg := start(t, env)
	c := newClient(t, cfg)
	g.Expect(c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: leaseNamespace}})).To(gomega.Succeed())

	first := newCandidate(t, cfg)
	g.Eventually(first.elected).Should(gomega.BeTrue())
	second := newCandidate(t, cfg)

	lease := getLease(ctx, g, c)
	g.Expect(lease.Spec.HolderIdentity).NotTo(gomega.BeNil())
	firstID := *lease.Spec.HolderIdentity
	g.Expect(firstID).To(gomega.MatchRegexp(`^.+_[0-9a-f-]{36}$`), "hostname_uuid, as controller-runtime names itself")
	g.Expect(*lease.Spec.LeaseDurationSeconds).To(gomega.Equal(int32(leaseDuration / time.Second)))
	g.Expect(lease.Spec.AcquireTime).NotTo(gomega.BeNil())
	g.Expect(lease.Spec.RenewTime).NotTo(gomega.BeNil())
	firstRenew := lease.Spec.RenewTime.Time

	// Exactly one leads: the leader keeps renewing, the other keeps waiting.
	g.Consistently(func() bool { return second.elected() }, 3*time.Second, retryPeriod).Should(gomega.BeFalse())
	g.Expect(first.started.Load()).To(gomega.Equal(int32(1)))
	g.Expect(second.started.Load()).To(gomega.Equal(int32(0)))
	lease = getLease(ctx, g, c)
	g.Expect(*lease.Spec.HolderIdentity).To(gomega.Equal(firstID))
	g.Expect(lease.Spec.RenewTime.Time.After(firstRenew)).To(gomega.BeTrue(), "the leader renews")

	// The leader stops and releases the lease; the other takes over well before the lease would expire.
	stoppedAt := time.Now()
	first.stop()
	g.Eventually(second.elected).Should(gomega.BeTrue())
	g.Expect(time.Since(stoppedAt)).To(gomega.BeNumerically("<", leaseDuration), "released, not expired")
	g.Eventually(second.started.Load).Should(gomega.Equal(int32(1)))
	g.Eventually(func(g gomega.Gomega) {
		lease := getLease(ctx, g, c)
		g.Expect(lease.Spec.HolderIdentity).NotTo(gomega.BeNil())
		g.Expect(*lease.Spec.HolderIdentity).NotTo(gomega.BeEmpty())
		g.Expect(*lease.Spec.HolderIdentity).NotTo(gomega.Equal(firstID))
		g.Expect(strings.Contains(*lease.Spec.HolderIdentity, "_")).To(gomega.BeTrue())
		g.Expect(lease.Spec.LeaseTransitions).NotTo(gomega.BeNil())
		g.Expect(*lease.Spec.LeaseTransitions).To(gomega.Equal(int32(1)))
	}).Should(gomega.Succeed())

	// Released on cancel: after the second stops too, the lease names no holder.
	second.stop()
	lease = getLease(ctx, g, c)
	g.Expect(lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "").To(gomega.BeTrue())
}
