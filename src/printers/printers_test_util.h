// Fixtures shared by the printers tests: a fixed clock and representative objects.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "printers/printers.h"

namespace kube::printers::testing {

using Json = nlohmann::json;

// 2024-05-10T12:00:00Z.
inline const std::chrono::system_clock::time_point kNow =
    std::chrono::sys_days{std::chrono::year{2024} / 5 / 10} + std::chrono::hours{12};

inline Json J(const char* text) {
  return Json::parse(text);
}

// The cells as a JSON array, so tests can compare against JSON literals.
inline Json Cells(std::string_view group, std::string_view resource, const Json& object) {
  return Json(CellsFor(group, resource, object, kNow));
}

// Well-formed objects of the printed kinds; the fuzz test mutates these.
inline std::vector<Json> SeedObjects() {
  static const char* const kSeeds[] = {
      R"json({"metadata":{"name":"p","creationTimestamp":"2024-05-10T11:00:00Z",
          "deletionTimestamp":"2024-05-10T11:59:00Z","labels":{"a":"b"}},
        "spec":{"nodeName":"n","readinessGates":[{"conditionType":"x"}],
          "containers":[{"name":"a","image":"i"}],
          "initContainers":[{"name":"s","restartPolicy":"Always"},{"name":"i"}]},
        "status":{"phase":"Running","podIP":"1.2.3.4","podIPs":[{"ip":"1.2.3.4"}],
          "conditions":[{"type":"Ready","status":"True"},{"type":"Initialized","status":"True"},
                        {"type":"x","status":"True"}],
          "initContainerStatuses":[{"name":"s","started":true,"ready":true,"restartCount":1,
              "lastState":{"terminated":{"finishedAt":"2024-05-10T11:30:00Z"}}},
            {"name":"i","state":{"terminated":{"exitCode":1,"signal":9}}}],
          "containerStatuses":[{"name":"a","ready":true,"restartCount":2,"state":{"running":{}},
              "lastState":{"terminated":{"finishedAt":"2024-05-10T11:50:00Z","reason":"Error"}}}]}})json",
      R"json({"metadata":{"name":"d"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"x"},
          "matchExpressions":[{"key":"t","operator":"In","values":["b","a"]}]},
          "template":{"spec":{"nodeSelector":{"os":"linux"},"containers":[{"name":"c","image":"i"}]}},
          "completions":2,"parallelism":3,"schedule":"* * * * *","timeZone":"UTC","suspend":true,
          "jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c"}]}}}}},
        "status":{"replicas":3,"readyReplicas":2,"updatedReplicas":1,"availableReplicas":1,
          "desiredNumberScheduled":2,"succeeded":1,"startTime":"2024-05-10T11:00:00Z",
          "completionTime":"2024-05-10T11:10:00Z","active":[{"name":"j"}],
          "lastScheduleTime":"2024-05-10T11:59:00Z",
          "conditions":[{"type":"Complete","status":"True"}]}})json",
      R"json({"metadata":{"name":"s","annotations":{"volume.beta.kubernetes.io/storage-class":"x"}},
        "type":"Warning","reason":"r","message":"m","count":2,"note":"n",
        "involvedObject":{"kind":"Pod","name":"p"},"regarding":{"kind":"Pod"},
        "source":{"component":"c"},"series":{"count":3,"lastObservedTime":"2024-05-10T11:00:00Z"},
        "firstTimestamp":"2024-05-10T11:00:00Z","eventTime":"2024-05-10T11:00:00.000000Z",
        "data":{"a":"b"},"binaryData":{"c":"d"},"secrets":[{"name":"t"}],
        "subsets":[{"addresses":[{"ip":"1.1.1.1"}],"ports":[{"port":80}]}],
        "spec":{"type":"LoadBalancer","clusterIPs":["1.2.3.4"],"externalIPs":["5.5.5.5"],
          "ports":[{"port":80,"nodePort":30000}],"selector":{"a":"b"},"unschedulable":true,
          "capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"volumeName":"v",
          "claimRef":{"namespace":"n","name":"c"},"rules":[{"host":"a"}],"tls":[{}],
          "holderIdentity":"h","ingressClassName":"nginx"},
        "status":{"phase":"Bound","capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],
          "loadBalancer":{"ingress":[{"ip":"9.9.9.9"}]},
          "conditions":[{"type":"Ready","status":"True"}],
          "addresses":[{"type":"InternalIP","address":"10.0.0.1"}],
          "nodeInfo":{"kubeletVersion":"v1"}}})json",
  };
  std::vector<Json> out;
  for (const char* s : kSeeds) out.push_back(Json::parse(s));
  return out;
}

}  // namespace kube::printers::testing
