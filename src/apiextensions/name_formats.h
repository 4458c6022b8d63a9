// apimachinery's name format checks (util/validation) as the CRD validation uses them: each
// returns kube's messages, empty when the value is valid.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kube::apiextensions {

std::vector<std::string> IsDNS1035Label(std::string_view value);
std::vector<std::string> IsDNS1123Subdomain(std::string_view value);
// The messages joined with "," (kube's strings.Join(errs, ",")).
std::string JoinMessages(const std::vector<std::string>& messages);

}  // namespace kube::apiextensions
