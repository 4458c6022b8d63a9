#include "util/uuid.h"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

namespace kube {
namespace {

TEST_CASE("uuid: version 4 in the canonical form") {
  for (int i = 0; i < 100; ++i) {
    const std::string u = NewUuid();
    REQUIRE(u.size() == 36);
    for (int dash : {8, 13, 18, 23}) CHECK(u[dash] == '-');
    CHECK(u[14] == '4');
    CHECK(std::string("89ab").find(u[19]) != std::string::npos);
    for (char c : u) CHECK((c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')));
  }
}

TEST_CASE("uuid: no repeats across threads") {
  std::vector<std::vector<std::string>> drawn(4);
  std::vector<std::thread> threads;
  for (auto& d : drawn) {
    threads.emplace_back([&d] {
      for (int i = 0; i < 1000; ++i) d.push_back(NewUuid());
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> all;
  for (const auto& d : drawn) all.insert(d.begin(), d.end());
  CHECK(all.size() == 4000);
}

}  // namespace
}  // namespace kube
