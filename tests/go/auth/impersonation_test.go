// Impersonation through rest.ImpersonationConfig: the admin (system:masters) may impersonate any
// user and group, and then acts with their permissions; an ordinary user is refused with kube's
// 403 until a ClusterRole grants the impersonate verb on that user name.
package auth_test

import (
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestAdminImpersonatesUserAndGroups(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)

	imp := rest.CopyConfig(cfg)
	imp.Impersonate = rest.ImpersonationConfig{UserName: "henry", Groups: []string{"tests:impersonated"}}
	henry, henryCS := clientsFor(t, imp)

	review, err := henryCS.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(review.Status.UserInfo.Username).To(Equal("henry"))
	g.Expect(review.Status.UserInfo.Groups).To(Equal([]string{"tests:impersonated", "system:authenticated"}))

	// The impersonated identity is not system:masters: it gets henry's 403.
	err = henry.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(fmt.Sprintf(`configmaps is forbidden: User "henry" cannot list resource "configmaps" in API group "" in the namespace "%s"`, ns)))

	// A grant to the impersonated group applies.
	createRoleAndBinding(t, ns, "impersonated-reader", []rbacv1.PolicyRule{{
		APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"list"},
	}}, rbacv1.Subject{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: "tests:impersonated"})
	g.Expect(eventually(5*time.Second, func() error {
		return henry.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))
	})).To(Succeed())

	// Writes made while impersonating are recorded as the impersonated user's.
	g.Expect(admin.Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "impersonated-writer"},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"create"}}}})).To(Succeed())
	g.Expect(admin.Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "impersonated-writer"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "impersonated-writer"},
		Subjects: []rbacv1.Subject{userSubject("henry")}})).To(Succeed())
	g.Expect(eventually(5*time.Second, func() error {
		return henry.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "by-henry"}}, client.DryRunAll)
	})).To(Succeed())
}

func TestUserImpersonationForbiddenUntilGranted(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)

	ivyConfig := userConfig(t, "ivy")
	imp := rest.CopyConfig(ivyConfig)
	imp.Impersonate = rest.ImpersonationConfig{UserName: "jack"}
	_, asJack := clientsFor(t, imp)

	_, err := asJack.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`users "jack" is forbidden: User "ivy" cannot impersonate resource "users" in API group "" at the cluster scope`))

	impGroup := rest.CopyConfig(ivyConfig)
	impGroup.Impersonate = rest.ImpersonationConfig{UserName: "ivy", Groups: []string{"system:masters"}}
	_, asMasters := clientsFor(t, impGroup)
	_, err = asMasters.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)

	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "kal-tests-impersonate-jack"},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"users"}, Verbs: []string{"impersonate"}, ResourceNames: []string{"jack"}}},
	}
	g.Expect(admin.Create(ctx, role)).To(Succeed())
	t.Cleanup(func() { _ = admin.Delete(ctx, role) })
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "kal-tests-impersonate-jack"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{userSubject("ivy")},
	}
	g.Expect(admin.Create(ctx, binding)).To(Succeed())
	t.Cleanup(func() { _ = admin.Delete(ctx, binding) })

	var review *authenticationv1.SelfSubjectReview
	g.Expect(eventually(5*time.Second, func() error {
		review, err = asJack.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		return err
	})).To(Succeed())
	g.Expect(review.Status.UserInfo.Username).To(Equal("jack"))
	g.Expect(review.Status.UserInfo.Groups).To(Equal([]string{"system:authenticated"}))

	// The grant names jack only.
	impOther := rest.CopyConfig(ivyConfig)
	impOther.Impersonate = rest.ImpersonationConfig{UserName: "kate"}
	_, asKate := clientsFor(t, impOther)
	_, err = asKate.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`users "kate" is forbidden: User "ivy" cannot impersonate resource "users" in API group "" at the cluster scope`))
}
