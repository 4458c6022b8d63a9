#include "auth/token_file_authenticator.h"

#include <vector>

#include "auth/certificates.h"

namespace kube::auth {

namespace {

// One record of Go's encoding/csv with TrimLeadingSpace: fields separated by commas, a field
// starting with '"' runs to its closing quote ("" is a quote) and may span lines. Advances `pos`
// past the record's line end. Returns false on a bare quote inside a quoted field's end.
bool ReadRecord(const std::string& text, size_t& pos, std::vector<std::string>& fields, std::string& error,
                int line) {
  fields.clear();
  std::string field;
  while (true) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
    field.clear();
    if (pos < text.size() && text[pos] == '"') {
      ++pos;
      while (true) {
        if (pos >= text.size()) {
          error = "record on line " + std::to_string(line) + ": extraneous or missing \" in quoted-field";
          return false;
        }
        if (text[pos] == '"') {
          if (pos + 1 < text.size() && text[pos + 1] == '"') {
            field += '"';
            pos += 2;
            continue;
          }
          ++pos;
          break;
        }
        field += text[pos++];
      }
      if (pos < text.size() && text[pos] != ',' && text[pos] != '\n' && text[pos] != '\r') {
        error = "parse error on line " + std::to_string(line) + ": extraneous or missing \" in quoted-field";
        return false;
      }
    } else {
      while (pos < text.size() && text[pos] != ',' && text[pos] != '\n') {
        if (text[pos] == '"') {
          error = "parse error on line " + std::to_string(line) + ": bare \" in non-quoted-field";
          return false;
        }
        field += text[pos++];
      }
      if (!field.empty() && field.back() == '\r') field.pop_back();
    }
    fields.push_back(field);
    if (pos < text.size() && text[pos] == ',') {
      ++pos;
      continue;
    }
    if (pos < text.size() && text[pos] == '\r') ++pos;
    if (pos < text.size() && text[pos] == '\n') ++pos;
    return true;
  }
}

std::vector<std::string> SplitComma(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

}  // namespace

Result<std::shared_ptr<const TokenFileAuthenticator>> TokenFileAuthenticator::Parse(const std::string& csv) {
  std::shared_ptr<TokenFileAuthenticator> a(new TokenFileAuthenticator());
  size_t pos = 0;
  int line = 0;
  std::vector<std::string> record;
  while (pos < csv.size()) {
    ++line;
    // encoding/csv skips empty lines.
    if (csv[pos] == '\n' || (csv[pos] == '\r' && pos + 1 < csv.size() && csv[pos + 1] == '\n')) {
      pos += csv[pos] == '\r' ? 2 : 1;
      continue;
    }
    std::string error;
    if (!ReadRecord(csv, pos, record, error, line)) return Status::BadRequest(error);
    if (record.size() < 3) {
      return Status::BadRequest("token file must have at least 3 columns (token, user name, user uid), found " +
                                std::to_string(record.size()));
    }
    if (record[0].empty()) continue;  // kube warns and skips empty tokens
    UserInfo user;
    user.name = record[1];
    user.uid = record[2];
    if (record.size() >= 4) user.groups = SplitComma(record[3]);
    a->tokens_[record[0]] = std::move(user);
  }
  return std::shared_ptr<const TokenFileAuthenticator>(std::move(a));
}

Result<std::shared_ptr<const TokenFileAuthenticator>> TokenFileAuthenticator::Load(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  auto parsed = Parse(*text);
  if (!parsed.ok()) return Status::BadRequest("token file '" + path + "': " + parsed.status().message());
  return parsed;
}

AuthenticationResult TokenFileAuthenticator::AuthenticateToken(const std::string& token,
                                                               const std::vector<std::string>&) const {
  auto it = tokens_.find(token);
  if (it == tokens_.end()) return std::optional<AuthenticatedUser>();
  return std::optional<AuthenticatedUser>(AuthenticatedUser{it->second, {}});
}

}  // namespace kube::auth
