#include <doctest/doctest.h>

#include <thread>

#include "metrics/metrics.h"
#include "metrics/process_collector.h"
#include "metrics/text_format.h"
#include "metrics/text_format_parser.h"

namespace kube::metrics {
namespace {

TEST_CASE("values are formatted as Go's strconv 'g' shortest") {
  struct Case {
    double v;
    const char* want;
  } cases[] = {{0, "0"},       {3, "3"},         {0.005, "0.005"},       {1.25, "1.25"},  {60, "60"},
               {1e-05, "1e-05"}, {0.0001, "0.0001"}, {123456, "123456"}, {1e6, "1e+06"}, {1.7e9, "1.7e+09"},
               {-2.5, "-2.5"}, {1234567, "1.234567e+06"}, {INFINITY, "+Inf"}, {-INFINITY, "-Inf"}};
  for (const auto& c : cases) CHECK(FormatValue(c.v) == c.want);
}

TEST_CASE("a registry exposes counters, gauges and histograms in text format, sorted") {
  Registry r;
  auto* requests = r.NewCounter(Desc{"b_requests_total", "Requests.", Stability::kStable, {"verb", "code"}});
  auto* inflight = r.NewGauge(Desc{"a_inflight", "In flight.", Stability::kAlpha, {"verb"}});
  auto* latency = r.NewHistogram(Desc{"c_seconds", "Latency.\nSecond line \\ here.", Stability::kBeta, {"verb"}},
                                 {0.1, 0.5, 1});
  requests->With({"GET", "200"})->Inc();
  requests->With({"GET", "200"})->Inc(2);
  requests->With({"POST", "201"})->Inc();
  requests->With({"GET", "404"})->Inc();
  inflight->With({"WATCH"})->Add(2);
  inflight->With({"WATCH"})->Add(-1);
  latency->With({"GET"})->Observe(0.05);
  latency->With({"GET"})->Observe(0.3);
  latency->With({"GET"})->Observe(5);
  r.NewGaugeFunc(Desc{"d_objects", "Objects.", Stability::kStable, {"resource"}}, [] {
    return std::vector<GaugeFunc::Sample>{{{"pods"}, 3}, {{"deployments.apps"}, 1}};
  });
  // A family without series writes nothing.
  r.NewCounter(Desc{"e_unused_total", "Unused.", Stability::kAlpha, {"x"}});
  CHECK(r.Expose() ==
        "# HELP a_inflight [ALPHA] In flight.\n"
        "# TYPE a_inflight gauge\n"
        "a_inflight{verb=\"WATCH\"} 1\n"
        "# HELP b_requests_total [STABLE] Requests.\n"
        "# TYPE b_requests_total counter\n"
        "b_requests_total{verb=\"GET\",code=\"200\"} 3\n"
        "b_requests_total{verb=\"GET\",code=\"404\"} 1\n"
        "b_requests_total{verb=\"POST\",code=\"201\"} 1\n"
        "# HELP c_seconds [BETA] Latency.\\nSecond line \\\\ here.\n"
        "# TYPE c_seconds histogram\n"
        "c_seconds_bucket{verb=\"GET\",le=\"0.1\"} 1\n"
        "c_seconds_bucket{verb=\"GET\",le=\"0.5\"} 2\n"
        "c_seconds_bucket{verb=\"GET\",le=\"1\"} 2\n"
        "c_seconds_bucket{verb=\"GET\",le=\"+Inf\"} 3\n"
        "c_seconds_sum{verb=\"GET\"} 5.35\n"
        "c_seconds_count{verb=\"GET\"} 3\n"
        "# HELP d_objects [STABLE] Objects.\n"
        "# TYPE d_objects gauge\n"
        "d_objects{resource=\"deployments.apps\"} 1\n"
        "d_objects{resource=\"pods\"} 3\n");
  std::string error;
  auto parsed = testing::Parse(r.Expose(), &error);
  CHECK(error == "");
  CHECK(parsed.Value("b_requests_total", {{"verb", "GET"}}) == 4);
}

TEST_CASE("label values are escaped and read back") {
  Registry r;
  r.NewCounter(Desc{"x_total", "X.", Stability::kAlpha, {"path"}})->With({"a\"b\\c\nd"})->Inc();
  const std::string text = r.Expose();
  CHECK(text.find("x_total{path=\"a\\\"b\\\\c\\nd\"} 1\n") != std::string::npos);
  std::string error;
  auto parsed = testing::Parse(text, &error);
  REQUIRE(error == "");
  REQUIRE(parsed.samples.size() == 1);
  CHECK(parsed.samples[0].labels.at("path") == "a\"b\\c\nd");
}

TEST_CASE("the parser refuses what the format forbids") {
  std::string error;
  testing::Parse("x 1\n", &error);
  CHECK(error.find("sample without TYPE") != std::string::npos);
  testing::Parse("# TYPE x counter\n1x 1\n", &error);
  CHECK(error.find("bad metric name") != std::string::npos);
  testing::Parse("# TYPE x counter\nx{a=b} 1\n", &error);
  CHECK(error.find("not quoted") != std::string::npos);
  testing::Parse("# TYPE x counter\nx{a=\"b\"} one\n", &error);
  CHECK(error.find("bad value") != std::string::npos);
  testing::Parse("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n", &error);
  CHECK(error.find("not cumulative") != std::string::npos);
  testing::Parse("# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_count 3\n", &error);
  CHECK(error.find("differs from _count") != std::string::npos);
  testing::Parse("# TYPE x counter\nx 1", &error);
  CHECK(error.find("newline") != std::string::npos);
}

TEST_CASE("series are created once under concurrent use") {
  Registry r;
  auto* c = r.NewCounter(Desc{"c_total", "C.", Stability::kAlpha, {"k"}});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([c] {
      for (int i = 0; i < 1000; ++i) c->With({i % 2 ? "odd" : "even"})->Inc();
    });
  }
  for (auto& t : threads) t.join();
  CHECK(c->With({"odd"})->Value() == 2000);
  CHECK(c->With({"even"})->Value() == 2000);
}

TEST_CASE("the process collector reports this process") {
  Registry r;
  RegisterProcessCollector(&r);
  std::string error;
  auto parsed = testing::Parse(r.Expose(), &error);
  REQUIRE(error == "");
  CHECK(parsed.types.at("process_cpu_seconds_total") == "counter");
  CHECK(parsed.Value("process_resident_memory_bytes").value_or(0) > 1e5);
  CHECK(parsed.Value("process_virtual_memory_bytes").value_or(0) >= parsed.Value("process_resident_memory_bytes").value_or(0));
  CHECK(parsed.Value("process_open_fds").value_or(0) >= 3);
  CHECK(parsed.Value("process_max_fds").value_or(0) >= parsed.Value("process_open_fds").value_or(0));
  const double start = parsed.Value("process_start_time_seconds").value_or(0);
  CHECK(start > 1.6e9);
  CHECK(start <= static_cast<double>(time(nullptr)) + 1);
  // Raw collectors carry no stability mark.
  CHECK(parsed.help.at("process_open_fds") == "Number of open file descriptors.");
}

}  // namespace
}  // namespace kube::metrics
