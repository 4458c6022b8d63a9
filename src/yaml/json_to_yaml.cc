// JSON -> YAML as sigs.k8s.io/yaml.JSONToYAML prints it. go-yaml v2's emitter is a port of
// libyaml's; the scalar analysis, style selection, indentation and line folding below follow it
// so that output matches byte for byte in the common cases.

#include <cmath>
#include <cstdint>

#include "yaml/emitter_support.h"
#include "yaml/resolve.h"
#include "yaml/yaml.h"

namespace kube::yaml {

namespace {

using Json = nlohmann::json;

using internal::Analysis;
using internal::Analyze;
using internal::IsBom;
using internal::IsBreak;
using internal::IsPrintable;
using internal::IsSpace;
using internal::SortedKeys;
using internal::Width;

constexpr int kBestIndent = 2;
constexpr int kBestWidth = 80;
// libyaml only writes keys up to this many bytes as simple keys ("key: value").
constexpr size_t kMaxSimpleKeyLength = 128;
// Collections nested deeper than this are written in flow style (as their compact JSON, which is
// YAML too): block indentation grows with depth, so a deeply nested value would otherwise cost
// output quadratic in its size. go-yaml indents without limit; no real object comes near it.
constexpr int kMaxBlockDepth = 64;

enum class Style { kPlain, kSingle, kDouble, kLiteral };

class Emitter {
 public:
  std::string Finish() {
    WriteIndent(0);  // document end
    return std::move(out_);
  }

  // `parent_indent` is the indentation of the enclosing collection (-1 at the root).
  void Node(const Json& v, int parent_indent, bool mapping_value) {
    if ((v.is_object() || v.is_array()) && !v.empty() && depth_ >= kMaxBlockDepth) {
      return WriteIndicator(v.dump(-1, ' ', false, Json::error_handler_t::replace), true, false, false);
    }
    if (v.is_object()) {
      if (v.empty()) return EmptyFlow("{", "}");
      ++depth_;
      Mapping(v, parent_indent < 0 ? 0 : parent_indent + kBestIndent);
      --depth_;
      return;
    }
    if (v.is_array()) {
      if (v.empty()) return EmptyFlow("[", "]");
      const bool indentless = mapping_value && !indention_;
      ++depth_;
      Sequence(v, parent_indent < 0 ? 0 : parent_indent + (indentless ? 0 : kBestIndent));
      --depth_;
      return;
    }
    if (v.is_string()) {
      return String(internal::SanitizeUtf8(v.get_ref<const std::string&>()), parent_indent, false);
    }
    if (v.is_binary()) return String("", parent_indent, false);
    Scalar(NumberText(v), Style::kPlain, parent_indent, false);
  }

 private:
  static std::string NumberText(const Json& v) {
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    // is_number_integer() is also true for unsigned values, so test unsigned first.
    if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
    if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
    if (v.is_number_float()) {
      const double f = v.get<double>();
      if (!std::isfinite(f)) return "null";  // as nlohmann serialises it
      // Go's JSON encoder prints integral values as integers, which go-yaml reads back as ints.
      if (f == std::trunc(f) && std::fabs(f) < 1e21) {
        if (f >= -9223372036854775808.0 && f < 9223372036854775808.0) {
          return std::to_string(static_cast<int64_t>(f));
        }
        if (f > 0 && f < 18446744073709551616.0) return std::to_string(static_cast<uint64_t>(f));
      }
      return internal::FormatFloatG(f, 64);
    }
    return "null";
  }

  void Mapping(const Json& obj, int indent) {
    for (const std::string& key_raw : SortedKeys(obj)) {
      const std::string key = internal::SanitizeUtf8(key_raw);
      const Json& value = obj.find(key_raw).value();
      WriteIndent(indent);
      const bool simple = key.size() <= kMaxSimpleKeyLength && !Analyze(key).multiline;
      if (simple) {
        String(key, indent, true);
        WriteIndicator(":", false, false, false);
        Node(value, indent, true);
      } else {
        WriteIndicator("?", true, false, true);
        String(key, indent, false);
        WriteIndent(indent);
        WriteIndicator(":", true, false, true);
        Node(value, indent, true);
      }
    }
  }

  void Sequence(const Json& arr, int indent) {
    for (const Json& item : arr) {
      WriteIndent(indent);
      WriteIndicator("-", true, false, true);
      Node(item, indent, false);
    }
  }

  void EmptyFlow(std::string_view open, std::string_view close) {
    WriteIndicator(open, true, true, false);
    WriteIndicator(close, false, false, false);
  }

  // go-yaml's stringv: quote strings that would read back as something else.
  void String(const std::string& s, int parent_indent, bool simple_key) {
    internal::Scalar resolved;
    internal::Resolve("", s, &resolved);
    // Unlike go-yaml, quote a "<<" key: plain, it would read back as a merge key.
    const bool can_use_plain = resolved.tag == internal::kStrTag && !internal::IsBase60Float(s) &&
                               !(simple_key && s == "<<");
    Style style = s.find('\n') != std::string::npos ? Style::kLiteral
                  : can_use_plain                   ? Style::kPlain
                                                    : Style::kDouble;
    Scalar(s, style, parent_indent, simple_key);
  }

  // yaml_emitter_select_scalar_style + process_scalar.
  void Scalar(const std::string& s, Style style, int parent_indent, bool simple_key) {
    const Analysis a = Analyze(s);
    if (simple_key && a.multiline) style = Style::kDouble;
    if (style == Style::kPlain && (!a.block_plain_allowed || (s.empty() && simple_key))) {
      style = Style::kSingle;
    }
    if (style == Style::kSingle && !a.single_quoted_allowed) style = Style::kDouble;
    if (style == Style::kLiteral && (!a.block_allowed || simple_key)) style = Style::kDouble;
    const int indent = parent_indent < 0 ? kBestIndent : parent_indent + kBestIndent;
    const bool allow_breaks = !simple_key;
    switch (style) {
      case Style::kPlain:
        return WritePlain(s, indent, allow_breaks);
      case Style::kSingle:
        return WriteSingleQuoted(s, indent, allow_breaks);
      case Style::kDouble:
        return WriteDoubleQuoted(s, indent, allow_breaks);
      case Style::kLiteral:
        return WriteLiteral(s, indent);
    }
  }

  void Put(char c) {
    out_ += c;
    ++column_;
  }
  void PutBreak() {
    out_ += '\n';
    column_ = 0;
  }
  void Write(std::string_view s, size_t* i) {
    const size_t w = Width(s, *i);
    out_.append(s.substr(*i, w));
    *i += w;
    ++column_;
  }
  void WriteBreak(std::string_view s, size_t* i) {
    if (s[*i] == '\n') {
      PutBreak();
      ++*i;
    } else {
      Write(s, i);
      column_ = 0;
    }
  }

  void WriteIndent(int indent) {
    if (!indention_ || column_ > indent || (column_ == indent && !whitespace_)) PutBreak();
    while (column_ < indent) Put(' ');
    whitespace_ = true;
    indention_ = true;
  }

  void WriteIndicator(std::string_view ind, bool need_whitespace, bool is_whitespace,
                      bool is_indention) {
    if (need_whitespace && !whitespace_) Put(' ');
    for (size_t i = 0; i < ind.size();) Write(ind, &i);
    whitespace_ = is_whitespace;
    indention_ = indention_ && is_indention;
  }

  void WritePlain(std::string_view s, int indent, bool allow_breaks) {
    if (!whitespace_) Put(' ');
    bool spaces = false, breaks = false;
    for (size_t i = 0; i < s.size();) {
      if (IsSpace(s, i)) {
        if (allow_breaks && !spaces && column_ > kBestWidth && !IsSpace(s, i + 1)) {
          WriteIndent(indent);
          ++i;
        } else {
          Write(s, &i);
        }
        spaces = true;
      } else if (IsBreak(s, i)) {
        if (!breaks && s[i] == '\n') PutBreak();
        WriteBreak(s, &i);
        indention_ = true;
        breaks = true;
      } else {
        if (breaks) WriteIndent(indent);
        Write(s, &i);
        indention_ = false;
        spaces = breaks = false;
      }
    }
    whitespace_ = false;
    indention_ = false;
  }

  void WriteSingleQuoted(std::string_view s, int indent, bool allow_breaks) {
    WriteIndicator("'", true, false, false);
    bool spaces = false, breaks = false;
    for (size_t i = 0; i < s.size();) {
      if (IsSpace(s, i)) {
        if (allow_breaks && !spaces && column_ > kBestWidth && i != 0 && i != s.size() - 1 &&
            !IsSpace(s, i + 1)) {
          WriteIndent(indent);
          ++i;
        } else {
          Write(s, &i);
        }
        spaces = true;
      } else if (IsBreak(s, i)) {
        if (!breaks && s[i] == '\n') PutBreak();
        WriteBreak(s, &i);
        indention_ = true;
        breaks = true;
      } else {
        if (breaks) WriteIndent(indent);
        if (s[i] == '\'') Put('\'');
        Write(s, &i);
        indention_ = false;
        spaces = breaks = false;
      }
    }
    if (breaks) WriteIndent(indent);
    WriteIndicator("'", false, false, false);
    whitespace_ = false;
    indention_ = false;
  }

  void WriteDoubleQuoted(std::string_view s, int indent, bool allow_breaks) {
    WriteIndicator("\"", true, false, false);
    bool spaces = false;
    for (size_t i = 0; i < s.size();) {
      if (!IsPrintable(s, i) || IsBom(s, i) || IsBreak(s, i) || s[i] == '"' || s[i] == '\\') {
        const size_t w = Width(s, i);
        const unsigned char c = static_cast<unsigned char>(s[i]);
        uint32_t v = w == 1 ? c : w == 2 ? (c & 0x1F) : w == 3 ? (c & 0x0F) : (c & 0x07);
        for (size_t k = 1; k < w; ++k) v = (v << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        i += w;
        Put('\\');
        switch (v) {
          case 0x00:
            Put('0');
            break;
          case 0x07:
            Put('a');
            break;
          case 0x08:
            Put('b');
            break;
          case 0x09:
            Put('t');
            break;
          case 0x0A:
            Put('n');
            break;
          case 0x0B:
            Put('v');
            break;
          case 0x0C:
            Put('f');
            break;
          case 0x0D:
            Put('r');
            break;
          case 0x1B:
            Put('e');
            break;
          case 0x22:
            Put('"');
            break;
          case 0x5C:
            Put('\\');
            break;
          case 0x85:
            Put('N');
            break;
          case 0xA0:
            Put('_');
            break;
          case 0x2028:
            Put('L');
            break;
          case 0x2029:
            Put('P');
            break;
          default: {
            int digits = 8;
            if (v <= 0xFF) {
              Put('x');
              digits = 2;
            } else if (v <= 0xFFFF) {
              Put('u');
              digits = 4;
            } else {
              Put('U');
            }
            for (int k = (digits - 1) * 4; k >= 0; k -= 4) {
              const int d = static_cast<int>((v >> k) & 0x0F);
              Put(static_cast<char>(d < 10 ? '0' + d : 'A' + d - 10));
            }
          }
        }
        spaces = false;
      } else if (IsSpace(s, i)) {
        if (allow_breaks && !spaces && column_ > kBestWidth && i != 0 && i != s.size() - 1) {
          WriteIndent(indent);
          if (IsSpace(s, i + 1)) Put('\\');
          ++i;
        } else {
          Write(s, &i);
        }
        spaces = true;
      } else {
        Write(s, &i);
        spaces = false;
      }
    }
    WriteIndicator("\"", false, false, false);
    whitespace_ = false;
    indention_ = false;
  }

  void WriteLiteral(std::string_view s, int indent) {
    WriteIndicator("|", true, false, false);
    // Block scalar hints: an indentation indicator when the text starts with a space or line
    // break, and the chomping indicator for the trailing line breaks.
    if (IsSpace(s, 0) || IsBreak(s, 0)) {
      WriteIndicator(std::string(1, static_cast<char>('0' + kBestIndent)), false, false, false);
    }
    const char* chomp = nullptr;
    if (s.empty()) {
      chomp = "-";
    } else {
      size_t i = s.size() - 1;
      while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
      if (!IsBreak(s, i)) {
        chomp = "-";
      } else if (i == 0) {
        chomp = "+";
      } else {
        --i;
        while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
        if (IsBreak(s, i)) chomp = "+";
      }
    }
    if (chomp != nullptr) WriteIndicator(chomp, false, false, false);
    PutBreak();
    indention_ = true;
    whitespace_ = true;
    bool breaks = true;
    for (size_t i = 0; i < s.size();) {
      if (IsBreak(s, i)) {
        WriteBreak(s, &i);
        indention_ = true;
        breaks = true;
      } else {
        if (breaks) WriteIndent(indent);
        Write(s, &i);
        indention_ = false;
        breaks = false;
      }
    }
  }

  int depth_ = 0;  // open block collections
  std::string out_;
  int column_ = 0;
  bool whitespace_ = true;
  bool indention_ = true;
};

}  // namespace

std::string JsonToYaml(const nlohmann::json& j) {
  Emitter e;
  e.Node(j, -1, false);
  return e.Finish();
}

}  // namespace kube::yaml
