// cel_conformance: runs cel-spec's conformance tests (tests/simple/testdata/*.textproto, read at
// run time, never committed) against kube::cel and prints, per file, how many passed, failed and
// were skipped (with the skip categories), then the totals and the failure categories.
//
//   cel_conformance [--verbose] [--summary] [--strict] [--evaluate-skipped]
//                   [--filter=FILE[/SECTION[/TEST]]]... PATH...
//
// PATH is a .textproto file or a directory of them. Failures are printed with their name,
// expression, expected and actual result unless --summary; --verbose also lists passed and
// skipped tests. --filter takes shell globs per component (`--filter='string_ext/*/*quote*'`) and
// may repeat; a filter starting with '!' excludes what it matches (`--filter='!math_ext'`). --evaluate-skipped compiles and evaluates skipped tests too, ignoring their results
// (a sanitizer build then checks that no input crashes). Exit status: 0 when the files were read (failures or not), 1 when a file could not
// be read or parsed, or with --strict when a test failed; 2 on bad usage.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "runner.h"
#include "textproto.h"

namespace {

using kube::celconf::Outcome;
using kube::celconf::TestResult;

struct Options {
  bool verbose = false, summary = false, strict = false, evaluate_skipped = false;
  std::vector<std::string> filters;
  std::vector<std::string> paths;
};

int Usage() {
  std::cerr << "usage: cel_conformance [--verbose] [--summary] [--strict] [--evaluate-skipped]\n"
               "                       [--filter=FILE[/SECTION[/TEST]]]... PATH...\n";
  return 2;
}

std::vector<std::filesystem::path> Files(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> out;
  for (const auto& p : paths) {
    if (std::filesystem::is_directory(p)) {
      std::vector<std::filesystem::path> in_dir;
      for (const auto& entry : std::filesystem::directory_iterator(p)) {
        if (entry.path().extension() == ".textproto") in_dir.push_back(entry.path());
      }
      std::sort(in_dir.begin(), in_dir.end());
      out.insert(out.end(), in_dir.begin(), in_dir.end());
    } else {
      out.emplace_back(p);
    }
  }
  return out;
}

std::string Categories(const std::map<std::string, int>& counts) {
  std::string out;
  for (const auto& [name, n] : counts) out += (out.empty() ? "" : ", ") + name + " " + std::to_string(n);
  return out;
}

void PrintFailure(const TestResult& r) {
  std::cout << "FAIL " << r.file << "/" << r.section << "/" << r.name << "  [" << r.category << "]\n"
            << "  expr:     " << r.expr << "\n"
            << "  expected: " << r.expected << "\n"
            << "  got:      ";
  // Compile errors span lines (source and caret): indent them under the first.
  std::istringstream lines(r.got);
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    std::cout << (first ? "" : "            ") << line << "\n";
    first = false;
  }
  if (first) std::cout << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--verbose" || a == "-v") {
      o.verbose = true;
    } else if (a == "--summary") {
      o.summary = true;
    } else if (a == "--strict") {
      o.strict = true;
    } else if (a == "--evaluate-skipped") {
      o.evaluate_skipped = true;
    } else if (a.starts_with("--filter=")) {
      o.filters.push_back(a.substr(9));
    } else if (a == "--filter" && i + 1 < argc) {
      o.filters.push_back(argv[++i]);
    } else if (a == "--help" || a == "-h" || (a.starts_with("-") && a.size() > 1)) {
      return Usage();
    } else {
      o.paths.push_back(a);
    }
  }
  if (o.paths.empty()) return Usage();

  struct FileTotals {
    std::string name;
    int passed = 0, failed = 0, skipped = 0;
    std::map<std::string, int> skips;
  };
  std::vector<FileTotals> totals;
  std::map<std::string, int> failure_categories, skip_categories;
  bool read_error = false;

  for (const auto& path : Files(o.paths)) {
    const std::string stem = path.stem().string();
    if (!kube::celconf::FileMatches(stem, o.filters)) continue;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << path.string() << ": cannot read\n";
      read_error = true;
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = kube::textproto::Parse(text.str());
    if (!parsed.ok()) {
      std::cerr << path.string() << ": " << parsed.status().message() << "\n";
      read_error = true;
      continue;
    }
    FileTotals t{.name = stem};
    for (const auto& r : kube::celconf::RunFile(*parsed, o.filters, o.evaluate_skipped, stem)) {
      const std::string id = r.file + "/" + r.section + "/" + r.name;
      switch (r.outcome) {
        case Outcome::kPassed:
          ++t.passed;
          if (o.verbose) std::cout << "PASS " << id << "\n";
          break;
        case Outcome::kSkipped:
          ++t.skipped;
          ++t.skips[r.category];
          ++skip_categories[r.category];
          if (o.verbose) {
            std::cout << "SKIP " << id << "  (" << r.category << (r.detail.empty() ? "" : ": " + r.detail) << ")\n";
          }
          break;
        case Outcome::kFailed:
          ++t.failed;
          ++failure_categories[r.category];
          if (!o.summary) PrintFailure(r);
          break;
      }
    }
    totals.push_back(std::move(t));
  }

  std::cout << "\n"
            << "file                    passed  failed  skipped  pass rate (of run)\n";
  FileTotals all{.name = "TOTAL"};
  auto line = [](const FileTotals& t) {
    const int run = t.passed + t.failed;
    char rate[32] = "-";
    if (run > 0) std::snprintf(rate, sizeof rate, "%.1f%%", 100.0 * t.passed / run);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%-22s %7d %7d %8d  %s", t.name.c_str(), t.passed, t.failed, t.skipped, rate);
    std::cout << buf;
    if (!t.skips.empty()) std::cout << "   skipped: " << Categories(t.skips);
    std::cout << "\n";
  };
  for (const auto& t : totals) {
    line(t);
    all.passed += t.passed;
    all.failed += t.failed;
    all.skipped += t.skipped;
  }
  line(all);
  if (!skip_categories.empty()) std::cout << "\nskipped by category: " << Categories(skip_categories) << "\n";
  if (!failure_categories.empty()) {
    std::vector<std::pair<std::string, int>> sorted(failure_categories.begin(), failure_categories.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::cout << "\nfailures by category:\n";
    for (const auto& [name, n] : sorted) std::cout << "  " << n << "  " << name << "\n";
  }
  if (read_error) return 1;
  return o.strict && all.failed > 0 ? 1 : 0;
}
