// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource.Quantity) as kube's CEL
// quantity library uses them: parsed with ParseQuantity's rules (optional sign, decimal number,
// then a suffix: n u m "" k M G T P E decimal, Ki Mi Gi Ti Pi Ei binary, or e<int> / E<int>
// exponents; more than nine fractional digits round up; binary values clamp at 2^63-1),
// compared and added exactly, with the same two representations kube keeps — a scaled int64
// while it fits, else an arbitrary-precision decimal — because isInteger()/asInteger() answer
// from the representation exactly as kube's AsInt64 does (`quantity("1.0").isInteger()` is false).
//
// Thread-safety: a plain value; const methods are safe from many threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kube::cel {

class Quantity {
 public:
  // resource.ParseQuantity. On failure *error is kube's message ("quantities must match the
  // regular expression '...'", "unable to parse quantity's suffix", "unable to parse numeric part
  // of quantity").
  static std::optional<Quantity> Parse(std::string_view text, std::string* error);
  // resource.NewQuantity(v, DecimalExponent).
  static Quantity FromInt(int64_t v);

  int Sign() const;
  // -1, 0 or 1; exact.
  int Compare(const Quantity& other) const;
  // Exact sums. False (and *this unchanged) only when the exact result would need more digits
  // than this implementation keeps (kMaxDigits): kube would compute it, slowly.
  bool Add(const Quantity& other);
  bool Sub(const Quantity& other);
  // The int64 value when the quantity is held as a scaled int64 with a scale >= 0 that fits.
  std::optional<int64_t> AsInt64() const;
  // Go's AsApproximateFloat64: the unscaled value times math.Pow10(exponent).
  double AsApproximateFloat64() const;
  // A decimal rendering for messages and tests ("1.5e3"-free: "1500", "0.001", "-2e30").
  std::string DebugString() const;

  // Digits kept for an exact sum of two decimals of very different exponents.
  static constexpr size_t kMaxDigits = 100000;

 private:
  // The decimal form: (-1)^negative × digits × 10^exponent; digits without leading zeros ("0"
  // for zero).
  struct Decimal {
    bool negative = false;
    std::string digits = "0";
    int64_t exponent = 0;
  };
  Decimal AsDecimal() const;
  static int CompareDecimal(const Decimal& a, const Decimal& b);
  static std::optional<Decimal> AddDecimal(const Decimal& a, const Decimal& b);
  bool AddInt64(int64_t value, int32_t scale);

  bool is_decimal_ = false;
  int64_t value_ = 0;  // int64 form: value_ × 10^scale_
  int32_t scale_ = 0;
  Decimal decimal_;  // when is_decimal_
};

}  // namespace kube::cel
