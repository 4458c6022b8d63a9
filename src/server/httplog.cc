#include "server/httplog.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>

#include "util/go_format.h"

namespace kube::server {

namespace {

// Go's fmtFrac/fmtInt pair: `v` scaled down by 10^prec with trailing zeros (and a bare point)
// dropped.
std::string Fraction(uint64_t v, int prec) {
  std::string frac;
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    const char digit = static_cast<char>('0' + v % 10);
    print = print || digit != '0';
    if (print) frac.insert(frac.begin(), digit);
    v /= 10;
  }
  std::string out = std::to_string(v);
  if (print) out += "." + frac;
  return out;
}

}  // namespace

std::string GoDuration(std::chrono::nanoseconds d) {
  const int64_t ns = d.count();
  if (ns == 0) return "0s";
  const bool negative = ns < 0;
  const uint64_t u = negative ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
  std::string out;
  if (u < 1000000000ULL) {
    // Below a second: the largest unit that keeps the integer part non-zero.
    if (u < 1000) {
      out = std::to_string(u) + "ns";
    } else if (u < 1000000) {
      out = Fraction(u, 3) + "\xc2\xb5s";  // µs, as Go writes it
    } else {
      out = Fraction(u, 6) + "ms";
    }
  } else {
    const uint64_t seconds_ns = u % 60000000000ULL;
    const uint64_t minutes = u / 60000000000ULL;
    out = Fraction(seconds_ns, 9) + "s";
    if (minutes > 0) {
      out = std::to_string(minutes % 60) + "m" + out;
      if (minutes >= 60) out = std::to_string(minutes / 60) + "h" + out;
    }
  }
  return negative ? "-" + out : out;
}

std::string FormatHttpLog(const HttpLogEntry& e, std::chrono::system_clock::time_point now) {
  const auto since_epoch = now.time_since_epoch();
  const time_t secs = static_cast<time_t>(std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count());
  const long micros = static_cast<long>(std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count() % 1000000);
  tm t{};
  localtime_r(&secs, &t);
  char header[64];
  // klog's header: severity, mmdd hh:mm:ss.uuuuuu, the pid right-aligned in 7, file:line.
  std::snprintf(header, sizeof header, "I%02d%02d %02d:%02d:%02d.%06ld %7d httplog.go:135] ", t.tm_mon + 1, t.tm_mday,
                t.tm_hour, t.tm_min, t.tm_sec, micros, static_cast<int>(getpid()));
  std::string line = header;
  line += "\"HTTP\" verb=" + GoQuote(e.verb);
  line += " URI=" + GoQuote(e.uri);
  line += " latency=" + GoQuote(GoDuration(e.latency));
  line += " userAgent=" + GoQuote(e.user_agent);
  line += " contentType=" + GoQuote(e.content_type);
  line += " audit-ID=" + GoQuote(e.audit_id);
  line += " srcIP=" + GoQuote(e.src_ip);
  line += " resp=" + std::to_string(e.status) + "\n";
  return line;
}

}  // namespace kube::server
