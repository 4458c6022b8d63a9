#include "util/status.h"

#include <doctest/doctest.h>

namespace kube {

TEST_CASE("status: reasons and HTTP codes are kube's") {
  CHECK(Status().ok());
  CHECK(Status::NotFound("x").HttpCode() == 404);
  CHECK(Status::NotFound("x").Reason() == "NotFound");
  CHECK(Status::AlreadyExists("x").HttpCode() == 409);
  CHECK(Status::Conflict("x").Reason() == "Conflict");
  CHECK(Status::Expired("x").HttpCode() == 410);
  CHECK(Status::Expired("x").Reason() == "Expired");
  CHECK(Status::Invalid("x").HttpCode() == 422);
  CHECK(Status::Unknown("x").Reason().empty());
  CHECK(Status::Unknown("x").HttpCode() == 500);
  Status large = Status::TooLargeResourceVersion("Too large resource version: 9, current: 3", 1);
  CHECK(large.HttpCode() == 504);
  CHECK(large.Reason() == "Timeout");
  CHECK(large.IsTooLargeResourceVersion());
  CHECK(large.retry_after_seconds() == 1);
  CHECK(large.cause() == "ResourceVersionTooLarge");
  Status busy = Status::TooManyRequests("storage is (re)initializing", 3);
  CHECK(busy.HttpCode() == 429);
  CHECK(busy.retry_after_seconds() == 3);
  CHECK(Status::NotFound("gone").ToString() == "NotFound: gone");
}

TEST_CASE("result: holds a value or an error") {
  Result<int> v = 7;
  REQUIRE(v.ok());
  CHECK(*v == 7);
  CHECK(v.status().ok());
  Result<int> e = Status::Conflict("nope");
  REQUIRE_FALSE(e.ok());
  CHECK(e.status().IsConflict());
}

}  // namespace kube
