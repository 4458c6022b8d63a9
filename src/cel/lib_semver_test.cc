#include <doctest/doctest.h>

#include "cel/lib_test_helpers.h"

namespace kube::cel {
namespace {

using testing::Eval;

TEST_CASE("semver: parsing and accessors") {
  CHECK(Eval("[semver('1.2.3').major(), semver('1.2.3').minor(), semver('1.2.3').patch()]") == "[1, 2, 3]");
  CHECK(Eval("type(semver('1.2.3'))") == "kubernetes.Semver");
  CHECK(Eval("semver('1.2.3-alpha.1+build.5') == semver('1.2.3-alpha.1')") == "true");
  CHECK(Eval("semver('1.2.3') == semver('1.2.4')") == "false");
  CHECK(Eval("semver('')") == "error: Version string empty");
  CHECK(Eval("semver('1.2')") == "error: No Major.Minor.Patch elements found");
  CHECK(Eval("semver('01.2.3')") == "error: Major number must not contain leading zeroes \"01\"");
  CHECK(Eval("semver('1.02.3')") == "error: Minor number must not contain leading zeroes \"02\"");
  CHECK(Eval("semver('1.2.03')") == "error: Patch number must not contain leading zeroes \"03\"");
  CHECK(Eval("semver('a.2.3')") == "error: Invalid character(s) found in major number \"a\"");
  CHECK(Eval("semver('1.x.3')") == "error: Invalid character(s) found in minor number \"x\"");
  CHECK(Eval("semver('1.2.3.4')") == "error: Invalid character(s) found in patch number \"3.4\"");
  CHECK(Eval("semver('1.2.3-')") == "error: Prerelease is empty");
  CHECK(Eval("semver('1.2.3-a..b')") == "error: Prerelease is empty");
  CHECK(Eval("semver('1.2.3-01')") == "error: Numeric PreRelease version must not contain leading zeroes \"01\"");
  CHECK(Eval("semver('1.2.3-a_b')") == "error: Invalid character(s) found in prerelease \"a_b\"");
  CHECK(Eval("semver('1.2.3+')") == "error: Build meta data is empty");
  CHECK(Eval("semver('1.2.3+a_b')") == "error: Invalid character(s) found in build meta data \"a_b\"");
  CHECK(Eval("semver('99999999999999999999.0.0')") ==
        "error: strconv.ParseUint: parsing \"99999999999999999999\": value out of range");
  CHECK(Eval("semver('..')") == "error: strconv.ParseUint: parsing \"\": invalid syntax");
  CHECK(Eval("semver('v1.2.3')") == "error: Invalid character(s) found in major number \"v1\"");
}

TEST_CASE("semver: normalize") {
  CHECK(Eval("semver('v1.2.3', true) == semver('1.2.3')") == "true");
  CHECK(Eval("semver('v01.02', true) == semver('1.2.0')") == "true");
  CHECK(Eval("semver('1', true) == semver('1.0.0')") == "true");
  CHECK(Eval("semver('1.00.0-rc.1', true) == semver('1.0.0-rc.1')") == "true");
  CHECK(Eval("semver('1-alpha', true)") == "error: short version cannot contain PreRelease/Build meta data");
  CHECK(Eval("semver('1.2+b', true)") == "error: short version cannot contain PreRelease/Build meta data");
  CHECK(Eval("semver('v1.2.3', false)") == "error: Invalid character(s) found in major number \"v1\"");
  CHECK(Eval("semver('', true)") == "error: strconv.ParseUint: parsing \"\": invalid syntax");
}

TEST_CASE("semver: isSemver") {
  CHECK(Eval("[isSemver('1.2.3'), isSemver('1.2.3-rc.1+b'), isSemver('v1.2.3'), isSemver('1.2'), isSemver('')]") ==
        "[true, true, false, false, false]");
  CHECK(Eval("[isSemver('v1.2.3', true), isSemver('1.2', true), isSemver('1.2-rc', true), isSemver('v1', false)]") ==
        "[true, true, false, false]");
}

TEST_CASE("semver: precedence as semver 2.0 defines it") {
  CHECK(Eval("semver('1.2.3').isGreaterThan(semver('1.2.2'))") == "true");
  CHECK(Eval("semver('1.2.3').isLessThan(semver('1.10.0'))") == "true");
  CHECK(Eval("semver('1.0.0-alpha').isLessThan(semver('1.0.0'))") == "true");
  CHECK(Eval("semver('1.0.0-alpha.1').compareTo(semver('1.0.0-alpha.beta'))") == "-1");
  CHECK(Eval("semver('1.0.0-alpha').compareTo(semver('1.0.0-alpha.1'))") == "-1");
  CHECK(Eval("semver('1.0.0-beta.11').compareTo(semver('1.0.0-beta.2'))") == "1");
  CHECK(Eval("semver('1.0.0-rc.1').compareTo(semver('1.0.0-beta.11'))") == "1");
  CHECK(Eval("semver('2.0.0+a').compareTo(semver('2.0.0+b'))") == "0");
  CHECK(Eval("semver('1.0.0').isLessThan(quantity('1'))").starts_with("error: no such overload"));
}

}  // namespace
}  // namespace kube::cel
