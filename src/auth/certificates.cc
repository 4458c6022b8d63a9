#include "auth/certificates.h"

#include <arpa/inet.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "auth/openssl_util.h"

namespace kube::auth {

namespace {

bool IsIpLiteral(const std::string& host) {
  unsigned char buf[16];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

Status AddExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext == nullptr) return Status::Internal("cannot make certificate extension " + value + ": " + OpenSslError());
  const int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  if (!ok) return Status::Internal("cannot add certificate extension: " + OpenSslError());
  return Status::OK();
}

}  // namespace

Result<KeyPair> MakeCertificate(const CertificateSpec& spec, const KeyPair* signer) {
  EvpPkeyPtr key(EVP_EC_gen("P-256"));
  if (!key) return Status::Internal("cannot generate a P-256 key: " + OpenSslError());
  X509Ptr signer_cert;
  EvpPkeyPtr signer_key;
  if (signer != nullptr) {
    auto c = ParseCertificate(signer->cert_pem);
    if (!c.ok()) return c.status();
    signer_cert = std::move(*c);
    auto k = ParsePrivateKey(signer->key_pem);
    if (!k.ok()) return k.status();
    signer_key = std::move(*k);
  }
  X509Ptr cert(X509_new());
  X509_set_version(cert.get(), 2);
  // A random 128-bit serial, positive.
  unsigned char serial_bytes[16];
  RAND_bytes(serial_bytes, sizeof serial_bytes);
  serial_bytes[0] &= 0x7f;
  BIGNUM* serial = BN_bin2bn(serial_bytes, sizeof serial_bytes, nullptr);
  BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get()));
  BN_free(serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), static_cast<long>(spec.valid_for.count()) * 3600);
  X509_NAME* name = X509_get_subject_name(cert.get());
  for (const auto& o : spec.organizations) {
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(o.c_str()), -1, -1, 0);
  }
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                             reinterpret_cast<const unsigned char*>(spec.common_name.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert.get(), signer_cert ? X509_get_subject_name(signer_cert.get()) : name);
  X509_set_pubkey(cert.get(), key.get());
  X509* issuer = signer_cert ? signer_cert.get() : cert.get();
  std::string key_usage = "critical,digitalSignature,keyEncipherment";
  if (spec.is_ca) key_usage += ",keyCertSign";
  KUBE_RETURN_IF_ERROR(AddExtension(cert.get(), issuer, NID_key_usage, key_usage));
  if (spec.is_ca) KUBE_RETURN_IF_ERROR(AddExtension(cert.get(), issuer, NID_basic_constraints, "critical,CA:TRUE"));
  std::string eku;
  if (spec.server_auth) eku = "serverAuth";
  if (spec.client_auth) eku += std::string(eku.empty() ? "" : ",") + "clientAuth";
  if (!eku.empty()) KUBE_RETURN_IF_ERROR(AddExtension(cert.get(), issuer, NID_ext_key_usage, eku));
  KUBE_RETURN_IF_ERROR(AddExtension(cert.get(), issuer, NID_subject_key_identifier, "hash"));
  if (signer_cert) KUBE_RETURN_IF_ERROR(AddExtension(cert.get(), issuer, NID_authority_key_identifier, "keyid"));
  if (!spec.hosts.empty()) {
    std::string sans;
    for (const auto& h : spec.hosts) {
      if (!sans.empty()) sans += ",";
      sans += (IsIpLiteral(h) ? "IP:" : "DNS:") + h;
    }
    KUBE_RETURN_IF_ERROR(AddExtension(cert.get(), issuer, NID_subject_alt_name, sans));
  }
  if (!X509_sign(cert.get(), signer_key ? signer_key.get() : key.get(), EVP_sha256())) {
    return Status::Internal("cannot sign certificate: " + OpenSslError());
  }
  BioPtr cert_bio(BIO_new(BIO_s_mem()));
  BioPtr key_bio(BIO_new(BIO_s_mem()));
  if (!PEM_write_bio_X509(cert_bio.get(), cert.get()) ||
      !PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr)) {
    return Status::Internal("cannot encode certificate: " + OpenSslError());
  }
  return KeyPair{BioString(cert_bio.get()), BioString(key_bio.get())};
}

Result<std::vector<std::string>> ParseCertificatesPem(const std::string& pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  std::vector<std::string> out;
  while (true) {
    char* name = nullptr;
    char* header = nullptr;
    unsigned char* data = nullptr;
    long len = 0;
    if (!PEM_read_bio(bio.get(), &name, &header, &data, &len)) break;
    const bool is_cert = std::strcmp(name, "CERTIFICATE") == 0;
    std::string der(reinterpret_cast<char*>(data), static_cast<size_t>(len));
    OPENSSL_free(name);
    OPENSSL_free(header);
    OPENSSL_free(data);
    if (!is_cert) continue;
    const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
    X509Ptr cert(d2i_X509(nullptr, &p, static_cast<long>(der.size())));
    if (!cert) return Status::BadRequest("data does not contain a valid certificate: " + OpenSslError());
    out.push_back(std::move(der));
  }
  ERR_clear_error();
  if (out.empty()) return Status::BadRequest("data does not contain any valid RSA or ECDSA certificates");
  return out;
}

std::string CertificateDerToPem(const std::string& der) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  X509Ptr cert(d2i_X509(nullptr, &p, static_cast<long>(der.size())));
  if (!cert) return "";
  BioPtr bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(bio.get(), cert.get());
  return BioString(bio.get());
}

Status CheckKeyPair(const KeyPair& pair) {
  auto cert = ParseCertificate(pair.cert_pem);
  if (!cert.ok()) return cert.status();
  auto key = ParsePrivateKey(pair.key_pem);
  if (!key.ok()) return key.status();
  if (X509_check_private_key(cert->get(), key->get()) != 1) {
    ERR_clear_error();
    return Status::BadRequest("tls: private key does not match public key");
  }
  return Status::OK();
}

Result<CertificateName> CertificateSubject(const std::string& der) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  X509Ptr cert(d2i_X509(nullptr, &p, static_cast<long>(der.size())));
  if (!cert) return Status::BadRequest("cannot parse certificate");
  CertificateName s;
  X509_NAME* name = X509_get_subject_name(cert.get());
  for (int i = 0; i < X509_NAME_entry_count(name); ++i) {
    X509_NAME_ENTRY* e = X509_NAME_get_entry(name, i);
    const int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(e));
    if (nid != NID_commonName && nid != NID_organizationName) continue;
    unsigned char* utf8 = nullptr;
    const int n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(e));
    if (n < 0) continue;
    std::string value(reinterpret_cast<char*>(utf8), static_cast<size_t>(n));
    OPENSSL_free(utf8);
    // Go keeps the last CN of a subject and every O in order.
    if (nid == NID_commonName) s.common_name = std::move(value);
    else s.organizations.push_back(std::move(value));
  }
  return s;
}

std::string Base64Encode(const std::string& data) {
  std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(data.data()), static_cast<int>(data.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::BadRequest("open " + path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status WriteFileAtomic(const std::string& path, const std::string& data, unsigned mode) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::Internal("cannot write " + tmp + ": " + std::strerror(errno));
    out << data;
    out.flush();
    if (!out) return Status::Internal("cannot write " + tmp);
  }
  ::chmod(tmp.c_str(), mode);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Status::Internal("cannot rename " + tmp + " to " + path + ": " + err);
  }
  return Status::OK();
}

}  // namespace kube::auth
