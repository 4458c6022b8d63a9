#include "storage/field_selector.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace kube::storage {
namespace {

// U+FFFD, which Go substitutes for each malformed byte when it walks a string rune by rune.
constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";

// Length of the well-formed UTF-8 sequence at s[i], or 0 when it is malformed.
size_t RuneLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = byte(0);
  if (c < 0x80) return 1;
  size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (c >= 0xF5 || n == 0 || i + n > s.size()) return 0;
  uint32_t rune = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    rune = (rune << 6) | (byte(k) & 0x3F);
  }
  bool overlong = (n == 3 && rune < 0x800) || (n == 4 && rune < 0x10000);
  bool surrogate = rune >= 0xD800 && rune <= 0xDFFF;
  return overlong || surrogate || rune > 0x10FFFF ? 0 : n;
}

// Splits on commas not preceded by a backslash; escapes stay in the terms for UnescapeValue.
// Only ASCII bytes matter here, so walking bytes gives the same cuts as upstream walking runes.
std::vector<std::string_view> SplitTerms(std::string_view text) {
  std::vector<std::string_view> terms;
  if (text.empty()) return terms;
  size_t start = 0;
  bool escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (escaped) {
      escaped = false;
    } else if (text[i] == '\\') {
      escaped = true;
    } else if (text[i] == ',') {
      terms.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  terms.push_back(text.substr(start));
  return terms;
}

struct SplitTerm {
  std::string_view field;
  std::string_view op;
  std::string_view raw_value;
};

// The field ends at the first operator; at each position "!=" and "==" are tried before "=" so
// that `a==b` does not leave a stray "=" in the value. Field names have no escapes.
std::optional<SplitTerm> Split(std::string_view term) {
  static constexpr std::string_view kOperators[] = {"!=", "==", "="};
  for (size_t i = 0; i < term.size(); ++i) {
    for (std::string_view op : kOperators) {
      if (term.substr(i).starts_with(op)) {
        return SplitTerm{term.substr(0, i), op, term.substr(i + op.size())};
      }
    }
  }
  return std::nullopt;
}

Result<std::string> UnescapeValue(std::string_view raw) {
  // Upstream returns values without special characters untouched and only otherwise walks them
  // rune by rune, which turns malformed UTF-8 into U+FFFD; both paths are kept for fidelity.
  if (raw.find_first_of("\\,=") == std::string_view::npos) return std::string(raw);
  std::string out;
  out.reserve(raw.size());
  bool escaped = false;
  for (size_t i = 0; i < raw.size();) {
    size_t n = RuneLength(raw, i);
    std::string_view rune = n == 0 ? kReplacementChar : raw.substr(i, n);
    i += n == 0 ? 1 : n;
    bool special = rune == "\\" || rune == "," || rune == "=";
    if (escaped) {
      if (!special) {
        return Status::BadRequest("invalid field selector: invalid escape sequence: \\" +
                                  std::string(rune));
      }
      out += rune;
      escaped = false;
    } else if (rune == "\\") {
      escaped = true;
    } else if (special) {
      // Upstream formats the rune with %v, i.e. as its decimal code point.
      return Status::BadRequest("invalid field selector: unescaped character in value: " +
                                std::to_string(static_cast<int>(rune[0])));
    } else {
      out += rune;
    }
  }
  if (escaped) return Status::BadRequest("invalid field selector: invalid escape sequence: \\");
  return out;
}

std::string EscapeValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

FieldSelector::FieldSelector() = default;

Result<FieldSelector> FieldSelector::Parse(std::string_view text) {
  std::vector<std::string_view> parts = SplitTerms(text);
  // Upstream sorts the raw terms before parsing: that fixes both the term order of ToString()
  // and which bad term an error names.
  std::sort(parts.begin(), parts.end());
  FieldSelector selector;
  for (std::string_view part : parts) {
    if (part.empty()) continue;
    std::optional<SplitTerm> split = Split(part);
    if (!split) {
      return Status::BadRequest("invalid selector: '" + std::string(text) +
                                "'; can't understand '" + std::string(part) + "'");
    }
    Result<std::string> value = UnescapeValue(split->raw_value);
    if (!value.ok()) return value.status();
    // Upstream's transform step reads an empty field with an empty value as "no requirement"
    // and drops it, so `=` on its own selects everything.
    if (split->field.empty() && value->empty()) continue;
    selector.terms_.push_back(
        Term{std::string(split->field), std::move(*value), split->op == "!="});
  }
  return selector;
}

bool FieldSelector::Empty() const { return terms_.empty(); }

bool FieldSelector::Matches(const Fields& fields) const {
  return std::all_of(terms_.begin(), terms_.end(), [&](const Term& term) {
    auto it = fields.find(term.field);
    std::string_view actual = it == fields.end() ? std::string_view() : it->second;
    return (actual == term.value) != term.negated;
  });
}

std::optional<std::string> FieldSelector::RequiresExactMatch(std::string_view field) const {
  for (const Term& term : terms_) {
    if (!term.negated && term.field == field) return term.value;
  }
  return std::nullopt;
}

std::vector<std::string> FieldSelector::FieldNames() const {
  std::vector<std::string> names;
  for (const Term& term : terms_) {
    if (std::find(names.begin(), names.end(), term.field) == names.end()) {
      names.push_back(term.field);
    }
  }
  return names;
}

std::string FieldSelector::ToString() const {
  std::string out;
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (i > 0) out += ',';
    out += terms_[i].field;
    out += terms_[i].negated ? "!=" : "=";
    out += EscapeValue(terms_[i].value);
  }
  return out;
}

}  // namespace kube::storage
