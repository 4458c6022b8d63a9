// ServiceAccount tokens: a ServiceAccount the test creates (no controller makes one), a
// TokenRequest with audiences and expirationSeconds, the token as a bearer credential
// (system:serviceaccount:ns:name and its groups, RBAC on ServiceAccount subjects), TokenReview
// answers for matching and other audiences, kube's 401 for unknown tokens, tokens of another
// audience and tokens whose ServiceAccount was deleted, and TokenRequest's validation.
package auth_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// apiAudience is envtest's --service-account-issuer, which is also the API server's audience.
func apiAudience(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatalf("parsing %q: %v", cfg.Host, err)
	}
	return "https://" + u.Host + "/"
}

func createServiceAccount(t *testing.T, ns, name string) *corev1.ServiceAccount {
	t.Helper()
	sa, err := adminCS.CoreV1().ServiceAccounts(ns).Create(testContext(t),
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating serviceaccount %s/%s: %v", ns, name, err)
	}
	return sa
}

func requestToken(t *testing.T, ns, name string, seconds int64, audiences ...string) *authenticationv1.TokenRequest {
	t.Helper()
	tr, err := adminCS.CoreV1().ServiceAccounts(ns).CreateToken(testContext(t), name, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{Audiences: audiences, ExpirationSeconds: &seconds},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("requesting a token for %s/%s: %v", ns, name, err)
	}
	return tr
}

// jwtClaims decodes a JWT's payload without verifying it.
func jwtClaims(t *testing.T, token string) map[string]interface{} {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts, want 3", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatalf("decoding the token payload: %v", err)
	}
	claims := map[string]interface{}{}
	if err := json.Unmarshal(payload, &claims); err != nil {
		t.Fatalf("parsing the token payload: %v", err)
	}
	return claims
}

func tokenReview(t *testing.T, token string, audiences ...string) authenticationv1.TokenReviewStatus {
	t.Helper()
	review, err := adminCS.AuthenticationV1().TokenReviews().Create(testContext(t), &authenticationv1.TokenReview{
		Spec: authenticationv1.TokenReviewSpec{Token: token, Audiences: audiences},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("TokenReview: %v", err)
	}
	return review.Status
}

func TestServiceAccountTokenAuthenticatesAsServiceAccount(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	sa := createServiceAccount(t, ns, "robot")

	tr := requestToken(t, ns, "robot", 3600)
	g.Expect(tr.Status.Token).NotTo(BeEmpty())
	g.Expect(tr.Status.ExpirationTimestamp.Time).To(BeTemporally("~", time.Now().Add(time.Hour), time.Minute))
	claims := jwtClaims(t, tr.Status.Token)
	g.Expect(claims["iss"]).To(Equal(apiAudience(t)))
	g.Expect(claims["aud"]).To(Equal([]interface{}{apiAudience(t)}))
	g.Expect(claims["sub"]).To(Equal(fmt.Sprintf("system:serviceaccount:%s:robot", ns)))
	g.Expect(claims["exp"].(float64) - claims["iat"].(float64)).To(Equal(float64(3600)))
	g.Expect(claims["kubernetes.io"]).To(HaveKeyWithValue("namespace", ns))
	g.Expect(claims["kubernetes.io"]).To(HaveKeyWithValue("serviceaccount", map[string]interface{}{"name": "robot", "uid": string(sa.UID)}))

	robotCS, err := kubernetes.NewForConfig(bearerConfig(tr.Status.Token))
	g.Expect(err).NotTo(HaveOccurred())
	review, err := robotCS.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	info := review.Status.UserInfo
	g.Expect(info.Username).To(Equal(fmt.Sprintf("system:serviceaccount:%s:robot", ns)))
	g.Expect(info.UID).To(Equal(string(sa.UID)))
	g.Expect(info.Groups).To(Equal([]string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"}))
	g.Expect(info.Extra).To(HaveKey("authentication.kubernetes.io/credential-id"))
	g.Expect(info.Extra["authentication.kubernetes.io/credential-id"]).To(Equal(authenticationv1.ExtraValue{"JTI=" + claims["jti"].(string)}))

	// RBAC knows the ServiceAccount subject.
	robot, err := client.New(bearerConfig(tr.Status.Token), client.Options{Scheme: scheme})
	g.Expect(err).NotTo(HaveOccurred())
	err = robot.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))
	g.Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(fmt.Sprintf(`configmaps is forbidden: User "system:serviceaccount:%s:robot" cannot list resource "configmaps" in API group "" in the namespace "%s"`, ns, ns)))
	createRoleAndBinding(t, ns, "robot-reader", []rbacv1.PolicyRule{{
		APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"list"},
	}}, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "robot", Namespace: ns})
	g.Expect(eventually(5*time.Second, func() error {
		return robot.List(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))
	})).To(Succeed())
}

func TestTokenReviewOfServiceAccountTokens(t *testing.T) {
	g := NewWithT(t)
	ns := newNamespace(t)
	sa := createServiceAccount(t, ns, "reviewed")

	// A token for the API server's audience.
	apiToken := requestToken(t, ns, "reviewed", 3600).Status.Token
	status := tokenReview(t, apiToken)
	g.Expect(status.Authenticated).To(BeTrue(), "error: %s", status.Error)
	g.Expect(status.User.Username).To(Equal(fmt.Sprintf("system:serviceaccount:%s:reviewed", ns)))
	g.Expect(status.User.UID).To(Equal(string(sa.UID)))
	g.Expect(status.User.Groups).To(Equal([]string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"}))
	g.Expect(status.Audiences).To(Equal([]string{apiAudience(t)}))

	// A token for another audience: authenticated only when the review asks for that audience.
	custom := requestToken(t, ns, "reviewed", 7200, "tests.kal.example.com", "other.example.com")
	g.Expect(jwtClaims(t, custom.Status.Token)["aud"]).To(Equal([]interface{}{"tests.kal.example.com", "other.example.com"}))
	status = tokenReview(t, custom.Status.Token, "tests.kal.example.com")
	g.Expect(status.Authenticated).To(BeTrue(), "error: %s", status.Error)
	g.Expect(status.Audiences).To(Equal([]string{"tests.kal.example.com"}))
	g.Expect(status.User.Username).To(Equal(fmt.Sprintf("system:serviceaccount:%s:reviewed", ns)))

	status = tokenReview(t, custom.Status.Token)
	g.Expect(status.Authenticated).To(BeFalse())
	g.Expect(status.Error).NotTo(BeEmpty())

	status = tokenReview(t, "not-a-token")
	g.Expect(status.Authenticated).To(BeFalse())
	g.Expect(status.User.Username).To(BeEmpty())
}

func TestUnauthorizedBearerTokens(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	createServiceAccount(t, ns, "elsewhere")

	for name, token := range map[string]string{
		"garbage":        "definitely-not-a-token",
		"other-audience": requestToken(t, ns, "elsewhere", 3600, "tests.kal.example.com").Status.Token,
	} {
		cs, err := kubernetes.NewForConfig(bearerConfig(token))
		g.Expect(err).NotTo(HaveOccurred())
		_, err = cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		g.Expect(apierrors.IsUnauthorized(err)).To(BeTrue(), "%s: got %v", name, err)
		g.Expect(err.Error()).To(Equal("Unauthorized"), name)
		g.Expect(apiStatusCode(err)).To(Equal(int32(401)), name)
	}
}

func TestTokenRejectedAfterServiceAccountDeleted(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	createServiceAccount(t, ns, "ephemeral")
	token := requestToken(t, ns, "ephemeral", 3600).Status.Token

	cs, err := kubernetes.NewForConfig(bearerConfig(token))
	g.Expect(err).NotTo(HaveOccurred())
	_, err = cs.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())

	g.Expect(adminCS.CoreV1().ServiceAccounts(ns).Delete(ctx, "ephemeral", metav1.DeleteOptions{})).To(Succeed())
	// kube-apiserver caches successful token authentications for 10s (--authentication-token-cache-ttl
	// is not a flag; TokenSuccessCacheTTL is 10s), so a token used just before may live that long.
	deleted := time.Now()
	g.Expect(eventually(15*time.Second, func() error {
		_, err := cs.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if !apierrors.IsUnauthorized(err) {
			return fmt.Errorf("want 401 Unauthorized, got %v", err)
		}
		return nil
	})).To(Succeed())
	t.Logf("token refused %s after the ServiceAccount's deletion", time.Since(deleted).Round(time.Millisecond))
	g.Expect(tokenReview(t, token).Authenticated).To(BeFalse())

	// A new ServiceAccount of the same name has another uid: the old token stays dead.
	createServiceAccount(t, ns, "ephemeral")
	_, err = cs.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	g.Expect(apierrors.IsUnauthorized(err)).To(BeTrue(), "got %v", err)
}

func TestTokenRequestValidation(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	createServiceAccount(t, ns, "strict")

	short := int64(60)
	_, err := adminCS.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "strict", &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &short},
	}, metav1.CreateOptions{})
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	var causes []metav1.StatusCause
	if s, ok := err.(apierrors.APIStatus); ok && s.Status().Details != nil {
		causes = s.Status().Details.Causes
	}
	g.Expect(causes).To(Equal([]metav1.StatusCause{{
		Type:    metav1.CauseTypeFieldValueInvalid,
		Field:   "spec.expirationSeconds",
		Message: "Invalid value: 60: may not specify a duration less than 10 minutes",
	}}))

	_, err = adminCS.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "ghost", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
	g.Expect(err.Error()).To(Equal(`serviceaccounts "ghost" not found`))

	// Without expirationSeconds the token lives an hour.
	tr, err := adminCS.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "strict", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*tr.Spec.ExpirationSeconds).To(Equal(int64(3600)))
	g.Expect(tr.Status.ExpirationTimestamp.Time).To(BeTemporally("~", time.Now().Add(time.Hour), time.Minute))
}

func apiStatusCode(err error) int32 {
	if s, ok := err.(apierrors.APIStatus); ok {
		return s.Status().Code
	}
	return 0
}
