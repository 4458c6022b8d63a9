// YAML -> JSON. yaml-cpp's event parser builds a node tree (so aliases stay visible as aliases),
// which is then decoded with go-yaml v2's rules into Go-like values and converted to JSON as
// sigs.k8s.io/yaml does.

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <sstream>
#include <unordered_map>

#include "yaml/decode.h"
#include "yaml/yaml.h"

namespace kube::yaml {

namespace {

using internal::Node;

class TreeBuilder : public YAML::EventHandler {
 public:
  std::vector<Node> nodes;
  size_t root = kNone;
  static constexpr size_t kNone = static_cast<size_t>(-1);

  // True for a document with no content: empty, or a bare `---`.
  bool Empty() const {
    return nodes.empty() ||
           (nodes.size() == 1 && nodes[0].kind == Node::Kind::kNull && nodes[0].anchor.empty());
  }

  int start_pos = -1;  // stream position of the document start
  int start_line = -1;

  void OnDocumentStart(const YAML::Mark& mark) override {
    start_pos = mark.pos;
    start_line = mark.line;
  }
  void OnDocumentEnd() override {}
  void OnAnchor(const YAML::Mark&, const std::string& name) override { pending_anchor_ = name; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Add(Node::Kind::kNull, mark, "", "", anchor);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    Add(Node::Kind::kScalar, mark, tag, value, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) throw internal::DecodeError("unknown anchor referenced");
    const size_t idx = Add(Node::Kind::kAlias, mark, "", "", YAML::NullAnchor);
    nodes[idx].target = it->second;
    nodes[idx].anchor = nodes[it->second].anchor;
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open_.push_back(Add(Node::Kind::kSeq, mark, tag, "", anchor));
  }
  void OnSequenceEnd() override { Close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open_.push_back(Add(Node::Kind::kMap, mark, tag, "", anchor));
  }
  void OnMapEnd() override { Close(); }

 private:
  size_t Add(Node::Kind kind, const YAML::Mark& mark, const std::string& tag,
             const std::string& value, YAML::anchor_t anchor) {
    const size_t idx = nodes.size();
    Node n;
    n.kind = kind;
    n.tag = tag;
    n.value = value;
    n.line = mark.is_null() ? -1 : mark.line;
    if (anchor != YAML::NullAnchor) {
      n.anchor = pending_anchor_;
      anchors_[anchor] = idx;
    }
    pending_anchor_.clear();
    nodes.push_back(std::move(n));
    if (!open_.empty()) {
      nodes[open_.back()].children.push_back(idx);
    } else if (root == kNone) {
      root = idx;
    }
    return idx;
  }
  void Close() {
    if (!open_.empty()) open_.pop_back();
  }

  std::vector<size_t> open_;
  std::unordered_map<YAML::anchor_t, size_t> anchors_;
  std::string pending_anchor_;
};

// libyaml's reader rejects malformed UTF-8 and control characters before parsing; yaml-cpp does
// not, so check here (except for UTF-16/32 input, which yaml-cpp transcodes itself).
std::optional<std::string> CheckInput(std::string_view s) {
  if (s.size() >= 2 &&
      ((s[0] == '\xFF' && s[1] == '\xFE') || (s[0] == '\xFE' && s[1] == '\xFF') || s[0] == '\0')) {
    return std::nullopt;
  }
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0) return "invalid leading UTF-8 octet";
    if (i + n > s.size()) return "incomplete UTF-8 octet sequence";
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < n; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return "invalid trailing UTF-8 octet";
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) {
      return "invalid length of a UTF-8 sequence";
    }
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return "invalid Unicode character";
    const bool allowed = cp == 0x09 || cp == 0x0A || cp == 0x0D || (cp >= 0x20 && cp <= 0x7E) ||
                         cp == 0x85 || (cp >= 0xA0 && cp <= 0xD7FF) ||
                         (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
    if (!allowed) return "control characters are not allowed";
    i += n;
  }
  return std::nullopt;
}

// go-yaml's wording for the syntax errors yaml-cpp reports differently.
std::string ProblemText(const std::string& msg) {
  static const std::pair<std::string_view, std::string_view> kMap[] = {
      {YAML::ErrorMsg::MAP_VALUE, "mapping values are not allowed in this context"},
      {YAML::ErrorMsg::END_OF_MAP, "did not find expected key"},
      {YAML::ErrorMsg::END_OF_SEQ, "did not find expected '-' indicator"},
      {YAML::ErrorMsg::END_OF_MAP_FLOW, "did not find expected ',' or '}'"},
      {YAML::ErrorMsg::END_OF_SEQ_FLOW, "did not find expected ',' or ']'"},
      {YAML::ErrorMsg::UNKNOWN_TOKEN, "found character that cannot start any token"},
      {YAML::ErrorMsg::EOF_IN_SCALAR, "found unexpected end of stream"},
      {YAML::ErrorMsg::TAB_IN_INDENTATION, "found a tab character that violates indentation"},
      {YAML::ErrorMsg::BLOCK_ENTRY, "block sequence entries are not allowed in this context"},
      {YAML::ErrorMsg::MAP_KEY, "mapping keys are not allowed in this context"},
      {YAML::ErrorMsg::FLOW_END, "did not find expected node content"},
  };
  for (const auto& [from, to] : kMap) {
    if (msg == from) return std::string(to);
  }
  if (msg.rfind(YAML::ErrorMsg::INVALID_ESCAPE, 0) == 0) {
    return "found unknown escape character while parsing a quoted scalar";
  }
  return msg;
}

// go-yaml reports an undefined alias by name and without a line.
std::string UnknownAnchor(std::string_view input, const YAML::Mark& mark) {
  if (mark.pos >= 0 && static_cast<size_t>(mark.pos) < input.size() && input[mark.pos] == '*') {
    size_t end = static_cast<size_t>(mark.pos) + 1;
    while (end < input.size() &&
           std::string_view(" \t\r\n,[]{}").find(input[end]) == std::string_view::npos) {
      ++end;
    }
    return "unknown anchor '" + std::string(input.substr(mark.pos + 1, end - mark.pos - 1)) +
           "' referenced";
  }
  return "unknown anchor referenced";
}

Status BadRequest(const std::string& problem) {
  return Status::BadRequest("error converting YAML to JSON: yaml: " + problem);
}

Result<nlohmann::json> Convert(std::string_view yaml, bool strict) {
  try {
    if (std::optional<std::string> bad = CheckInput(yaml)) return BadRequest(*bad);
    std::istringstream in{std::string(yaml)};
    YAML::Parser parser(in);
    TreeBuilder doc;
    if (!parser.HandleNextDocument(doc) || doc.root == TreeBuilder::kNone) {
      return nlohmann::json(nullptr);
    }
    int last_empty_pos = -1;
    while (true) {
      TreeBuilder next;
      if (!parser.HandleNextDocument(next)) break;
      if (next.Empty() && next.start_pos == last_empty_pos) {
        // yaml-cpp keeps returning the same empty document when it meets a token that cannot
        // start one (e.g. a stray ',' after a block sequence) instead of failing.
        return BadRequest("line " + std::to_string(next.start_line + 1) +
                          ": did not find expected <document start>");
      }
      if (next.Empty()) last_empty_pos = next.start_pos;
      if (!next.Empty()) {
        const int line = next.nodes.front().line;
        return BadRequest((line >= 0 ? "line " + std::to_string(line + 1) + ": " : "") +
                          "expected a single document in the stream, found more");
      }
    }
    return internal::Decode(doc.nodes, doc.root, strict);
  } catch (const internal::DecodeError& e) {
    return BadRequest(e.what());
  } catch (const YAML::DeepRecursion& e) {
    return BadRequest("line " + std::to_string(e.mark.line + 1) + ": exceeded max depth of " +
                      std::to_string(e.depth()));
  } catch (const YAML::Exception& e) {
    if (e.msg == YAML::ErrorMsg::UNKNOWN_ANCHOR) return BadRequest(UnknownAnchor(yaml, e.mark));
    std::string where;
    if (!e.mark.is_null()) where = "line " + std::to_string(e.mark.line + 1) + ": ";
    return BadRequest(where + ProblemText(e.msg));
  } catch (const std::exception& e) {
    return BadRequest(e.what());
  } catch (...) {
    return BadRequest("unknown problem parsing YAML content");
  }
}

}  // namespace

Result<nlohmann::json> YamlToJson(std::string_view yaml) {
  return Convert(yaml, false);
}

Result<nlohmann::json> YamlToJsonStrict(std::string_view yaml) {
  return Convert(yaml, true);
}

}  // namespace kube::yaml
