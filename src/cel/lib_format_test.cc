#include <doctest/doctest.h>

#include "cel/lib_test_helpers.h"

namespace kube::cel {
namespace {

using testing::Eval;

const std::string kLabelError =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kSubdomainError =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kKeyError =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

// The rendering of optional.of(messages) (DebugString quotes '"' and '\\').
std::string Errors(std::initializer_list<std::string> messages) {
  std::string out = "optional.of([";
  bool first = true;
  for (const auto& m : messages) {
    out += first ? "\"" : ", \"";
    for (char c : m) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += "\"";
    first = false;
  }
  return out + "])";
}

TEST_CASE("format: DNS names with apimachinery's messages") {
  CHECK(Eval("format.dns1123Label().validate('my-name')") == "optional.none()");
  CHECK(Eval("format.dns1123Label().validate('My-Name')") == Errors({kLabelError}));
  CHECK(Eval("format.dns1123Label().validate('a.b')") == Errors({"must not contain dots"}));
  CHECK(Eval("format.dns1123Label().validate('" + std::string(64, 'a') + "')") ==
        Errors({"must be no more than 63 characters"}));
  CHECK(Eval("format.dns1123Label().validate('')") == Errors({kLabelError}));
  CHECK(Eval("format.dns1123Subdomain().validate('a.example.com')") == "optional.none()");
  CHECK(Eval("format.dns1123Subdomain().validate('A.com')") == Errors({kSubdomainError}));
  CHECK(Eval("format.dns1123Subdomain().validate('" + std::string(254, 'a') + "')") ==
        Errors({"must be no more than 253 characters"}));
  CHECK(Eval("format.dns1035Label().validate('abc-1')") == "optional.none()");
  CHECK(Eval("format.dns1035Label().validate('1abc')").starts_with("optional.of([\"a DNS-1035 label must consist"));
}

TEST_CASE("format: the Prefix variants accept a trailing dash as generateName does") {
  CHECK(Eval("format.dns1123LabelPrefix().validate('my-name-')") == "optional.none()");
  CHECK(Eval("format.dns1123Label().validate('my-name-')") == Errors({kLabelError}));
  CHECK(Eval("format.dns1123SubdomainPrefix().validate('a.b-')") == "optional.none()");
  CHECK(Eval("format.dns1035LabelPrefix().validate('abc-')") == "optional.none()");
  CHECK(Eval("format.dns1035LabelPrefix().validate('1bc-')").starts_with("optional.of("));
}

TEST_CASE("format: qualified names and label values") {
  CHECK(Eval("format.qualifiedName().validate('example.com/MyName')") == "optional.none()");
  CHECK(Eval("format.qualifiedName().validate('my.name')") == "optional.none()");
  CHECK(Eval("format.qualifiedName().validate('a/b/c')") ==
        Errors({"a valid label key " + kKeyError + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}));
  CHECK(Eval("format.qualifiedName().validate('/name')") == Errors({"prefix part must be non-empty"}));
  CHECK(Eval("format.qualifiedName().validate('Example.com/x')") == Errors({"prefix part " + kSubdomainError}));
  CHECK(Eval("format.qualifiedName().validate('ns/')") == Errors({"name part must be non-empty", "name part " + kKeyError}));
  CHECK(Eval("format.qualifiedName().validate('" + std::string(64, 'a') + "')") ==
        Errors({"name part must be no more than 63 bytes"}));
  CHECK(Eval("format.labelValue().validate('')") == "optional.none()");
  CHECK(Eval("format.labelValue().validate('my_value')") == "optional.none()");
  CHECK(Eval("format.labelValue().validate('a b')").starts_with(
      "optional.of([\"a valid label must be an empty string or consist of alphanumeric characters"));
}

TEST_CASE("format: uri, uuid, byte, date and datetime") {
  CHECK(Eval("format.uri().validate('https://example.com/x')") == "optional.none()");
  CHECK(Eval("format.uri().validate('x')") == Errors({"parse \"x\": invalid URI for request"}));
  CHECK(Eval("format.uuid().validate('123e4567-e89b-12d3-a456-426614174000')") == "optional.none()");
  CHECK(Eval("format.uuid().validate('123E4567E89B12D3A456426614174000')") == "optional.none()");
  CHECK(Eval("format.uuid().validate('not-a-uuid')") == Errors({"does not match the UUID format"}));
  CHECK(Eval("format.byte().validate('aGVsbG8=')") == "optional.none()");
  CHECK(Eval("format.byte().validate('aGVsbG8')") == Errors({"invalid base64"}));
  CHECK(Eval("format.byte().validate('')") == Errors({"invalid base64"}));
  CHECK(Eval("format.date().validate('2024-02-29')") == "optional.none()");
  CHECK(Eval("format.date().validate('2023-02-29')") == Errors({"invalid date"}));
  CHECK(Eval("format.date().validate('2023-13-01')") == Errors({"invalid date"}));
  CHECK(Eval("format.date().validate('2023-1-01')") == Errors({"invalid date"}));
  CHECK(Eval("format.datetime().validate('2024-01-01T10:00:00Z')") == "optional.none()");
  CHECK(Eval("format.datetime().validate('2024-01-01t10:00:00.123+02:00')") == "optional.none()");
  CHECK(Eval("format.datetime().validate('2024-01-01T24:00:00Z')") == Errors({"invalid datetime"}));
  CHECK(Eval("format.datetime().validate('2024-01-01 10:00:00Z')") == Errors({"invalid datetime"}));
  CHECK(Eval("format.datetime().validate('2024-01-01T10:00:00')") == Errors({"invalid datetime"}));
}

TEST_CASE("format: named formats, equality and type") {
  CHECK(Eval("format.named('dns1123Label').hasValue()") == "true");
  CHECK(Eval("format.named('nope') == optional.none()") == "true");
  CHECK(Eval("format.named('uri').value().validate('x').hasValue()") == "true");
  CHECK(Eval("format.dns1123Label() == format.named('dns1123Label').value()") == "true");
  CHECK(Eval("format.dns1123Label() == format.uri()") == "false");
  CHECK(Eval("type(format.uri())") == "kubernetes.NamedFormat");
  CHECK(Eval("format.nope()").starts_with("compile: "));
  CHECK(Eval("format.uri().validate(1)").starts_with("error: no such overload"));
}

}  // namespace
}  // namespace kube::cel
