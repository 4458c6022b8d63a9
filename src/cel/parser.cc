#include "cel/parser.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "cel/lexer.h"
#include "cel/macros.h"

namespace kube::cel {

namespace {

using internal::ExprFactory;
using internal::Lexer;
using internal::Token;
using internal::TokenKind;

// What ANTLR lists when an expression was expected (cel-go's grammar), for its messages.
constexpr std::string_view kExpectExpr =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

class Parser {
 public:
  Parser(std::string_view source, const ParseOptions& options) : lexer_(source), options_(options) {
    Advance();
  }

  ParseResult Run() {
    ParseResult result;
    ExprPtr e = Expression();
    if (errors_.empty() && tok_.kind != TokenKind::kEof) Mismatched("<EOF>");
    result.errors = std::move(errors_);
    if (result.errors.empty()) result.expr = std::move(e);
    result.next_id = factory_.next_id();
    return result;
  }

 private:
  // ---- tokens
  void Advance() {
    tok_ = lexer_.Next();
    if (tok_.kind == TokenKind::kError) {
      Fail(tok_.offset, tok_.value);
      tok_.kind = TokenKind::kEof;
    }
  }
  bool Is(std::string_view punct) const { return tok_.kind == TokenKind::kPunct && tok_.text == punct; }
  bool IsWord(std::string_view word) const { return tok_.kind == TokenKind::kIdent && tok_.text == word; }
  bool Accept(std::string_view punct) {
    if (!Is(punct)) return false;
    Advance();
    return true;
  }
  std::string Quoted() const { return "'" + std::string(tok_.text) + "'"; }

  // ---- errors: the first one stops the parse (the rest would only echo it)
  void Fail(int32_t offset, std::string message) {
    if (errors_.empty()) errors_.push_back({offset, std::move(message)});
  }
  bool Failed() const { return !errors_.empty(); }
  void Mismatched(std::string_view expecting) {
    Fail(tok_.offset, "Syntax error: mismatched input " + Quoted() + " expecting " + std::string(expecting));
  }
  void Expect(std::string_view punct) {
    if (Accept(punct)) return;
    Fail(tok_.offset, "Syntax error: missing '" + std::string(punct) + "' at " + Quoted());
  }
  ExprPtr Error() { return factory_.Const(Value::Null(), tok_.offset); }

  // Bounds recursion: every nested expression passes through here.
  class Depth {
   public:
    explicit Depth(Parser* p) : p_(p) { ++p_->depth_; }
    ~Depth() { --p_->depth_; }
    bool Exceeded() const { return p_->depth_ > p_->options_.max_depth; }

   private:
    Parser* p_;
  };

  // ---- grammar
  ExprPtr Expression() {
    Depth depth(this);
    if (depth.Exceeded()) {
      Fail(tok_.offset, "expression recursion limit exceeded: " + std::to_string(options_.max_depth));
      return Error();
    }
    ExprPtr cond = Or();
    if (Failed() || !Is("?")) return cond;
    const int32_t at = tok_.offset;
    Advance();
    ExprPtr then = Or();
    if (Failed()) return then;
    Expect(":");
    if (Failed()) return then;
    ExprPtr otherwise = Expression();
    std::vector<ExprPtr> args;
    args.push_back(std::move(cond));
    args.push_back(std::move(then));
    args.push_back(std::move(otherwise));
    return factory_.Call("_?_:_", std::move(args), at);
  }

  ExprPtr Binary(std::string op, ExprPtr lhs, ExprPtr rhs, int32_t at) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(lhs));
    args.push_back(std::move(rhs));
    return factory_.Call(std::move(op), std::move(args), at);
  }

  ExprPtr Or() {
    ExprPtr e = And();
    while (!Failed() && Is("||")) {
      const int32_t at = tok_.offset;
      Advance();
      e = Binary("_||_", std::move(e), And(), at);
    }
    return e;
  }

  ExprPtr And() {
    ExprPtr e = Relation();
    while (!Failed() && Is("&&")) {
      const int32_t at = tok_.offset;
      Advance();
      e = Binary("_&&_", std::move(e), Relation(), at);
    }
    return e;
  }

  ExprPtr Relation() {
    ExprPtr e = Addition();
    while (!Failed()) {
      std::string op;
      if (Is("<")) op = "_<_";
      else if (Is("<=")) op = "_<=_";
      else if (Is(">")) op = "_>_";
      else if (Is(">=")) op = "_>=_";
      else if (Is("==")) op = "_==_";
      else if (Is("!=")) op = "_!=_";
      else if (IsWord("in")) op = "@in";
      else break;
      const int32_t at = tok_.offset;
      Advance();
      e = Binary(std::move(op), std::move(e), Addition(), at);
    }
    return e;
  }

  ExprPtr Addition() {
    ExprPtr e = Multiplication();
    while (!Failed() && (Is("+") || Is("-"))) {
      std::string op = Is("+") ? "_+_" : "_-_";
      const int32_t at = tok_.offset;
      Advance();
      e = Binary(std::move(op), std::move(e), Multiplication(), at);
    }
    return e;
  }

  ExprPtr Multiplication() {
    ExprPtr e = Unary();
    while (!Failed() && (Is("*") || Is("/") || Is("%"))) {
      std::string op = Is("*") ? "_*_" : (Is("/") ? "_/_" : "_%_");
      const int32_t at = tok_.offset;
      Advance();
      e = Binary(std::move(op), std::move(e), Unary(), at);
    }
    return e;
  }

  ExprPtr Unary() {
    if (Is("!") || Is("-")) {
      const bool negate = Is("-");
      const int32_t at = tok_.offset;
      int count = 0;
      while (Is(negate ? "-" : "!")) {
        ++count;
        Advance();
      }
      // A negative numeric literal is one constant (so that the smallest int parses).
      if (negate && count == 1 && (tok_.kind == TokenKind::kInt || tok_.kind == TokenKind::kDouble)) {
        return Member(Literal(/*negative=*/true, at));
      }
      Depth depth(this);
      if (depth.Exceeded()) {
        Fail(tok_.offset, "expression recursion limit exceeded: " + std::to_string(options_.max_depth));
        return Error();
      }
      ExprPtr e = Member(Primary());
      if (count % 2 == 0) return e;  // as cel-go: an even run cancels out
      std::vector<ExprPtr> args;
      args.push_back(std::move(e));
      return factory_.Call(negate ? "-_" : "!_", std::move(args), at);
    }
    return Member(Primary());
  }

  ExprPtr Member(ExprPtr e) {
    while (!Failed()) {
      const int32_t at = tok_.offset;
      if (Is(".")) {
        Advance();
        const bool optional = Accept("?");
        if (tok_.kind != TokenKind::kIdent) {
          Mismatched("IDENTIFIER");
          return e;
        }
        std::string name = FieldName();
        const int32_t name_at = tok_.offset;
        Advance();
        if (!optional && Is("(")) {
          const int32_t open = tok_.offset;  // cel-go places calls at their parenthesis
          Advance();
          std::vector<ExprPtr> args = ArgList(")");
          e = MakeCall(std::move(name), std::move(e), std::move(args), open);
          continue;
        }
        if (optional) {
          std::vector<ExprPtr> args;
          args.push_back(std::move(e));
          args.push_back(factory_.Const(Value::String(std::move(name)), name_at));
          e = factory_.Call("_?._", std::move(args), at);
          continue;
        }
        auto sel = factory_.New(ExprKind::kSelect, at);
        sel->target = std::move(e);
        sel->name = std::move(name);
        e = std::move(sel);
      } else if (Is("[")) {
        Advance();
        const bool optional = Accept("?");
        ExprPtr index = Expression();
        if (Failed()) return e;
        Expect("]");
        e = Binary(optional ? "_[?_]" : "_[_]", std::move(e), std::move(index), at);
      } else {
        return e;
      }
    }
    return e;
  }

  // An identifier token's name (a `quoted` one without its backquotes).
  std::string FieldName() const { return tok_.value.empty() ? std::string(tok_.text) : tok_.value; }

  ExprPtr MakeCall(std::string name, ExprPtr target, std::vector<ExprPtr> args, int32_t at) {
    const bool bind = name == "bind" && target && target->kind == ExprKind::kIdent && target->name == "cel";
    if (options_.macros && (options_.bind_macro || !bind)) {
      std::string error;
      auto expanded = internal::ExpandMacro(factory_, name, &target, &args, at, &error);
      if (!error.empty()) {
        Fail(at, error);
        return Error();
      }
      if (expanded) return std::move(*expanded);
    }
    return target ? factory_.ReceiverCall(std::move(name), std::move(target), std::move(args), at)
                  : factory_.Call(std::move(name), std::move(args), at);
  }

  // Arguments up to `close`; the opening token is consumed.
  std::vector<ExprPtr> ArgList(std::string_view close) {
    std::vector<ExprPtr> args;
    if (Accept(close)) return args;
    while (!Failed()) {
      args.push_back(Expression());
      if (Failed()) break;
      if (Accept(",")) {
        if (Accept(close)) break;  // a trailing comma
        continue;
      }
      Expect(close);
      break;
    }
    return args;
  }

  ExprPtr Primary() {
    const int32_t at = tok_.offset;
    switch (tok_.kind) {
      case TokenKind::kInt:
      case TokenKind::kUint:
      case TokenKind::kDouble:
      case TokenKind::kString:
      case TokenKind::kBytes: return Literal(false, at);
      case TokenKind::kIdent: return IdentOrCall(/*leading_dot=*/false);
      case TokenKind::kPunct:
        if (Is(".")) {
          Advance();
          if (tok_.kind != TokenKind::kIdent) {
            Mismatched("IDENTIFIER");
            return Error();
          }
          return IdentOrCall(/*leading_dot=*/true);
        }
        if (Is("(")) {
          Advance();
          ExprPtr e = Expression();
          if (!Failed()) Expect(")");
          return e;
        }
        if (Is("[")) {
          Advance();
          auto list = factory_.New(ExprKind::kList, at);
          ListElements(list.get());
          return list;
        }
        if (Is("{")) {
          Advance();
          auto map = factory_.New(ExprKind::kMap, at);
          MapEntries(map.get());
          return map;
        }
        break;
      default: break;
    }
    Mismatched(kExpectExpr);
    return Error();
  }

  void ListElements(Expr* list) {
    if (Accept("]")) return;
    while (!Failed()) {
      if (Accept("?")) list->optional_indices.push_back(static_cast<int32_t>(list->args.size()));
      list->args.push_back(Expression());
      if (Failed()) return;
      if (Accept(",")) {
        if (Accept("]")) return;
        continue;
      }
      Expect("]");
      return;
    }
  }

  void MapEntries(Expr* map) {
    if (Accept("}")) return;
    while (!Failed()) {
      Expr::Entry entry;
      entry.optional = Accept("?");
      entry.key = Expression();
      if (Failed()) return;
      Expect(":");
      if (Failed()) return;
      entry.value = Expression();
      map->entries.push_back(std::move(entry));
      if (Failed()) return;
      if (Accept(",")) {
        if (Accept("}")) return;
        continue;
      }
      Expect("}");
      return;
    }
  }

  ExprPtr IdentOrCall(bool leading_dot) {
    const int32_t at = tok_.offset;
    std::string name(tok_.text);
    if (name == "true" || name == "false") {
      Advance();
      return factory_.Const(Value::Bool(name == "true"), at);
    }
    if (name == "null") {
      Advance();
      return factory_.Const(Value::Null(), at);
    }
    if (name == "in" || internal::IsReserved(name)) {
      Fail(at, name == "in" ? "Syntax error: mismatched input 'in' expecting " + std::string(kExpectExpr)
                            : "reserved identifier: " + name);
      return Error();
    }
    Advance();
    if (leading_dot) name = "." + name;
    if (Is("(")) {
      const int32_t open = tok_.offset;
      Advance();
      return MakeCall(std::move(name), nullptr, ArgList(")"), open);
    }
    if (Is("{")) return Struct(std::move(name), at);
    return factory_.Ident(std::move(name), at);
  }

  // name{field: value, ...}: a message literal (the name may be dotted through selections).
  ExprPtr Struct(std::string name, int32_t at) {
    Advance();
    auto e = factory_.New(ExprKind::kStruct, at);
    e->name = std::move(name);
    if (Accept("}")) return e;
    while (!Failed()) {
      Expr::Entry entry;
      entry.optional = Accept("?");
      if (tok_.kind != TokenKind::kIdent) {
        Mismatched("IDENTIFIER");
        return e;
      }
      entry.field = FieldName();
      Advance();
      Expect(":");
      if (Failed()) return e;
      entry.value = Expression();
      e->entries.push_back(std::move(entry));
      if (Failed()) return e;
      if (Accept(",")) {
        if (Accept("}")) return e;
        continue;
      }
      Expect("}");
      return e;
    }
    return e;
  }

  ExprPtr Literal(bool negative, int32_t at) {
    const Token t = tok_;
    Advance();
    switch (t.kind) {
      case TokenKind::kString: return factory_.Const(Value::String(t.value), at);
      case TokenKind::kBytes: return factory_.Const(Value::Bytes(t.value), at);
      case TokenKind::kDouble: {
        std::string text(t.text);
        errno = 0;
        double d = std::strtod(text.c_str(), nullptr);
        return factory_.Const(Value::Double(negative ? -d : d), at);
      }
      case TokenKind::kInt:
      case TokenKind::kUint: {
        std::string_view digits = t.text;
        int base = 10;
        if (digits.size() > 2 && digits[0] == '0' && (digits[1] | 0x20) == 'x') {
          digits.remove_prefix(2);
          base = 16;
        }
        uint64_t u = 0;
        auto r = std::from_chars(digits.data(), digits.data() + digits.size(), u, base);
        const bool overflow = r.ec == std::errc::result_out_of_range;
        if (t.kind == TokenKind::kUint) {
          if (overflow || negative) {
            Fail(at, "invalid uint literal");
            return Error();
          }
          return factory_.Const(Value::Uint(u), at);
        }
        const uint64_t limit = negative ? (uint64_t{1} << 63) : static_cast<uint64_t>(INT64_MAX);
        if (overflow || u > limit) {
          Fail(at, "invalid int literal");
          return Error();
        }
        const int64_t i = negative ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
        return factory_.Const(Value::Int(i), at);
      }
      default: return Error();
    }
  }

  Lexer lexer_;
  const ParseOptions& options_;
  Token tok_;
  ExprFactory factory_;
  std::vector<SourceError> errors_;
  int depth_ = 0;
};

}  // namespace

ParseResult Parse(std::string_view source, const ParseOptions& options) {
  if (CodePointCount(source) > options.max_code_points) {
    ParseResult r;
    r.errors.push_back({0, "expression code point size exceeds limit: size: " + std::to_string(CodePointCount(source)) +
                               ", limit " + std::to_string(options.max_code_points)});
    return r;
  }
  return Parser(source, options).Run();
}

std::string FormatErrors(std::string_view source, const std::vector<SourceError>& errors) {
  std::string out;
  for (const auto& e : errors) {
    // Line and column (in code points) of the offset.
    const size_t offset = std::min<size_t>(e.offset, source.size());
    size_t line_start = source.rfind('\n', offset == 0 ? std::string_view::npos : offset - 1);
    line_start = (line_start == std::string_view::npos || offset == 0) ? 0 : line_start + 1;
    if (offset > 0 && source[offset - 1] == '\n') line_start = offset;
    int line = 1;
    for (size_t i = 0; i < line_start; ++i) line += source[i] == '\n';
    const size_t column = CodePointCount(source.substr(line_start, offset - line_start));
    size_t line_end = source.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = source.size();
    std::string snippet(source.substr(line_start, line_end - line_start));
    for (char& c : snippet) {
      if (c == '\t') c = ' ';
    }
    if (!out.empty()) out += '\n';
    out += "ERROR: <input>:" + std::to_string(line) + ":" + std::to_string(column + 1) + ": " + e.message;
    out += "\n | " + snippet + "\n | " + std::string(column, '.') + "^";
  }
  return out;
}

}  // namespace kube::cel
