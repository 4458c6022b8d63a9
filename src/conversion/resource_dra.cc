// resource.k8s.io/v1beta1 <-> v1 (v1beta2 has v1's layout). Two shapes differ:
//   DeviceRequest: v1beta1 holds the "exactly this" request's fields (deviceClassName,
//     selectors, allocationMode, count, adminAccess, tolerations, capacity) at the top level
//     beside firstAvailable; v1 nests them under `exactly`. kube sets `exactly` when any of them
//     is set.
//   Device (ResourceSlice): v1beta1 has {name, basic: {...}}; v1 has the basic fields inline.
// ResourceClaim (spec.devices.requests), ResourceClaimTemplate (spec.spec.devices.requests)
// and ResourceSlice (spec.devices) are converted; DeviceClass is field-identical.
#include "conversion/conversion_internal.h"

namespace kube::conversion::internal {

namespace {

constexpr const char* kExactFields[] = {"deviceClassName", "selectors", "allocationMode", "count",
                                        "adminAccess",     "tolerations", "capacity"};

// The requests array of a claim spec (ResourceClaim.spec or ResourceClaimTemplate.spec.spec), or null.
Object* Requests(Object& claim_spec) {
  if (!claim_spec.is_object()) return nullptr;
  auto devices = claim_spec.find("devices");
  if (devices == claim_spec.end() || !devices->is_object()) return nullptr;
  auto requests = devices->find("requests");
  return requests == devices->end() || !requests->is_array() ? nullptr : &*requests;
}

Object* ClaimSpec(Object& obj, std::string_view kind) {
  auto spec = obj.find("spec");
  if (spec == obj.end() || !spec->is_object()) return nullptr;
  if (kind == "ResourceClaim") return &*spec;
  if (kind == "ResourceClaimTemplate") {
    auto inner = spec->find("spec");
    return inner == spec->end() ? nullptr : &*inner;
  }
  return nullptr;
}

Object* SliceDevices(Object& obj) {
  auto spec = obj.find("spec");
  if (spec == obj.end() || !spec->is_object()) return nullptr;
  auto devices = spec->find("devices");
  return devices == spec->end() || !devices->is_array() ? nullptr : &*devices;
}

std::string KindOf(const Object& obj) {
  auto it = obj.find("kind");
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

Object DraV1beta1ToV1(Object in, std::string_view to_api_version) {
  const std::string kind = KindOf(in);
  if (Object* spec = ClaimSpec(in, kind)) {
    if (Object* requests = Requests(*spec)) {
      for (auto& r : *requests) {
        if (!r.is_object()) continue;
        Object exactly = Object::object();
        for (const char* f : kExactFields) {
          auto it = r.find(f);
          if (it == r.end()) continue;
          // kube's test for "set": a non-empty class or mode, a non-zero count, a non-nil list
          // or pointer.
          const bool set = !it->is_null() && !(it->is_string() && it->get_ref<const std::string&>().empty()) &&
                           !(std::string_view(f) == "count" && it->is_number() && it->get<double>() == 0);
          if (set) exactly[f] = std::move(*it);
          r.erase(it);
        }
        if (!exactly.empty()) {
          if (!exactly.contains("deviceClassName")) exactly["deviceClassName"] = "";
          r["exactly"] = std::move(exactly);
        }
      }
    }
  }
  if (kind == "ResourceSlice") {
    if (Object* devices = SliceDevices(in)) {
      for (auto& d : *devices) {
        if (!d.is_object()) continue;
        auto basic = d.find("basic");
        if (basic == d.end()) continue;
        Object fields = std::move(*basic);
        d.erase(basic);
        if (fields.is_object()) {
          for (auto it = fields.begin(); it != fields.end(); ++it) {
            if (it.key() != "name") d[it.key()] = std::move(it.value());
          }
        }
      }
    }
  }
  in["apiVersion"] = std::string(to_api_version);
  return in;
}

Object DraV1ToV1beta1(Object in) {
  const std::string kind = KindOf(in);
  if (Object* spec = ClaimSpec(in, kind)) {
    if (Object* requests = Requests(*spec)) {
      for (auto& r : *requests) {
        if (!r.is_object()) continue;
        auto exactly = r.find("exactly");
        if (exactly == r.end()) continue;
        Object fields = std::move(*exactly);
        r.erase(exactly);
        if (!fields.is_object()) continue;
        for (const char* f : kExactFields) {
          if (fields.contains(f)) r[f] = std::move(fields[f]);
        }
      }
    }
  }
  if (kind == "ResourceSlice") {
    if (Object* devices = SliceDevices(in)) {
      for (auto& d : *devices) {
        if (!d.is_object()) continue;
        Object basic = Object::object();
        Object out = Object::object();
        for (auto it = d.begin(); it != d.end(); ++it) {
          if (it.key() == "name") {
            out["name"] = std::move(it.value());
          } else {
            basic[it.key()] = std::move(it.value());
          }
        }
        out["basic"] = std::move(basic);
        d = std::move(out);
      }
    }
  }
  in["apiVersion"] = "resource.k8s.io/v1beta1";
  return in;
}

}  // namespace kube::conversion::internal
