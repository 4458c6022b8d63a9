#include <doctest/doctest.h>

#include "cel/lib_test_helpers.h"
#include "cel/quantity.h"

namespace kube::cel {
namespace {

using testing::Eval;

const std::string kFormatWrong =
    "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

TEST_CASE("quantity: parsing with kube's suffixes and errors") {
  CHECK(Eval("quantity('12Mi') == quantity('12582912')") == "true");
  CHECK(Eval("type(quantity('1'))") == "kubernetes.Quantity");
  CHECK(Eval("quantity('10Mo')") == kFormatWrong);
  CHECK(Eval("quantity('')") == kFormatWrong);
  CHECK(Eval("quantity('1.5.5')") == kFormatWrong);
  CHECK(Eval("quantity(' 1')") == kFormatWrong);
  CHECK(Eval("quantity('10Mm')") == "error: unable to parse quantity's suffix");
  CHECK(Eval("quantity('1e')") == "error: unable to parse quantity's suffix");
  CHECK(Eval("quantity('1e-')") == "error: unable to parse quantity's suffix");
  CHECK(Eval("quantity('1e99999999999999999999')") == "error: unable to parse quantity's suffix");
  CHECK(Eval("quantity('.e-20')") == "error: unable to parse numeric part of quantity");
  CHECK(Eval("quantity('1E') == quantity('1e18')") == "true");
  CHECK(Eval("quantity('1e+3') == quantity('1k')") == "true");
  CHECK(Eval("quantity('.') == quantity('0')") == "true");
  CHECK(Eval("quantity('+') == quantity('-0')") == "true");
  CHECK(Eval("quantity('-1.5') == quantity('-1500m')") == "true");
  // Go truncates the parsed exponent to int32: 4294967296 is 0.
  CHECK(Eval("quantity('1e4294967296') == quantity('1')") == "true");
}

TEST_CASE("quantity: isQuantity") {
  CHECK(Eval("[isQuantity('20'), isQuantity('20M'), isQuantity('20Mi'), isQuantity('1.5e-3')]") ==
        "[true, true, true, true]");
  CHECK(Eval("[isQuantity('20Mo'), isQuantity('10Mm'), isQuantity(''), isQuantity('1 ')]") ==
        "[false, false, false, false]");
  CHECK(Eval("isQuantity([1])").starts_with("error: no such overload"));
}

TEST_CASE("quantity: equality and ordering are numeric") {
  CHECK(Eval("quantity('200M') == quantity('0.2G') && quantity('0.2G') == quantity('200M')") == "true");
  CHECK(Eval("quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M')") == "true");
  CHECK(Eval("quantity('200M') == quantity('0.3G')") == "false");
  CHECK(Eval("quantity('50M').isLessThan(quantity('50Mi'))") == "true");
  CHECK(Eval("quantity('100M').isLessThan(quantity('50M'))") == "false");
  CHECK(Eval("quantity('50Mi').isGreaterThan(quantity('50M'))") == "true");
  CHECK(Eval("quantity('50M').isGreaterThan(quantity('100M'))") == "false");
  CHECK(Eval("[quantity('200M').compareTo(quantity('0.2G')), quantity('50M').compareTo(quantity('50Mi')), "
             "quantity('50Mi').compareTo(quantity('50M'))]") == "[0, -1, 1]");
  CHECK(Eval("quantity('-1').compareTo(quantity('1n'))") == "-1");
  CHECK(Eval("quantity('1e1000000000').isGreaterThan(quantity('9999999999999999999999999'))") == "true");
  CHECK(Eval("quantity('-1e1000000000').isLessThan(quantity('-1'))") == "true");
  CHECK(Eval("[sign(quantity('-1')), sign(quantity('0')), sign(quantity('1m')), sign(quantity('-0.0'))]") ==
        "[-1, 0, 1, 0]");
}

TEST_CASE("quantity: rounding to nano and binary clamping") {
  CHECK(Eval("quantity('0.0000000001') == quantity('1n')") == "true");
  CHECK(Eval("quantity('-0.0000000001') == quantity('-1n')") == "true");
  CHECK(Eval("quantity('1.0000000001') == quantity('1000000001n')") == "true");
  CHECK(Eval("quantity('1.000000000') == quantity('1')") == "true");
  CHECK(Eval("quantity('8Ei') == quantity('9223372036854775807')") == "true");
  CHECK(Eval("quantity('-8Ei') == quantity('-9223372036854775807')") == "true");
  CHECK(Eval("quantity('1.5Gi') == quantity('1610612736')") == "true");
}

TEST_CASE("quantity: arithmetic") {
  CHECK(Eval("quantity('50k').add(quantity('20')) == quantity('50.02k')") == "true");
  CHECK(Eval("quantity('50k').add(20).isLessThan(quantity('50020'))") == "false");
  CHECK(Eval("quantity('50k').sub(quantity('20')) == quantity('49.98k')") == "true");
  CHECK(Eval("quantity('50k').sub(20) == quantity('49980')") == "true");
  CHECK(Eval("quantity('50k').add(20).sub(quantity('100k')).asInteger()") == "-49980");
  CHECK(Eval("quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger()") == "20");
  CHECK(Eval("[quantity('9999999999999999999999999999999999999')].all(x, "
             "x.add(quantity('1')).compareTo(x.add(quantity('2'))) == -1)") == "true");
  CHECK(Eval("quantity('9223372036854775807').add(1) == quantity('9223372036854775808')") == "true");
  CHECK(Eval("quantity('-9223372036854775807').sub(2).isInteger()") == "false");
  CHECK(Eval("quantity('1.5Gi').sub(quantity('1.5Gi')) == quantity('0')") == "true");
  CHECK(Eval("quantity('1e1000000000').add(1)") == "error: quantity arithmetic result exceeds 100000 digits");
}

TEST_CASE("quantity: asInteger and isInteger answer from kube's representation") {
  CHECK(Eval("quantity('50k').asInteger()") == "50000");
  CHECK(Eval("quantity('1Ki').asInteger()") == "1024");
  CHECK(Eval("quantity('-3').asInteger()") == "-3");
  CHECK(Eval("quantity('9999999999999999999999999999999999999G').asInteger()") ==
        "error: cannot convert value to integer");
  CHECK(Eval("quantity('9999999999999999999999999999999999999G').isInteger()") == "false");
  CHECK(Eval("quantity('50').isInteger()") == "true");
  CHECK(Eval("quantity('1k').isInteger()") == "true");
  CHECK(Eval("quantity('1.0').isInteger()") == "false");
  CHECK(Eval("quantity('1000m').isInteger()") == "false");
  CHECK(Eval("quantity('1Ei').isInteger()") == "false");
  CHECK(Eval("quantity('1e19').isInteger()") == "false");
}

TEST_CASE("quantity: asApproximateFloat") {
  CHECK(Eval("quantity('50.703k').asApproximateFloat()") == "50703");
  CHECK(Eval("quantity('1.5').asApproximateFloat()") == "1.5");
  CHECK(Eval("quantity('1Ki').asApproximateFloat()") == "1024");
  CHECK(Eval("quantity('2Ei').asApproximateFloat() == 2305843009213693952.0") == "true");
  CHECK(Eval("quantity('1e400').asApproximateFloat() > 1.0e308") == "true");
  // Below nano precision a quantity rounds up to 1n.
  CHECK(Eval("quantity('1e-400') == quantity('1n')") == "true");
  CHECK(Eval("quantity('1e-400').asApproximateFloat() == 1e-9") == "true");
}

TEST_CASE("quantity: the scaled int64 form holds every number of up to 18 digits exactly") {
  CHECK(Eval("quantity('999999999999999999') == quantity('999999999999999998').add(1)") == "true");
  CHECK(Eval("quantity('999999999999999999').asInteger()") == "999999999999999999");
  CHECK(Eval("quantity('-123456789.012345678').compareTo(quantity('-123456789012345678n'))") == "0");
  CHECK(Eval("quantity('000000000000000000001.5').isInteger()") == "false");
  CHECK(Eval("quantity('0012k').asInteger()") == "12000");
  CHECK(Eval("quantity('1.000000001').compareTo(quantity('1000000001n'))") == "0");
  CHECK(Eval("quantity('12345678901Ki').asInteger()") == "12641975194624");
  CHECK(Eval("quantity('+7.') == quantity('7')") == "true");
  CHECK(Eval("quantity('9999999999999999999').isInteger()") == "false");
}

TEST_CASE("quantity: the Quantity type directly") {
  std::string error;
  auto q = Quantity::Parse("1.25Mi", &error);
  REQUIRE(q.has_value());
  CHECK(q->DebugString() == "1310720");
  auto m = Quantity::Parse("-1500m", &error);
  REQUIRE(m.has_value());
  CHECK(m->DebugString() == "-1.5");
  CHECK(!Quantity::Parse(std::string(100000, '9') + "x", &error).has_value());
  auto big = Quantity::Parse(std::string(5000, '9'), &error);
  REQUIRE(big.has_value());
  CHECK(big->Add(Quantity::FromInt(1)));
  CHECK(big->DebugString() == "1" + std::string(5000, '0'));
}

}  // namespace
}  // namespace kube::cel
