// Static bearer tokens (--token-auth-file), kube's CSV format: one line per token,
//   token,user,uid[,"group1,group2,..."]
// read as Go's encoding/csv does (quoted fields, a comment-free file, lines with fewer than
// three fields refused); a later line with the same token replaces the earlier one, blank lines
// are skipped. A token that is not in the file is no opinion here; the bearer-token step turns
// "nobody knew it" into 401.
//
// Thread-safety: immutable after creation.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "auth/authenticator.h"

namespace kube::auth {

class TokenFileAuthenticator final : public TokenAuthenticator {
 public:
  static Result<std::shared_ptr<const TokenFileAuthenticator>> Parse(const std::string& csv);
  static Result<std::shared_ptr<const TokenFileAuthenticator>> Load(const std::string& path);

  AuthenticationResult AuthenticateToken(const std::string& token,
                                         const std::vector<std::string>& audiences) const override;

 private:
  std::map<std::string, UserInfo> tokens_;
};

}  // namespace kube::auth
