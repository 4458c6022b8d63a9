// The kube-apiserver 1.36 flags that kube-apiserver-lite accepts without acting on them
// (storage, etcd, audit, logging, profiling, webhooks, kubelet, shutdown tuning, ...): envtest
// and other harnesses pass them, so they must parse, and the server says once at start that it
// ignores them. Derived from k8s.io/apiserver's and kube-apiserver's option sets.
//
// Thread-safety: constant data.
#pragma once

#include <string_view>

namespace kube::server {

struct IgnoredFlag {
  std::string_view name;  // without the leading dashes
  bool is_bool;           // takes no value unless given with '='
  // Why it changes nothing here (shown in --help); empty for the generic reason.
  std::string_view note;
};

// nullptr when `name` is not one of them.
const IgnoredFlag* FindIgnoredFlag(std::string_view name);
// All of them, for --help.
const IgnoredFlag* IgnoredFlagsBegin();
const IgnoredFlag* IgnoredFlagsEnd();

// kube-apiserver's admission plugins (the names --enable/disable-admission-plugins accept).
bool IsKnownAdmissionPlugin(std::string_view name);

}  // namespace kube::server
