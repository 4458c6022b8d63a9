// The secure port: TLS 1.2+ with generated certificates that verify for 127.0.0.1, client
// certificates handed to authentication (CN/O → user/groups, another CA → 401, none →
// anonymous), bearer tokens, keep-alive with one verification per connection; and the serving
// certificate chosen from flags and --cert-dir.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "auth/certificates.h"
#include "auth/request_authenticator.h"
#include "auth/token_file_authenticator.h"
#include "auth/x509_authenticator.h"
#include "server/http_server.h"
#include "server/secure_serving.h"
#include "server/tls_context.h"

namespace kube::server {

namespace {

struct Pki {
  auth::KeyPair serving_ca, serving, client_ca, alice, rogue_ca, rogue;
  Pki() {
    serving_ca = *auth::MakeCertificate({.common_name = "serving-ca", .is_ca = true}, nullptr);
    serving = *auth::MakeCertificate({.common_name = "localhost", .hosts = {"localhost", "127.0.0.1"}, .server_auth = true},
                                     &serving_ca);
    client_ca = *auth::MakeCertificate({.common_name = "client-ca", .is_ca = true}, nullptr);
    alice = *auth::MakeCertificate({.common_name = "alice", .organizations = {"dev"}, .client_auth = true}, &client_ca);
    rogue_ca = *auth::MakeCertificate({.common_name = "client-ca", .is_ca = true}, nullptr);
    rogue = *auth::MakeCertificate({.common_name = "admin", .organizations = {"system:masters"}, .client_auth = true},
                                   &rogue_ca);
  }
};

// A TLS client that verifies the server against `ca` for 127.0.0.1 and may present a certificate.
class TlsClient {
 public:
  TlsClient(int port, const std::string& ca_pem, const auth::KeyPair* cert, int max_version = 0) {
    ctx_ = SSL_CTX_new(TLS_client_method());
    if (max_version != 0) SSL_CTX_set_max_proto_version(ctx_, max_version);
    BIO* bio = BIO_new_mem_buf(ca_pem.data(), static_cast<int>(ca_pem.size()));
    X509* ca = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx_), ca);
    X509_free(ca);
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
    X509_VERIFY_PARAM_set1_ip_asc(SSL_CTX_get0_param(ctx_), "127.0.0.1");
    if (cert != nullptr) {
      BIO* c = BIO_new_mem_buf(cert->cert_pem.data(), static_cast<int>(cert->cert_pem.size()));
      X509* x = PEM_read_bio_X509(c, nullptr, nullptr, nullptr);
      BIO_free(c);
      BIO* k = BIO_new_mem_buf(cert->key_pem.data(), static_cast<int>(cert->key_pem.size()));
      EVP_PKEY* key = PEM_read_bio_PrivateKey(k, nullptr, nullptr, nullptr);
      BIO_free(k);
      SSL_CTX_use_certificate(ctx_, x);
      SSL_CTX_use_PrivateKey(ctx_, key);
      X509_free(x);
      EVP_PKEY_free(key);
    }
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval tv{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    ssl_ = SSL_new(ctx_);
    SSL_set_fd(ssl_, fd_);
    connected_ = SSL_connect(ssl_) == 1;
    ERR_clear_error();
  }
  ~TlsClient() {
    SSL_free(ssl_);
    SSL_CTX_free(ctx_);
    ::close(fd_);
  }
  bool connected() const { return connected_; }
  std::string version() const { return SSL_get_version(ssl_); }

  // One request on the connection; the answer's status line and body.
  std::string Get(const std::string& path, const std::string& extra_headers = "") {
    const std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers + "\r\n";
    SSL_write(ssl_, req.data(), static_cast<int>(req.size()));
    std::string in;
    char buf[4096];
    while (true) {
      const size_t head_end = in.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        const size_t cl = in.find("Content-Length: ");
        if (cl != std::string::npos && cl < head_end) {
          const size_t len = std::stoul(in.substr(cl + 16));
          if (in.size() >= head_end + 4 + len) {
            return in.substr(0, in.find("\r\n")) + "|" + in.substr(head_end + 4, len);
          }
        }
      }
      const int n = SSL_read(ssl_, buf, sizeof buf);
      if (n <= 0) return in;
      in.append(buf, static_cast<size_t>(n));
    }
  }

 private:
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  int fd_ = -1;
  bool connected_ = false;
};

// A secure server whose handler answers "<user>;<groups>" and counts authentications.
struct SecureServer {
  explicit SecureServer(const Pki& pki) {
    auto x509 = auth::X509Authenticator::Create({pki.client_ca.cert_pem});
    auto tokens = auth::TokenFileAuthenticator::Parse("tok,bob,bob-uid,\"qa\"\n");
    auth::RequestAuthenticatorOptions o;
    o.certificates = *x509;
    o.tokens = {*tokens};
    authn = std::make_shared<auth::RequestAuthenticator>(o);
    auto tls = TlsContext::Create(pki.serving.cert_pem + pki.serving_ca.cert_pem, pki.serving.key_pem);
    REQUIRE(tls.ok());
    http.emplace(ListenerOptions{.port = 0, .tls = *tls,
                                 .authenticate = [this](const auth::Credentials& c) {
                                   ++authentications;
                                   return authn->Authenticate(c);
                                 }},
                 [](const endpoints::HttpRequest& r) {
                   endpoints::HttpResponse out;
                   out.content_type = "text/plain";
                   out.body = r.user.name + ";";
                   for (const auto& g : r.user.groups) out.body += g + ",";
                   return out;
                 });
    auto p = http->Start();
    REQUIRE(p.ok());
    port = *p;
  }
  std::shared_ptr<auth::RequestAuthenticator> authn;
  std::atomic<int> authentications{0};
  std::optional<HttpServer> http;
  int port = 0;
};

}  // namespace

TEST_CASE("tls: client certificates, tokens and anonymous requests over the secure port") {
  Pki pki;
  SecureServer server(pki);
  {
    TlsClient alice(server.port, pki.serving_ca.cert_pem, &pki.alice);
    REQUIRE(alice.connected());
    CHECK(alice.Get("/") == "HTTP/1.1 200 OK|alice;dev,system:authenticated,");
    // Keep-alive: the certificate is not verified again.
    CHECK(alice.Get("/") == "HTTP/1.1 200 OK|alice;dev,system:authenticated,");
    CHECK(server.authentications == 1);
    // With a certificate and a token, the certificate authenticates first (kube's union order).
    CHECK(alice.Get("/", "Authorization: Bearer tok\r\n") == "HTTP/1.1 200 OK|alice;dev,system:authenticated,");
    CHECK(server.authentications == 2);
  }
  {
    TlsClient rogue(server.port, pki.serving_ca.cert_pem, &pki.rogue);
    REQUIRE(rogue.connected());  // the handshake takes any certificate; authentication refuses it
    const std::string answer = rogue.Get("/");
    CHECK(answer.starts_with("HTTP/1.1 401"));
    CHECK(answer.find(R"("reason":"Unauthorized")") != std::string::npos);
    CHECK(answer.find(R"("message":"Unauthorized")") != std::string::npos);
  }
  {
    TlsClient anonymous(server.port, pki.serving_ca.cert_pem, nullptr);
    REQUIRE(anonymous.connected());
    CHECK(anonymous.Get("/") == "HTTP/1.1 200 OK|system:anonymous;system:unauthenticated,");
    CHECK(anonymous.Get("/", "Authorization: Bearer nope\r\n").starts_with("HTTP/1.1 401"));
    CHECK(anonymous.Get("/", "Authorization: Bearer tok\r\n") == "HTTP/1.1 200 OK|bob;qa,system:authenticated,");
    CHECK(anonymous.version() == "TLSv1.3");
  }
  {
    TlsClient old(server.port, pki.serving_ca.cert_pem, nullptr, TLS1_1_VERSION);
    CHECK_FALSE(old.connected());
    TlsClient tls12(server.port, pki.serving_ca.cert_pem, nullptr, TLS1_2_VERSION);
    CHECK(tls12.connected());
    CHECK(tls12.version() == "TLSv1.2");
    // A client trusting another CA does not accept the server.
    TlsClient distrust(server.port, pki.rogue_ca.cert_pem, nullptr);
    CHECK_FALSE(distrust.connected());
  }
}

TEST_CASE("tls: an RSA serving key works too") {
  EVP_PKEY* rsa = EVP_RSA_gen(2048);
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, rsa, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  const std::string key_pem(data, static_cast<size_t>(n));
  BIO_free(bio);
  // A self-signed certificate for that key, made with OpenSSL directly.
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 7);
  X509_gmtime_adj(X509_getm_notBefore(cert), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_NAME_add_entry_by_txt(X509_get_subject_name(cert), "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(cert, X509_get_subject_name(cert));
  X509_set_pubkey(cert, rsa);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &v3, NID_subject_alt_name, "IP:127.0.0.1");
  X509_add_ext(cert, san, -1);
  X509_EXTENSION_free(san);
  X509_sign(cert, rsa, EVP_sha256());
  bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  BIO_get_mem_data(bio, &data);
  const std::string cert_pem(data, static_cast<size_t>(BIO_get_mem_data(bio, &data)));
  BIO_free(bio);
  X509_free(cert);
  EVP_PKEY_free(rsa);

  auto tls = TlsContext::Create(cert_pem, key_pem);
  REQUIRE(tls.ok());
  HttpServer http(ListenerOptions{.port = 0, .tls = *tls}, [](const endpoints::HttpRequest& r) {
    endpoints::HttpResponse out;
    out.content_type = "text/plain";
    out.body = r.user.name;
    return out;
  });
  auto port = http.Start();
  REQUIRE(port.ok());
  TlsClient client(*port, cert_pem, nullptr);
  REQUIRE(client.connected());
  // No authenticator on this listener: the insecure-port user.
  CHECK(client.Get("/") == "HTTP/1.1 200 OK|kube-apiserver-lite:admin");
  CHECK_FALSE(TlsContext::Create(cert_pem, Pki().serving.key_pem).ok());  // key of another certificate
}

TEST_CASE("secure serving: --tls-cert-file, then <cert-dir>/apiserver.crt, else generated and written there") {
  const auto dir = std::filesystem::temp_directory_path() / ("kal-certs-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ServerOptions o;
  o.cert_dir = dir.string();
  o.advertise_address = "10.1.2.3";
  auto generated = LoadOrGenerateServingCertificates(o);
  REQUIRE(generated.ok());
  CHECK(generated->generated);
  CHECK(std::filesystem::exists(dir / "apiserver.crt"));
  CHECK((std::filesystem::status(dir / "apiserver.key").permissions() & std::filesystem::perms::others_read) ==
        std::filesystem::perms::none);
  // Next start: the same files are used.
  auto again = LoadOrGenerateServingCertificates(o);
  REQUIRE(again.ok());
  CHECK_FALSE(again->generated);
  CHECK(again->serving.cert_pem == generated->serving.cert_pem);
  CHECK(again->ca_pem == generated->ca_pem);
  // Explicit files win; a mismatched pair is refused.
  Pki pki;
  const auto crt = dir / "given.crt", key = dir / "given.key";
  REQUIRE(auth::WriteFileAtomic(crt.string(), pki.serving.cert_pem, 0644).ok());
  REQUIRE(auth::WriteFileAtomic(key.string(), pki.alice.key_pem, 0600).ok());
  o.tls_cert_file = crt.string();
  o.tls_private_key_file = key.string();
  CHECK_FALSE(LoadOrGenerateServingCertificates(o).ok());
  REQUIRE(auth::WriteFileAtomic(key.string(), pki.serving.key_pem, 0600).ok());
  auto given = LoadOrGenerateServingCertificates(o);
  REQUIRE(given.ok());
  CHECK(given->serving.cert_pem == pki.serving.cert_pem);
  // The kubeconfig's client CA survives restarts in the cert dir; its admin is in system:masters.
  auto ca = LoadOrGenerateKubeconfigClientCa(o);
  REQUIRE(ca.ok());
  CHECK(LoadOrGenerateKubeconfigClientCa(o)->cert_pem == ca->cert_pem);
  auto admin = MakeAdminClientCertificate(*ca);
  REQUIRE(admin.ok());
  auto subject = auth::CertificateSubject((*auth::ParseCertificatesPem(admin->cert_pem))[0]);
  CHECK(subject->common_name == "kube-apiserver-lite:admin");
  CHECK(subject->organizations == std::vector<std::string>{"system:masters"});
  std::filesystem::remove_all(dir);
}

}  // namespace kube::server
