// The self-review APIs for an envtest user: SelfSubjectAccessReview (kubectl auth can-i) before and
// after a grant, with RBAC's reason; SelfSubjectRulesReview (can-i --list); SelfSubjectReview
// (kubectl auth whoami) for a certificate user.
package auth_test

import (
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

func canI(t *testing.T, cs *kubernetes.Clientset, attrs authorizationv1.ResourceAttributes) authorizationv1.SubjectAccessReviewStatus {
	t.Helper()
	review, err := cs.AuthorizationV1().SelfSubjectAccessReviews().Create(testContext(t), &authorizationv1.SelfSubjectAccessReview{
		Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &attrs},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("SelfSubjectAccessReview: %v", err)
	}
	return review.Status
}

func TestSelfSubjectAccessReviewBeforeAndAfterGrant(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	_, frank := clientsFor(t, userConfig(t, "frank"))
	listCMs := authorizationv1.ResourceAttributes{Namespace: ns, Verb: "list", Resource: "configmaps"}

	status := canI(t, frank, listCMs)
	g.Expect(status.Allowed).To(BeFalse())
	g.Expect(status.Denied).To(BeFalse())

	createRoleAndBinding(t, ns, "reader", []rbacv1.PolicyRule{{
		APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list"},
	}}, userSubject("frank"))

	g.Eventually(func() bool { return canI(t, frank, listCMs).Allowed }, 5*time.Second, 20*time.Millisecond).Should(BeTrue())
	status = canI(t, frank, listCMs)
	g.Expect(status.Reason).To(Equal(fmt.Sprintf(`RBAC: allowed by RoleBinding "reader/%s" of Role "reader" to User "frank"`, ns)))

	g.Expect(canI(t, frank, authorizationv1.ResourceAttributes{Namespace: ns, Verb: "delete", Resource: "configmaps"}).Allowed).To(BeFalse())
	g.Expect(canI(t, frank, authorizationv1.ResourceAttributes{Namespace: "default", Verb: "list", Resource: "configmaps"}).Allowed).To(BeFalse())
	g.Expect(canI(t, frank, authorizationv1.ResourceAttributes{Namespace: ns, Verb: "get", Resource: "configmaps", Name: "any"}).Allowed).To(BeTrue())

	// Non-resource URLs: the bootstrap policy lets every authenticated user read /healthz and /version.
	review, err := frank.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{
		Spec: authorizationv1.SelfSubjectAccessReviewSpec{NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: "/version", Verb: "get"}},
	}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(review.Status.Allowed).To(BeTrue())
	g.Expect(review.Status.Reason).To(HavePrefix(`RBAC: allowed by ClusterRoleBinding "system:`))
	review, err = frank.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{
		Spec: authorizationv1.SelfSubjectAccessReviewSpec{NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: "/metrics", Verb: "get"}},
	}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(review.Status.Allowed).To(BeFalse())

	// The admin (system:masters) may do anything.
	g.Expect(canI(t, adminCS, authorizationv1.ResourceAttributes{Verb: "*", Group: "*", Resource: "*"}).Allowed).To(BeTrue())
}

func TestSelfSubjectRulesReviewListsGrantedRules(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	_, grace := clientsFor(t, userConfig(t, "grace", "tests:qa"))

	granted := rbacv1.PolicyRule{APIGroups: []string{"apps"}, Resources: []string{"deployments", "deployments/scale"}, Verbs: []string{"get", "update"}}
	createRoleAndBinding(t, ns, "scaler", []rbacv1.PolicyRule{granted},
		rbacv1.Subject{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: "tests:qa"})

	var review *authorizationv1.SelfSubjectRulesReview
	g.Eventually(func() []authorizationv1.ResourceRule {
		var err error
		review, err = grace.AuthorizationV1().SelfSubjectRulesReviews().Create(ctx, &authorizationv1.SelfSubjectRulesReview{
			Spec: authorizationv1.SelfSubjectRulesReviewSpec{Namespace: ns},
		}, metav1.CreateOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		return review.Status.ResourceRules
	}, 5*time.Second, 20*time.Millisecond).Should(ContainElement(authorizationv1.ResourceRule{
		Verbs: []string{"get", "update"}, APIGroups: []string{"apps"}, Resources: []string{"deployments", "deployments/scale"},
	}))
	g.Expect(review.Status.Incomplete).To(BeFalse())
	g.Expect(review.Status.EvaluationError).To(BeEmpty())
	// system:basic-user: every user may review itself.
	g.Expect(review.Status.ResourceRules).To(ContainElement(authorizationv1.ResourceRule{
		Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectaccessreviews", "selfsubjectrulesreviews"},
	}))
	var urls []string
	for _, r := range review.Status.NonResourceRules {
		urls = append(urls, r.NonResourceURLs...)
	}
	g.Expect(urls).To(ContainElements("/healthz", "/version", "/api", "/apis/*"))

	// In another namespace the role does not apply.
	other, err := grace.AuthorizationV1().SelfSubjectRulesReviews().Create(ctx, &authorizationv1.SelfSubjectRulesReview{
		Spec: authorizationv1.SelfSubjectRulesReviewSpec{Namespace: "default"},
	}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	for _, r := range other.Status.ResourceRules {
		g.Expect(r.APIGroups).NotTo(ContainElement("apps"), "rule %+v", r)
	}
}

func TestSelfSubjectReviewOfCertificateUser(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	_, alice := clientsFor(t, userConfig(t, "alice-whoami", "tests:developers", "tests:oncall"))

	review, err := alice.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(review.Status.UserInfo.Username).To(Equal("alice-whoami"))
	// The groups are the certificate's organizations in the certificate's order (DER sorts the SET),
	// then system:authenticated.
	groups := review.Status.UserInfo.Groups
	g.Expect(groups).To(HaveLen(3))
	g.Expect(groups[:2]).To(ConsistOf("tests:developers", "tests:oncall"))
	g.Expect(groups[2]).To(Equal("system:authenticated"))
	g.Expect(review.Status.UserInfo.UID).To(BeEmpty())

	review, err = adminCS.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(review.Status.UserInfo.Username).To(Equal("admin"))
	g.Expect(review.Status.UserInfo.Groups).To(Equal([]string{"system:masters", "system:authenticated"}))
}
