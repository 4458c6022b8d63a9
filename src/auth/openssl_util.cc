#include "auth/openssl_util.h"

#include <openssl/pem.h>

#include <cstring>

namespace kube::auth {

namespace {

BioPtr MemBio(const std::string& pem) { return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))); }

bool SupportedKey(EVP_PKEY* key) {
  const int id = EVP_PKEY_get_base_id(key);
  return id == EVP_PKEY_RSA || id == EVP_PKEY_EC;
}

}  // namespace

Result<X509Ptr> ParseCertificate(const std::string& pem) {
  BioPtr bio = MemBio(pem);
  X509Ptr cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  if (!cert) {
    ERR_clear_error();
    return Status::BadRequest("data does not contain any valid RSA or ECDSA certificates");
  }
  return cert;
}

Result<EvpPkeyPtr> ParsePrivateKey(const std::string& pem) {
  BioPtr bio = MemBio(pem);
  EvpPkeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
  if (!key || !SupportedKey(key.get())) {
    ERR_clear_error();
    return Status::BadRequest("data does not contain a valid RSA or ECDSA private key");
  }
  return key;
}

Result<std::vector<EvpPkeyPtr>> ParsePublicKeys(const std::string& pem) {
  BioPtr bio = MemBio(pem);
  std::vector<EvpPkeyPtr> keys;
  while (true) {
    char* name = nullptr;
    char* header = nullptr;
    unsigned char* data = nullptr;
    long len = 0;
    if (!PEM_read_bio(bio.get(), &name, &header, &data, &len)) break;
    const std::string type = name;
    const unsigned char* p = data;
    EvpPkeyPtr key;
    if (type == "PUBLIC KEY") {
      key.reset(d2i_PUBKEY(nullptr, &p, len));
    } else if (type == "RSA PUBLIC KEY") {
      key.reset(d2i_PublicKey(EVP_PKEY_RSA, nullptr, &p, len));
    } else if (type == "CERTIFICATE") {
      X509Ptr cert(d2i_X509(nullptr, &p, len));
      if (cert) key.reset(X509_get_pubkey(cert.get()));
    } else if (type == "PRIVATE KEY" || type == "RSA PRIVATE KEY" || type == "EC PRIVATE KEY") {
      key.reset(d2i_AutoPrivateKey(nullptr, &p, len));
    }
    OPENSSL_free(name);
    OPENSSL_free(header);
    OPENSSL_free(data);
    if (key && SupportedKey(key.get())) keys.push_back(std::move(key));
  }
  ERR_clear_error();
  if (keys.empty()) return Status::BadRequest("data does not contain any valid RSA or ECDSA public keys");
  return keys;
}

}  // namespace kube::auth
