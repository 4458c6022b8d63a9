// A process killed with SIGKILL in the middle of writing loses no acknowledged write.
#include <doctest/doctest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "kv/store.h"

extern char** environ;

namespace kube::kv {

TEST_CASE("kv: SIGKILL during writes loses no acknowledged write") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kv-crash-" + std::to_string(std::random_device{}()));
  int out[2];
  REQUIRE(pipe(out) == 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  const std::string writer = KV_CRASH_WRITER;
  const std::string dir_arg = dir.string();
  std::vector<char*> argv = {const_cast<char*>(writer.c_str()), const_cast<char*>(dir_arg.c_str()),
                             nullptr};
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, writer.c_str(), &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);

  // Read acknowledgements until enough writes are in, then kill the writer mid-stream.
  FILE* acks = fdopen(out[0], "r");
  REQUIRE(acks != nullptr);
  long n = -1, rev = 0, last_n = -1, last_rev = 0;
  while (std::fscanf(acks, "%ld %ld", &n, &rev) == 2) {
    last_n = n;
    last_rev = rev;
    if (n >= 500) break;
  }
  REQUIRE(kill(pid, SIGKILL) == 0);
  int status = 0;
  waitpid(pid, &status, 0);
  std::fclose(acks);
  CHECK(WIFSIGNALED(status));
  REQUIRE(last_n >= 500);

  auto store = Store::Open(Options{.data_dir = dir.string()});
  REQUIRE(store.ok());
  CHECK((*store)->CurrentRevision() >= last_rev);
  for (long i = 0; i <= last_n; ++i) {
    auto got = (*store)->Get("/crash/" + std::to_string(i));
    REQUIRE(got.ok());
    REQUIRE_MESSAGE(got->kv.has_value(), "acknowledged write /crash/" << i << " was lost");
    CHECK(got->kv->value == std::to_string(i));
  }
  // The store keeps working after recovery.
  CHECK((*store)->Put("/after", "x").ok());
  store->reset();
  std::filesystem::remove_all(dir);
}

}  // namespace kube::kv
