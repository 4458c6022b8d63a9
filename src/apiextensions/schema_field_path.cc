#include "apiextensions/schema_field_path.h"

#include <vector>

#include "apiextensions/crd_internal.h"
#include "util/go_format.h"

namespace kube::apiextensions {

using namespace json_access;

namespace {

// The scanner kube uses: '.', '[' and ']' are single-character tokens; a single-quoted string
// (with backslash escapes) is one token even when it contains delimiters; anything else runs up
// to the next delimiter.
std::vector<std::string> Tokens(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '\'') {
      size_t j = i + 1;
      while (j < s.size() && !(s[j] == '\'' && s[j - 1] != '\\')) ++j;
      if (j < s.size()) {
        out.emplace_back(s.substr(i, j - i + 1));
        i = j + 1;
        continue;
      }
      // An unterminated quote runs to the end of the input, delimiters included.
      out.emplace_back(s.substr(i));
      break;
    }
    if (s[i] == '.' || s[i] == '[' || s[i] == ']') {
      out.emplace_back(1, s[i]);
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && s[j] != '.' && s[j] != '[' && s[j] != ']') ++j;
    out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// unescapeSingleQuote: \a \b \f \n \r \t \v \' \\ ; any other escape is an error.
bool Unescape(std::string_view s, std::string* out, std::string* err) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out->push_back(s[i]);
      continue;
    }
    const char d = s[++i];
    if (char control = GoControlEscape(d); control != '\0') {
      out->push_back(control);
    } else if (d == '\'' || d == '\\') {
      out->push_back(d);
    } else {
      *err = std::string("invalid escape char \\") + d;
      return false;
    }
  }
  return true;
}

}  // namespace

SchemaFieldPath ResolveSchemaFieldPath(std::string_view json_path, const nlohmann::json& root_schema,
                                       bool allow_array_notation) {
  SchemaFieldPath out;
  const nlohmann::json* schema = &root_schema;
  const auto fail = [&](std::string msg) {
    out.error = std::move(msg);
    out.schema = nullptr;
    return out;
  };
  // Steps into a property (named) or the additionalProperties schema (a map key).
  const auto step = [&](const std::string& name) -> bool {
    const nlohmann::json* props = Obj(schema, "properties");
    if (props != nullptr && !props->empty()) {
      out.path = out.path.empty() ? name : out.path + "." + name;
      if (out.root.empty()) out.root = name;
      schema = Get(props, name);
      if (schema == nullptr) return fail("does not refer to a valid field"), false;
      return true;
    }
    if (const nlohmann::json* ap = Get(schema, "additionalProperties")) {
      out.path += "[" + name + "]";
      if (out.root.empty()) out.root = "[" + name + "]";
      schema = ap->is_object() ? ap : nullptr;
      if (schema == nullptr) return fail("does not refer to a valid field"), false;
      return true;
    }
    return fail("does not refer to a valid field"), false;
  };

  const std::vector<std::string> tokens = Tokens(json_path);
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& tok = tokens[i];
    if (tok == "[") {
      if (!allow_array_notation) return fail("array notation is not allowed");
      if (++i >= tokens.size()) return fail("unexpected end of JSON path");
      const std::string& quoted = tokens[i];
      if (quoted.size() < 2 || quoted.front() != '\'' || quoted.back() != '\'') {
        return fail("expected single quoted string but got " + quoted);
      }
      std::string name, err;
      if (!Unescape(std::string_view(quoted).substr(1, quoted.size() - 2), &name, &err)) {
        return fail("invalid string literal: " + err);
      }
      if (!step(name)) return out;
      if (++i >= tokens.size()) return fail("unexpected end of JSON path");
      if (tokens[i] != "]") return fail("expected ] but got " + tokens[i]);
    } else if (tok == ".") {
      if (++i >= tokens.size()) return fail("unexpected end of JSON path");
      if (!step(tokens[i])) return out;
    } else {
      return fail("expected [ or . but got: " + tok);
    }
  }
  out.schema = schema;
  return out;
}

}  // namespace kube::apiextensions
