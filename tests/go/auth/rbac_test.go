// RBAC for envtest users (client certificates): kube's exact 403 messages, then grants through a
// Role + RoleBinding (User subject), a bootstrap ClusterRole bound to a Group in one namespace, and
// ClusterRoles built by aggregation (an aggregationRule of our own and the bootstrap "view").
package auth_test

import (
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func createRoleAndBinding(t *testing.T, ns, name string, rules []rbacv1.PolicyRule, subjects ...rbacv1.Subject) {
	t.Helper()
	g := NewWithT(t)
	ctx := testContext(t)
	g.Expect(admin.Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Rules: rules})).To(Succeed())
	g.Expect(admin.Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects:   subjects,
	})).To(Succeed())
}

func userSubject(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: name}
}

func TestForbiddenUntilRoleBindingGrants(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	alice, _ := clientsFor(t, userConfig(t, "alice", "tests:developers"))
	g.Expect(admin.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "x"}})).To(Succeed())

	err := alice.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(fmt.Sprintf(`configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "%s"`, ns)))

	err = alice.Get(ctx, client.ObjectKey{Namespace: ns, Name: "x"}, &corev1.ConfigMap{})
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(fmt.Sprintf(`configmaps "x" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "%s"`, ns)))

	createRoleAndBinding(t, ns, "configmap-reader", []rbacv1.PolicyRule{{
		APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list", "watch"},
	}}, userSubject("alice"))

	g.Expect(eventually(5*time.Second, func() error {
		return alice.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))
	})).To(Succeed())
	g.Expect(alice.Get(ctx, client.ObjectKey{Namespace: ns, Name: "x"}, &corev1.ConfigMap{})).To(Succeed())

	// Only what the role grants: not create, not secrets, not another namespace.
	err = alice.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "y"}})
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(fmt.Sprintf(`configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "%s"`, ns)))
	err = alice.List(ctx, &corev1.SecretList{}, client.InNamespace(ns))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	err = alice.List(ctx, &corev1.ConfigMapList{}, client.InNamespace("default"))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)

	// Deleting the binding takes the grant away again.
	g.Expect(admin.Delete(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "configmap-reader"}})).To(Succeed())
	g.Expect(eventually(5*time.Second, func() error {
		if err := alice.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns)); !apierrors.IsForbidden(err) {
			return fmt.Errorf("still allowed or another error: %v", err)
		}
		return nil
	})).To(Succeed())
}

func TestGroupBindingOfBootstrapClusterRole(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	other := newNamespace(t)
	dave, _ := clientsFor(t, userConfig(t, "dave", "tests:ops"))

	err := dave.List(ctx, &corev1.NamespaceList{})
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`namespaces is forbidden: User "dave" cannot list resource "namespaces" in API group "" at the cluster scope`))

	// The bootstrap "view" ClusterRole bound to dave's group in one namespace.
	g.Expect(admin.Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ops-view"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: "tests:ops"}},
	})).To(Succeed())
	g.Expect(eventually(5*time.Second, func() error {
		return dave.List(ctx, &corev1.PodList{}, client.InNamespace(ns))
	})).To(Succeed())
	g.Expect(dave.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))).To(Succeed())

	// view does not include secrets, nor writes, nor other namespaces.
	err = dave.List(ctx, &corev1.SecretList{}, client.InNamespace(ns))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	err = dave.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "nope"}})
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	err = dave.List(ctx, &corev1.PodList{}, client.InNamespace(other))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(fmt.Sprintf(`pods is forbidden: User "dave" cannot list resource "pods" in API group "" in the namespace "%s"`, other)))
}

// rulesOf returns a ClusterRole's current rules.
func rulesOf(t *testing.T, name string) []rbacv1.PolicyRule {
	t.Helper()
	cr := &rbacv1.ClusterRole{}
	if err := admin.Get(testContext(t), client.ObjectKey{Name: name}, cr); err != nil {
		t.Fatalf("getting clusterrole %s: %v", name, err)
	}
	return cr.Rules
}

func TestClusterRoleAggregationRule(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	erin, _ := clientsFor(t, userConfig(t, "erin"))

	const label = "tests.kal.example.com/aggregate-to-auditor"
	aggregate := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "kal-tests-auditor"},
		AggregationRule: &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{
			{MatchLabels: map[string]string{label: "true"}},
		}},
	}
	g.Expect(admin.Create(ctx, aggregate)).To(Succeed())
	t.Cleanup(func() { _ = admin.Delete(ctx, aggregate) })
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "kal-tests-auditor-erin"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: aggregate.Name},
		Subjects:   []rbacv1.Subject{userSubject("erin")},
	}
	g.Expect(admin.Create(ctx, binding)).To(Succeed())
	t.Cleanup(func() { _ = admin.Delete(ctx, binding) })

	secretsRule := rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list"}}
	child := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "kal-tests-auditor-secrets", Labels: map[string]string{label: "true"}},
		Rules:      []rbacv1.PolicyRule{secretsRule},
	}
	g.Expect(admin.Create(ctx, child)).To(Succeed())
	t.Cleanup(func() { _ = admin.Delete(ctx, child) })

	g.Eventually(func() []rbacv1.PolicyRule { return rulesOf(t, aggregate.Name) }, 5*time.Second, 20*time.Millisecond).
		Should(Equal([]rbacv1.PolicyRule{secretsRule}))
	g.Expect(eventually(5*time.Second, func() error {
		return erin.List(ctx, &corev1.SecretList{}, client.InNamespace(ns))
	})).To(Succeed())
	err := erin.List(ctx, &corev1.ServiceList{}, client.InNamespace(ns))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)

	// A second labelled role joins the aggregate; one that loses the label leaves it.
	servicesRule := rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"services"}, Verbs: []string{"list"}}
	child2 := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "kal-tests-auditor-services", Labels: map[string]string{label: "true"}},
		Rules:      []rbacv1.PolicyRule{servicesRule},
	}
	g.Expect(admin.Create(ctx, child2)).To(Succeed())
	t.Cleanup(func() { _ = admin.Delete(ctx, child2) })
	g.Eventually(func() []rbacv1.PolicyRule { return rulesOf(t, aggregate.Name) }, 5*time.Second, 20*time.Millisecond).
		Should(ConsistOf(secretsRule, servicesRule))
	g.Expect(eventually(5*time.Second, func() error {
		return erin.List(ctx, &corev1.ServiceList{}, client.InNamespace(ns))
	})).To(Succeed())

	g.Expect(admin.Get(ctx, client.ObjectKeyFromObject(child), child)).To(Succeed())
	child.Labels = nil
	g.Expect(admin.Update(ctx, child)).To(Succeed())
	g.Eventually(func() []rbacv1.PolicyRule { return rulesOf(t, aggregate.Name) }, 5*time.Second, 20*time.Millisecond).
		Should(Equal([]rbacv1.PolicyRule{servicesRule}))
	g.Expect(eventually(5*time.Second, func() error {
		if err := erin.List(ctx, &corev1.SecretList{}, client.InNamespace(ns)); !apierrors.IsForbidden(err) {
			return fmt.Errorf("still allowed or another error: %v", err)
		}
		return nil
	})).To(Succeed())
}

func TestClusterRoleAggregatedIntoBootstrapView(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	fred, fredCS := clientsFor(t, userConfig(t, "fred"))

	// view grants reading endpoints in the bound namespace...
	err := fred.List(ctx, &corev1.EndpointsList{}, client.InNamespace(ns))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(admin.Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "fred-view"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
		Subjects:   []rbacv1.Subject{userSubject("fred")},
	})).To(Succeed())
	g.Expect(eventually(5*time.Second, func() error {
		return fred.List(ctx, &corev1.EndpointsList{}, client.InNamespace(ns))
	})).To(Succeed())

	// ...but not leases, until a ClusterRole labelled aggregate-to-view adds them.
	leasesRule := rbacv1.PolicyRule{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "list", "watch"}}
	extra := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "kal-tests-view-leases", Labels: map[string]string{"rbac.authorization.k8s.io/aggregate-to-view": "true"}},
		Rules:      []rbacv1.PolicyRule{leasesRule},
	}
	leasesPath := fmt.Sprintf("/apis/coordination.k8s.io/v1/namespaces/%s/leases", ns)
	err = fredCS.RESTClient().Get().AbsPath(leasesPath).Do(ctx).Error()
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)

	g.Expect(admin.Create(ctx, extra)).To(Succeed())
	t.Cleanup(func() { _ = admin.Delete(ctx, extra) })
	g.Eventually(func() []rbacv1.PolicyRule { return rulesOf(t, "view") }, 5*time.Second, 20*time.Millisecond).
		Should(ContainElement(leasesRule))
	g.Expect(eventually(5*time.Second, func() error {
		return fredCS.RESTClient().Get().AbsPath(leasesPath).Do(ctx).Error()
	})).To(Succeed())
}
