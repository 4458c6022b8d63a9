#include "cel/quantity.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kube::cel {

namespace {

constexpr std::string_view kFormatWrong =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kNumeric = "unable to parse numeric part of quantity";
constexpr std::string_view kSuffix = "unable to parse quantity's suffix";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

struct Split {
  bool positive = true;
  std::string_view value, num, denom, suffix;
};

// parseQuantityString: sign, integer digits (leading zeros dropped), fraction digits, suffix.
bool SplitQuantity(std::string_view str, Split* out) {
  size_t pos = 0;
  const size_t end = str.size();
  if (pos < end && (str[0] == '-' || str[0] == '+')) {
    out->positive = str[0] != '-';
    ++pos;
  }
  while (true) {
    if (pos >= end) {
      out->num = out->value = "0";
      return true;
    }
    if (str[pos] != '0') break;
    ++pos;
  }
  size_t i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  if (i >= end) {
    out->num = str.substr(pos);
    out->value = str;
    return true;
  }
  out->num = str.substr(pos, i - pos);
  pos = i;
  if (out->num.empty()) out->num = "0";
  if (pos < end && str[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(str[i])) ++i;
    out->denom = str.substr(pos, i - pos);
    if (i >= end) {
      out->value = str;
      return true;
    }
    pos = i;
  }
  out->value = str.substr(0, pos);
  const size_t suffix_start = pos;
  i = pos;
  while (i < end && std::string_view("eEinumkKMGTP").find(str[i]) != std::string_view::npos) ++i;
  if (i >= end) {
    out->suffix = str.substr(suffix_start);
    return true;
  }
  pos = i;
  if (str[pos] == '-' || str[pos] == '+') ++pos;
  i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  if (i >= end) {
    out->suffix = str.substr(suffix_start);
    return true;
  }
  return false;
}

enum class Format { kDecimalExponent, kBinarySI, kDecimalSI };

// suffixer.interpret: (base, exponent, format).
bool InterpretSuffix(std::string_view s, int32_t* base, int32_t* exponent, Format* format) {
  struct Entry {
    std::string_view suffix;
    int32_t base, exponent;
  };
  static constexpr Entry kDecimal[] = {{"", 10, 0},  {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},
                                       {"M", 10, 6}, {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18}};
  static constexpr Entry kBinary[] = {{"Ki", 2, 10}, {"Mi", 2, 20}, {"Gi", 2, 30},
                                      {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60}};
  for (const auto& e : kDecimal) {
    if (e.suffix == s) {
      *base = e.base, *exponent = e.exponent, *format = Format::kDecimalSI;
      return true;
    }
  }
  for (const auto& e : kBinary) {
    if (e.suffix == s) {
      *base = e.base, *exponent = e.exponent, *format = Format::kBinarySI;
      return true;
    }
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    // strconv.ParseInt(s[1:], 10, 64), then truncated to int32 as kube does.
    std::string_view digits = s.substr(1);
    bool negative = false;
    if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (digits.empty()) return false;
    uint64_t v = 0;
    for (char c : digits) {
      if (!IsDigit(c)) return false;
      if (v > (uint64_t{1} << 63) / 10) return false;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (v > (negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1)) return false;
    const uint64_t as_unsigned = negative ? ~v + 1 : v;
    *base = 10, *exponent = static_cast<int32_t>(static_cast<uint32_t>(as_unsigned)), *format = Format::kDecimalExponent;
    return true;
  }
  return false;
}

// Go's int32 arithmetic wraps; kube's scale computations rely on int32.
int32_t WrapAdd(int32_t a, int64_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }

void StripLeadingZeros(std::string* digits) {
  size_t nz = digits->find_first_not_of('0');
  if (nz == std::string::npos) {
    *digits = "0";
  } else if (nz > 0) {
    digits->erase(0, nz);
  }
}

// digits × m for a small multiplier.
void MultiplySmall(std::string* digits, uint32_t m) {
  uint64_t carry = 0;
  for (size_t i = digits->size(); i-- > 0;) {
    const uint64_t d = static_cast<uint64_t>((*digits)[i] - '0') * m + carry;
    (*digits)[i] = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  while (carry > 0) {
    digits->insert(digits->begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
}

// Adds one to the magnitude.
void Increment(std::string* digits) {
  for (size_t i = digits->size(); i-- > 0;) {
    if ((*digits)[i] != '9') {
      ++(*digits)[i];
      return;
    }
    (*digits)[i] = '0';
  }
  digits->insert(digits->begin(), '1');
}

std::string Int64Digits(int64_t v) {
  const uint64_t m = v < 0 ? ~static_cast<uint64_t>(v) + 1 : static_cast<uint64_t>(v);
  return std::to_string(m);
}

// math.Pow10 (0 below 1e-323, +Inf above 1e308).
double Pow10(int64_t n) {
  if (n < -323) return 0;
  if (n > 308) return HUGE_VAL;
  return std::strtod(("1e" + std::to_string(n)).c_str(), nullptr);
}

bool MultiplyScale10(int64_t* v, int64_t times) {
  if (*v == 0) return true;
  for (int64_t i = 0; i < times; ++i) {
    if (__builtin_mul_overflow(*v, int64_t{10}, v)) return false;
  }
  return true;
}

}  // namespace

std::optional<Quantity> Quantity::Parse(std::string_view str, std::string* error) {
  if (str.empty()) {
    *error = kFormatWrong;
    return std::nullopt;
  }
  if (str == "0") return Quantity();
  Split sp;
  if (!SplitQuantity(str, &sp)) {
    *error = kFormatWrong;
    return std::nullopt;
  }
  int32_t base = 10, exponent = 0;
  Format format = Format::kDecimalSI;
  if (!InterpretSuffix(sp.suffix, &base, &exponent, &format)) {
    *error = kSuffix;
    return std::nullopt;
  }
  // The fast path: the value as a scaled int64 when its digits surely fit.
  int32_t precision = 0, scale = 0;
  int64_t mantissa = 1;
  if (format == Format::kBinarySI) {
    if (exponent >= 0 && sp.denom.empty()) {
      mantissa = int64_t{1} << exponent;
      precision = 15 - static_cast<int32_t>(sp.num.size()) - static_cast<int32_t>(static_cast<float>(exponent) * 3 / 10) - 1;
    } else {
      precision = -1;
    }
  } else {
    scale = exponent;
    precision = 18 - static_cast<int32_t>(sp.num.size() + sp.denom.size());
  }
  if (precision >= 0) {
    scale = WrapAdd(scale, -static_cast<int64_t>(sp.denom.size()));
    if (scale >= -9) {
      // At most 18 digits (precision >= 0): the int64 accumulation cannot overflow.
      int64_t value = 0;
      for (char c : sp.num) value = value * 10 + (c - '0');
      for (char c : sp.denom) value = value * 10 + (c - '0');
      int64_t result;
      if (!__builtin_mul_overflow(value, mantissa, &result)) {
        Quantity q;
        q.value_ = sp.positive ? result : -result;
        q.scale_ = scale;
        return q;
      }
    }
  }
  // The arbitrary-precision path (inf.Dec's SetString of the number as written).
  Decimal d;
  std::string_view number = sp.value;
  if (!number.empty() && (number[0] == '+' || number[0] == '-')) number.remove_prefix(1);
  const size_t dot = number.find('.');
  std::string int_part(number.substr(0, dot)), frac_part;
  if (dot != std::string_view::npos) frac_part = std::string(number.substr(dot + 1));
  if (int_part.empty() && frac_part.empty()) {
    *error = kNumeric;
    return std::nullopt;
  }
  d.digits = int_part + frac_part;
  StripLeadingZeros(&d.digits);
  // inf's scale is an int32: frac digits minus the decimal exponent, wrapping as Go's does.
  int32_t inf_scale = static_cast<int32_t>(frac_part.size());
  if (base == 10) {
    inf_scale = WrapAdd(inf_scale, -static_cast<int64_t>(exponent));
  } else {
    for (int32_t e = exponent; e > 0; e -= 10) MultiplySmall(&d.digits, 1u << std::min<int32_t>(e, 10));
  }
  d.exponent = -static_cast<int64_t>(inf_scale);
  // More than nine fractional digits round up (away from zero) to nano precision.
  if (d.digits != "0" && d.exponent < -9) {
    const size_t drop = static_cast<size_t>(-9 - d.exponent);
    bool inexact = false;
    if (drop >= d.digits.size()) {
      inexact = true;
      d.digits = "0";
    } else {
      inexact = d.digits.find_first_not_of('0', d.digits.size() - drop) != std::string::npos;
      d.digits.resize(d.digits.size() - drop);
    }
    if (inexact) Increment(&d.digits);
    StripLeadingZeros(&d.digits);
    d.exponent = -9;
  }
  if (format == Format::kBinarySI) {
    const Decimal max{false, "9223372036854775807", 0};
    if (CompareDecimal(d, max) > 0) d = max;
  }
  d.negative = !sp.positive && d.digits != "0";
  Quantity q;
  q.is_decimal_ = true;
  q.decimal_ = std::move(d);
  return q;
}

Quantity Quantity::FromInt(int64_t v) {
  Quantity q;
  q.value_ = v;
  return q;
}

int Quantity::Sign() const {
  if (is_decimal_) return decimal_.digits == "0" ? 0 : (decimal_.negative ? -1 : 1);
  return value_ == 0 ? 0 : (value_ < 0 ? -1 : 1);
}

Quantity::Decimal Quantity::AsDecimal() const {
  if (is_decimal_) return decimal_;
  return Decimal{value_ < 0, Int64Digits(value_), scale_};
}

int Quantity::CompareDecimal(const Decimal& a, const Decimal& b) {
  const bool az = a.digits == "0", bz = b.digits == "0";
  const int sa = az ? 0 : (a.negative ? -1 : 1), sb = bz ? 0 : (b.negative ? -1 : 1);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  // Magnitudes: first by the position of the leading digit, then digit by digit.
  const int64_t la = static_cast<int64_t>(a.digits.size()) + a.exponent;
  const int64_t lb = static_cast<int64_t>(b.digits.size()) + b.exponent;
  int mag = 0;
  if (la != lb) {
    mag = la < lb ? -1 : 1;
  } else {
    const size_t n = std::max(a.digits.size(), b.digits.size());
    for (size_t i = 0; i < n && mag == 0; ++i) {
      const char x = i < a.digits.size() ? a.digits[i] : '0', y = i < b.digits.size() ? b.digits[i] : '0';
      if (x != y) mag = x < y ? -1 : 1;
    }
  }
  return sa > 0 ? mag : -mag;
}

std::optional<Quantity::Decimal> Quantity::AddDecimal(const Decimal& a, const Decimal& b) {
  const int64_t exp = std::min(a.exponent, b.exponent);
  const uint64_t pad_a = static_cast<uint64_t>(a.exponent - exp), pad_b = static_cast<uint64_t>(b.exponent - exp);
  if (a.digits.size() + pad_a > kMaxDigits || b.digits.size() + pad_b > kMaxDigits) return std::nullopt;
  std::string x = a.digits + std::string(pad_a, '0'), y = b.digits + std::string(pad_b, '0');
  const size_t n = std::max(x.size(), y.size()) + 1;
  x.insert(0, n - x.size(), '0');
  y.insert(0, n - y.size(), '0');
  Decimal out;
  out.exponent = exp;
  if (a.negative == b.negative || a.digits == "0" || b.digits == "0") {
    int carry = 0;
    for (size_t i = n; i-- > 0;) {
      const int d = (x[i] - '0') + (y[i] - '0') + carry;
      x[i] = static_cast<char>('0' + d % 10);
      carry = d / 10;
    }
    out.negative = a.digits == "0" ? b.negative : a.negative;
    out.digits = std::move(x);
  } else {
    // Different signs: the larger magnitude minus the smaller, with the larger's sign.
    const bool x_larger = x >= y;
    std::string& big = x_larger ? x : y;
    const std::string& small = x_larger ? y : x;
    int borrow = 0;
    for (size_t i = n; i-- > 0;) {
      int d = (big[i] - '0') - (small[i] - '0') - borrow;
      borrow = d < 0;
      if (d < 0) d += 10;
      big[i] = static_cast<char>('0' + d);
    }
    out.negative = x_larger ? a.negative : b.negative;
    out.digits = std::move(big);
  }
  StripLeadingZeros(&out.digits);
  if (out.digits == "0") out.negative = false;
  return out;
}

int Quantity::Compare(const Quantity& other) const {
  if (!is_decimal_ && !other.is_decimal_ && scale_ == other.scale_) {
    return value_ == other.value_ ? 0 : (value_ < other.value_ ? -1 : 1);
  }
  return CompareDecimal(AsDecimal(), other.AsDecimal());
}

// int64Amount.Add: false when the int64 form overflows (the caller falls back to decimals).
bool Quantity::AddInt64(int64_t value, int32_t scale) {
  if (value == 0) return true;
  if (value_ == 0) {
    value_ = value;
    scale_ = scale;
    return true;
  }
  int64_t a = value_, b = value;
  int32_t s = scale_;
  if (scale_ > scale) {
    if (!MultiplyScale10(&a, static_cast<int64_t>(scale_) - scale)) return false;
    s = scale;
  } else if (scale > scale_) {
    if (!MultiplyScale10(&b, static_cast<int64_t>(scale) - scale_)) return false;
  }
  int64_t sum;
  if (__builtin_add_overflow(a, b, &sum)) return false;
  value_ = sum;
  scale_ = s;
  return true;
}

bool Quantity::Add(const Quantity& other) {
  if (!is_decimal_ && !other.is_decimal_ && AddInt64(other.value_, other.scale_)) return true;
  std::optional<Decimal> sum = AddDecimal(AsDecimal(), other.AsDecimal());
  if (!sum) return false;
  is_decimal_ = true;
  decimal_ = std::move(*sum);
  return true;
}

bool Quantity::Sub(const Quantity& other) {
  Quantity negated = other;
  if (negated.is_decimal_) {
    negated.decimal_.negative = !negated.decimal_.negative && negated.decimal_.digits != "0";
  } else if (negated.value_ == INT64_MIN) {
    negated.is_decimal_ = true;
    negated.decimal_ = Decimal{false, Int64Digits(INT64_MIN), negated.scale_};
  } else {
    negated.value_ = -negated.value_;
  }
  return Add(negated);
}

std::optional<int64_t> Quantity::AsInt64() const {
  if (is_decimal_ || scale_ < 0) return std::nullopt;
  int64_t v = value_;
  if (!MultiplyScale10(&v, scale_)) return std::nullopt;
  return v;
}

double Quantity::AsApproximateFloat64() const {
  double base;
  int64_t exponent;
  if (is_decimal_) {
    base = std::strtod(decimal_.digits.c_str(), nullptr);
    if (decimal_.negative) base = -base;
    exponent = decimal_.exponent;
  } else {
    base = static_cast<double>(value_);
    exponent = scale_;
  }
  if (exponent == 0) return base;
  return base * Pow10(exponent);
}

std::string Quantity::DebugString() const {
  const Decimal d = AsDecimal();
  std::string out = d.negative ? "-" : "";
  if (d.exponent >= 0) {
    if (d.digits == "0" || d.exponent > 30) return out + d.digits + (d.exponent ? "e" + std::to_string(d.exponent) : "");
    return out + d.digits + std::string(static_cast<size_t>(d.exponent), '0');
  }
  const uint64_t frac = static_cast<uint64_t>(-d.exponent);
  if (frac > 30) return out + d.digits + "e" + std::to_string(d.exponent);
  std::string digits = d.digits;
  if (digits.size() <= frac) digits.insert(0, frac - digits.size() + 1, '0');
  std::string s = digits.substr(0, digits.size() - frac) + "." + digits.substr(digits.size() - frac);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return out + s;
}

}  // namespace kube::cel
