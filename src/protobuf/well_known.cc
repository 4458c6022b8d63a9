#include "protobuf/well_known.h"

#include <algorithm>
#include <cstdio>

#include "util/civil_time.h"

namespace kube::protobuf {
namespace {

// Howard Hinnant's civil-date algorithms (proleptic Gregorian, days since 1970-01-01).

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}


}  // namespace

std::string FormatRfc3339(Timestamp t, bool micro) {
  const int64_t days = (t.seconds >= 0 ? t.seconds : t.seconds - 86399) / 86400;
  const int64_t secs = t.seconds - days * 86400;
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[64];
  int n = std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d",
                        static_cast<long long>(y), m, d, static_cast<int>(secs / 3600),
                        static_cast<int>(secs / 60 % 60), static_cast<int>(secs % 60));
  std::string out(buf, n);
  if (micro) {
    std::snprintf(buf, sizeof buf, ".%06d", std::clamp(t.nanos, 0, 999999999) / 1000);
    out += buf;
  }
  out += 'Z';
  return out;
}

std::optional<Timestamp> ParseRfc3339(std::string_view s) {
  int y, mo, d, h, mi, se;
  if (!Digits(s, 0, 4, &y) || s.size() < 19 || s[4] != '-' || !Digits(s, 5, 2, &mo) ||
      s[7] != '-' || !Digits(s, 8, 2, &d) || (s[10] != 'T' && s[10] != 't') ||
      !Digits(s, 11, 2, &h) || s[13] != ':' || !Digits(s, 14, 2, &mi) || s[16] != ':' ||
      !Digits(s, 17, 2, &se))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return std::nullopt;
  size_t pos = 19;
  int64_t nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    size_t digits = 0;
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++digits) {
      if (digits < 9) nanos = nanos * 10 + (s[pos] - '0');
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 9; ++digits) nanos *= 10;
  }
  int64_t offset = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!Digits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !Digits(s, pos + 4, 2, &om) || oh > 23 || om > 59)
      return std::nullopt;
    offset = (s[pos] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  Timestamp t;
  t.seconds = DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - offset;
  t.nanos = static_cast<int32_t>(nanos);
  return t;
}

std::string FormatGoDuration(int64_t d) {
  if (d == 0) return "0s";
  const bool neg = d < 0;
  uint64_t u = neg ? 0 - static_cast<uint64_t>(d) : static_cast<uint64_t>(d);
  std::string rev;  // built backwards, like Go's implementation
  auto frac = [&rev](uint64_t v, int prec) {  // appends v % 10^prec as ".ddd" minus trailing 0s
    bool print = false;
    for (int i = 0; i < prec; ++i) {
      const int digit = static_cast<int>(v % 10);
      print = print || digit != 0;
      if (print) rev.push_back(static_cast<char>('0' + digit));
      v /= 10;
    }
    if (print) rev.push_back('.');
    return v;
  };
  auto integer = [&rev](uint64_t v) {
    do {
      rev.push_back(static_cast<char>('0' + v % 10));
      v /= 10;
    } while (v > 0);
  };
  if (u < 1000000000ULL) {
    int prec;
    rev = "s";
    if (u < 1000) {
      prec = 0;
      rev += 'n';
    } else if (u < 1000000) {
      prec = 3;
      rev += "\xb5\xc2";  // "µ" reversed
    } else {
      prec = 6;
      rev += 'm';
    }
    integer(frac(u, prec));
  } else {
    rev = "s";
    u = frac(u, 9);
    integer(u % 60);
    u /= 60;
    if (u > 0) {
      rev += 'm';
      integer(u % 60);
      u /= 60;
      if (u > 0) {
        rev += 'h';
        integer(u);
      }
    }
  }
  if (neg) rev += '-';
  return std::string(rev.rbegin(), rev.rend());
}

std::optional<int64_t> ParseGoDuration(std::string_view s) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return 0;
  if (s.empty()) return std::nullopt;
  static const std::pair<std::string_view, uint64_t> kUnits[] = {
      {"ns", 1}, {"us", 1000}, {"\xc2\xb5s", 1000}, {"\xce\xbcs", 1000}, {"ms", 1000000},
      {"s", 1000000000ULL}, {"m", 60000000000ULL}, {"h", 3600000000000ULL}};
  constexpr uint64_t kMax = uint64_t{1} << 63;
  uint64_t total = 0;
  while (!s.empty()) {
    uint64_t whole = 0, fnum = 0, fscale = 1;
    size_t i = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (whole > kMax / 10) return std::nullopt;
      whole = whole * 10 + (s[i] - '0');
    }
    const size_t int_digits = i;
    size_t frac_digits = 0;
    if (i < s.size() && s[i] == '.') {
      for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++frac_digits) {
        if (fscale < 1000000000000000000ULL) {
          fnum = fnum * 10 + (s[i] - '0');
          fscale *= 10;
        }
      }
    }
    if (int_digits == 0 && frac_digits == 0) return std::nullopt;
    s.remove_prefix(i);
    uint64_t unit = 0;
    for (const auto& [name, mult] : kUnits) {  // two-letter units are listed first
      if (s.substr(0, name.size()) == name) {
        unit = mult;
        s.remove_prefix(name.size());
        break;
      }
    }
    if (unit == 0) return std::nullopt;
    if (whole > kMax / unit) return std::nullopt;
    const uint64_t v = whole * unit + static_cast<uint64_t>(static_cast<long double>(fnum) *
                                                            unit / fscale);
    total += v;
    if (total > kMax) return std::nullopt;
  }
  if (!neg && total == kMax) return std::nullopt;
  return neg ? static_cast<int64_t>(0 - total) : static_cast<int64_t>(total);
}

}  // namespace kube::protobuf
