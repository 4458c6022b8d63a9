// Table printers of the kinds beyond pods, workloads, core and storage basics: one expected row
// per case (kube's cells for the object), table-driven; column names per kind as kube's
// printers declare them; and the same malformed-object fuzz as printers_test.cc.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "printers/printers.h"
#include "printers/printers_test_util.h"

namespace kube::printers {
namespace {

using testing::J;
using testing::Json;
using testing::kNow;

// creationTimestamp one hour before kNow: Age "60m".
constexpr const char* kMeta = R"("metadata":{"name":"x","creationTimestamp":"2024-05-10T11:00:00Z")";

struct Case {
  const char* group;
  const char* resource;
  std::string object;  // without the metadata, which kMeta supplies
  const char* want;    // the row's cells as JSON
};

std::string Obj(const std::string& rest, const std::string& extra_meta = "") {
  return std::string("{") + kMeta + extra_meta + "}" + (rest.empty() ? "" : "," + rest) + "}";
}

void CheckCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    CAPTURE(c.resource);
    CAPTURE(c.object);
    const Json cells = Json(CellsFor(c.group, c.resource, Json::parse(c.object), kNow));
    CHECK(cells == Json::parse(c.want));
  }
}

std::vector<std::string> ColumnNames(std::string_view group, std::string_view resource) {
  std::vector<std::string> names;
  for (const Column& c : ColumnsFor(group, resource)) names.push_back(c.name);
  return names;
}

}  // namespace

TEST_CASE("horizontalpodautoscalers: v2 metrics, v1 fallback and kube's default") {
  CHECK(ColumnNames("autoscaling", "horizontalpodautoscalers") ==
        std::vector<std::string>{"Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"});
  CheckCases({
      // autoscaling/v2 with a utilization metric and its current value.
      {"autoscaling", "horizontalpodautoscalers",
       Obj(R"("spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":10,
           "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]},
           "status":{"currentReplicas":3,"currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":42}}}]})"),
       R"(["x","Deployment/web","cpu: 42%/50%","2",10,3,"60m"])"},
      // No status yet: <unknown>; every metric type; more than two become "+ N more...".
      {"autoscaling", "horizontalpodautoscalers",
       Obj(R"("spec":{"scaleTargetRef":{"kind":"StatefulSet","name":"db"},"maxReplicas":4,"metrics":[
           {"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"100Mi"}}},
           {"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"1k"}}},
           {"type":"External","external":{"metric":{"name":"q"},"target":{"type":"Value","value":"30"}}}]})"),
       R"(["x","StatefulSet/db","memory: <unknown>/100Mi, <unknown>/1k + 1 more...","1",4,0,"60m"])"},
      {"autoscaling", "horizontalpodautoscalers",
       Obj(R"("spec":{"scaleTargetRef":{"kind":"Deployment","name":"w"},"maxReplicas":3,"metrics":[
           {"type":"Object","object":{"target":{"type":"AverageValue","averageValue":"2"}}},
           {"type":"ContainerResource","containerResource":{"name":"cpu","container":"app","target":{"type":"Utilization"}}}]},
           "status":{"currentMetrics":[{"type":"Object","object":{"current":{"averageValue":"1500m"}}},
             {"type":"ContainerResource","containerResource":{"name":"cpu","current":{"averageUtilization":7}}}]})"),
       R"(["x","Deployment/w","1500m/2 (avg), cpu: 7%/<auto>","1",3,0,"60m"])"},
      {"autoscaling", "horizontalpodautoscalers",
       Obj(R"("spec":{"scaleTargetRef":{"kind":"Deployment","name":"w"},"maxReplicas":3,"metrics":[
           {"type":"External","external":{"target":{"type":"AverageValue","averageValue":"5"}}},
           {"type":"Weird"}]},"status":{"currentMetrics":[{"type":"External","external":{"current":{"value":"9"}}}]})"),
       R"(["x","Deployment/w","<unknown>/5 (avg), <unknown type>","1",3,0,"60m"])"},
      // autoscaling/v1 shape.
      {"autoscaling", "horizontalpodautoscalers",
       Obj(R"("spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":1,
           "maxReplicas":5,"targetCPUUtilizationPercentage":70},"status":{"currentReplicas":2,"currentCPUUtilizationPercentage":65})"),
       R"(["x","Deployment/web","cpu: 65%/70%","1",5,2,"60m"])"},
      // Neither: autoscaling/v2's default metric, cpu at 80%.
      {"autoscaling", "horizontalpodautoscalers",
       Obj(R"("spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":5})"),
       R"(["x","Deployment/web","cpu: <unknown>/80%","1",5,0,"60m"])"},
  });
}

TEST_CASE("core and apps kinds: podtemplates, replicationcontrollers, pdbs, revisions, quotas, componentstatuses") {
  CheckCases({
      {"", "podtemplates",
       Obj(R"("template":{"metadata":{"labels":{"b":"2","a":"1"}},"spec":{"containers":[{"name":"c1","image":"i1"},{"name":"c2","image":"i2"}]}})"),
       R"(["x","c1,c2","i1,i2","a=1,b=2"])"},
      {"", "replicationcontrollers",
       Obj(R"("spec":{"template":{"metadata":{"labels":{"app":"w"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}},
           "status":{"replicas":1,"readyReplicas":1})"),
       R"(["x",1,1,1,"60m","c","nginx","app=w"])"},
      {"", "replicationcontrollers", Obj(R"("spec":{"replicas":3,"selector":{"k":"v"}})"),
       R"(["x",3,0,0,"60m","","","k=v"])"},
      {"policy", "poddisruptionbudgets", Obj(R"("spec":{"minAvailable":2},"status":{"disruptionsAllowed":1})"),
       R"(["x","2","N/A",1,"60m"])"},
      {"policy", "poddisruptionbudgets", Obj(R"("spec":{"maxUnavailable":"25%"})"), R"(["x","N/A","25%",0,"60m"])"},
      {"apps", "controllerrevisions",
       Obj(R"("revision":3)", R"(,"ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"db","controller":true}])"),
       R"(["x","statefulset.apps/db",3,"60m"])"},
      {"apps", "controllerrevisions", Obj(R"("revision":1)"), R"(["x","<none>",1,"60m"])"},
      {"", "resourcequotas",
       Obj(R"("status":{"hard":{"pods":"10","limits.cpu":"2","requests.memory":"1Gi","limits.memory":"2Gi"},
           "used":{"pods":"3","limits.cpu":"500m"}})"),
       R"(["x","pods: 3/10, requests.memory: 0/1Gi","limits.cpu: 500m/2, limits.memory: 0/2Gi","60m"])"},
      {"", "componentstatuses",
       R"({"metadata":{"name":"etcd-0"},"conditions":[{"type":"Healthy","status":"True","message":"ok"}]})",
       R"(["etcd-0","Healthy","ok",""])"},
      {"", "componentstatuses", R"({"metadata":{"name":"s"}})", R"(["s","Unknown","",""])"},
  });
}

TEST_CASE("networking and discovery kinds") {
  CheckCases({
      {"networking.k8s.io", "ingressclasses",
       Obj(R"("spec":{"controller":"k8s.io/ingress-nginx","parameters":{"apiGroup":"k8s.example.com","kind":"IngressParameters","name":"p"}})"),
       R"(["x","k8s.io/ingress-nginx","IngressParameters.k8s.example.com/p","60m"])"},
      {"networking.k8s.io", "ingressclasses", Obj(R"("spec":{"controller":"c"})"), R"(["x","c","<none>","60m"])"},
      {"networking.k8s.io", "networkpolicies", Obj(R"("spec":{"podSelector":{"matchLabels":{"role":"db"}}})"),
       R"(["x","role=db","60m"])"},
      {"networking.k8s.io", "networkpolicies", Obj(R"("spec":{"podSelector":{}})"), R"(["x","<none>","60m"])"},
      {"discovery.k8s.io", "endpointslices",
       Obj(R"("addressType":"IPv4","ports":[{"port":80},{"name":"https"},{}],
           "endpoints":[{"addresses":["10.0.0.1","10.0.0.2"]},{"addresses":["10.0.0.3","10.0.0.4"]}])"),
       R"(["x","IPv4","80,https,*","10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...","60m"])"},
      {"discovery.k8s.io", "endpointslices", Obj(R"("addressType":"IPv6")"), R"(["x","IPv6","<unset>","<unset>","60m"])"},
      {"networking.k8s.io", "servicecidrs", Obj(R"("spec":{"cidrs":["10.96.0.0/12","fd00::/108"]})"),
       R"(["x","10.96.0.0/12,fd00::/108","60m"])"},
      // kube prints an Age cell beyond its two columns.
      {"networking.k8s.io", "ipaddresses",
       Obj(R"("spec":{"parentRef":{"group":"","resource":"services","namespace":"default","name":"kubernetes"}})"),
       R"(["x","services/default/kubernetes","60m"])"},
      {"networking.k8s.io", "ipaddresses", Obj(""), R"(["x","<none>","60m"])"},
  });
}

TEST_CASE("admissionregistration kinds") {
  CheckCases({
      {"admissionregistration.k8s.io", "validatingwebhookconfigurations", Obj(R"("webhooks":[{"name":"a"},{"name":"b"}])"),
       R"(["x",2,"60m"])"},
      {"admissionregistration.k8s.io", "mutatingwebhookconfigurations", Obj(""), R"(["x",0,"60m"])"},
      {"admissionregistration.k8s.io", "validatingadmissionpolicies",
       Obj(R"("spec":{"paramKind":{"apiVersion":"v1","kind":"ConfigMap"},"validations":[{"expression":"true"}]})"),
       R"(["x",1,"v1/ConfigMap","60m"])"},
      {"admissionregistration.k8s.io", "mutatingadmissionpolicies", Obj(R"("spec":{"mutations":[{},{}]})"),
       R"(["x",2,"<unset>","60m"])"},
      {"admissionregistration.k8s.io", "validatingadmissionpolicybindings",
       Obj(R"("spec":{"policyName":"p","paramRef":{"name":"cfg","namespace":"ns"}})"), R"(["x","p","ns/cfg","60m"])"},
      {"admissionregistration.k8s.io", "validatingadmissionpolicybindings",
       Obj(R"("spec":{"policyName":"p","paramRef":{"name":"cfg"}})"), R"(["x","p","*/cfg","60m"])"},
      {"admissionregistration.k8s.io", "mutatingadmissionpolicybindings",
       Obj(R"("spec":{"policyName":"p","paramRef":{"selector":{"matchLabels":{"b":"2","a":"1"},
           "matchExpressions":[{"key":"k","operator":"In","values":["x","y"]}]}}})"),
       R"(["x","p","&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}","60m"])"},
      {"admissionregistration.k8s.io", "mutatingadmissionpolicybindings", Obj(R"("spec":{"policyName":"p"})"),
       R"(["x","p","<unset>","60m"])"},
  });
}

TEST_CASE("rbac, certificates, coordination, scheduling, node, flowcontrol, apiserverinternal, storagemigration") {
  CHECK(ColumnNames("rbac.authorization.k8s.io", "clusterroles") == std::vector<std::string>{"Name", "Created At"});
  CheckCases({
      {"rbac.authorization.k8s.io", "rolebindings",
       Obj(R"("roleRef":{"kind":"Role","name":"reader"},"subjects":[{"kind":"User","name":"alice"},{"kind":"User","name":"bob"},
           {"kind":"Group","name":"devs"},{"kind":"ServiceAccount","namespace":"ns","name":"sa"}])"),
       R"(["x","Role/reader","60m","alice, bob","devs","ns/sa"])"},
      {"rbac.authorization.k8s.io", "clusterrolebindings", Obj(R"("roleRef":{"kind":"ClusterRole","name":"admin"})"),
       R"(["x","ClusterRole/admin","60m","","",""])"},
      {"rbac.authorization.k8s.io", "clusterroles", Obj(R"("rules":[])"), R"(["x","2024-05-10T11:00:00Z"])"},
      {"certificates.k8s.io", "certificatesigningrequests",
       Obj(R"("spec":{"signerName":"kubernetes.io/kube-apiserver-client","username":"alice","expirationSeconds":86400},
           "status":{"conditions":[{"type":"Approved","status":"True"}],"certificate":"Y2VydA=="})"),
       R"(["x","60m","kubernetes.io/kube-apiserver-client","alice","24h","Approved,Issued"])"},
      {"certificates.k8s.io", "certificatesigningrequests",
       Obj(R"("spec":{"username":"bob"},"status":{"conditions":[{"type":"Approved"},{"type":"Denied"},{"type":"Failed"}]})"),
       R"(["x","60m","<none>","bob","<none>","Denied,Failed"])"},
      {"certificates.k8s.io", "certificatesigningrequests", Obj(R"("spec":{"username":"c"})"),
       R"(["x","60m","<none>","c","<none>","Pending"])"},
      {"certificates.k8s.io", "clustertrustbundles", Obj(R"("spec":{"signerName":"example.com/s"})"),
       R"(["x","example.com/s"])"},
      {"coordination.k8s.io", "leasecandidates",
       Obj(R"("spec":{"leaseName":"kube-controller-manager","binaryVersion":"1.36.0","emulationVersion":"1.35.0"})"),
       R"(["x","kube-controller-manager","1.36.0","1.35.0","60m"])"},
      {"scheduling.k8s.io", "priorityclasses", Obj(R"("value":1000,"globalDefault":true)"),
       R"(["x",1000,true,"60m","PreemptLowerPriority"])"},
      {"scheduling.k8s.io", "priorityclasses", Obj(R"("value":-5,"preemptionPolicy":"Never")"),
       R"(["x",-5,false,"60m","Never"])"},
      {"node.k8s.io", "runtimeclasses", Obj(R"("handler":"runc")"), R"(["x","runc","60m"])"},
      {"flowcontrol.apiserver.k8s.io", "flowschemas",
       Obj(R"("spec":{"priorityLevelConfiguration":{"name":"workload-low"},"matchingPrecedence":9000,
           "distinguisherMethod":{"type":"ByUser"}},"status":{"conditions":[{"type":"Dangling","status":"False"}]})"),
       R"(["x","workload-low",9000,"ByUser","60m","False"])"},
      {"flowcontrol.apiserver.k8s.io", "flowschemas", Obj(R"("spec":{"priorityLevelConfiguration":{"name":"p"}})"),
       R"(["x","p",1000,"<none>","60m","?"])"},
      {"flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations",
       Obj(R"("spec":{"type":"Limited","limited":{"nominalConcurrencyShares":100,"limitResponse":{"type":"Queue",
           "queuing":{"queues":128,"handSize":6}}}})"),
       R"(["x","Limited",100,128,6,50,"60m"])"},
      {"flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations", Obj(R"("spec":{"type":"Exempt","exempt":{}})"),
       R"(["x","Exempt","<none>","<none>","<none>","<none>","60m"])"},
      {"flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations",
       Obj(R"("spec":{"type":"Limited","limited":{"limitResponse":{"type":"Reject"}}})"),
       R"(["x","Limited",30,"<none>","<none>","<none>","60m"])"},
      {"internal.apiserver.k8s.io", "storageversions",
       Obj(R"("status":{"commonEncodingVersion":"apps/v1","storageVersions":[{"apiServerID":"a","encodingVersion":"apps/v1"},
           {"apiServerID":"b","encodingVersion":"apps/v1"},{"apiServerID":"c","encodingVersion":"apps/v1"},{"apiServerID":"d","encodingVersion":"apps/v1"}]})"),
       R"(["x","apps/v1","a=apps/v1,b=apps/v1,c=apps/v1 + 1 more...","60m"])"},
      {"internal.apiserver.k8s.io", "storageversions", Obj(""), R"(["x","<unset>","<unset>","60m"])"},
      {"storagemigration.k8s.io", "storageversionmigrations",
       Obj(R"("spec":{"resource":{"group":"apps","resource":"deployments"}})"), R"(["x","deployments.apps"])"},
  });
}

TEST_CASE("storage and resource (DRA) kinds") {
  CheckCases({
      {"storage.k8s.io", "storageclasses",
       Obj(R"("provisioner":"rancher.io/local-path")",
           R"(,"annotations":{"storageclass.kubernetes.io/is-default-class":"true"})"),
       R"j(["x (default)","rancher.io/local-path","Delete","Immediate",false,"60m"])j"},
      {"storage.k8s.io", "storageclasses",
       Obj(R"("provisioner":"p","reclaimPolicy":"Retain","volumeBindingMode":"WaitForFirstConsumer","allowVolumeExpansion":true)"),
       R"(["x","p","Retain","WaitForFirstConsumer",true,"60m"])"},
      {"storage.k8s.io", "volumeattributesclasses", Obj(R"("driverName":"csi.example.com")"),
       R"(["x","csi.example.com","60m"])"},
      {"storage.k8s.io", "volumeattachments",
       Obj(R"("spec":{"attacher":"csi.example.com","nodeName":"n1","source":{"persistentVolumeName":"pv1"}},"status":{"attached":true})"),
       R"(["x","csi.example.com","pv1","n1",true,"60m"])"},
      {"storage.k8s.io", "csinodes", Obj(R"("spec":{"drivers":[{"name":"a"}]})"), R"(["x",1,"60m"])"},
      {"storage.k8s.io", "csidrivers", Obj(R"("spec":{})"),
       R"(["x",true,false,false,"<unset>",false,"Persistent","60m"])"},
      {"storage.k8s.io", "csidrivers",
       Obj(R"("spec":{"attachRequired":false,"podInfoOnMount":true,"storageCapacity":true,"requiresRepublish":true,
           "tokenRequests":[{"audience":"a"},{"audience":"b"}],"volumeLifecycleModes":["Persistent","Ephemeral"]})"),
       R"(["x",false,true,true,"a,b",true,"Persistent,Ephemeral","60m"])"},
      {"storage.k8s.io", "csistoragecapacities", Obj(R"("storageClassName":"fast","capacity":"10Gi")"),
       R"(["x","fast","10Gi"])"},
      {"storage.k8s.io", "csistoragecapacities", Obj(R"("storageClassName":"fast")"), R"(["x","fast","<unset>"])"},
      {"resource.k8s.io", "deviceclasses", Obj(""), R"(["x","60m"])"},
      {"resource.k8s.io", "resourceclaimtemplates", Obj(""), R"(["x","60m"])"},
      {"resource.k8s.io", "resourceclaims", Obj(""), R"(["x","pending","60m"])"},
      {"resource.k8s.io", "resourceclaims", Obj(R"("status":{"allocation":{},"reservedFor":[{"name":"p"}]})"),
       R"(["x","allocated,reserved","60m"])"},
      {"resource.k8s.io", "resourceclaims", Obj("", R"(,"deletionTimestamp":"2024-05-10T11:30:00Z")"),
       R"(["x","deleted","60m"])"},
      {"resource.k8s.io", "resourceslices",
       Obj(R"("spec":{"nodeName":"n1","driver":"gpu.example.com","pool":{"name":"pool-a"}})"),
       R"(["x","n1","gpu.example.com","pool-a","60m"])"},
      {"apiregistration.k8s.io", "apiservices",
       Obj(R"("spec":{"service":{"namespace":"kube-system","name":"metrics-server"}},
           "status":{"conditions":[{"type":"Available","status":"False","reason":"MissingEndpoints"}]})"),
       R"j(["x","kube-system/metrics-server","False (MissingEndpoints)","60m"])j"},
      {"apiregistration.k8s.io", "apiservices",
       Obj(R"("status":{"conditions":[{"type":"Available","status":"True","reason":"Local"}]})"),
       R"(["x","Local","True","60m"])"},
  });
}

TEST_CASE("fuzz: the added printers never throw on malformed objects") {
  const char* resources[][2] = {
      {"autoscaling", "horizontalpodautoscalers"}, {"", "podtemplates"}, {"", "replicationcontrollers"},
      {"", "componentstatuses"}, {"", "resourcequotas"}, {"policy", "poddisruptionbudgets"},
      {"apps", "controllerrevisions"}, {"networking.k8s.io", "ingressclasses"}, {"networking.k8s.io", "networkpolicies"},
      {"networking.k8s.io", "servicecidrs"}, {"networking.k8s.io", "ipaddresses"}, {"discovery.k8s.io", "endpointslices"},
      {"admissionregistration.k8s.io", "validatingwebhookconfigurations"},
      {"admissionregistration.k8s.io", "validatingadmissionpolicies"},
      {"admissionregistration.k8s.io", "mutatingadmissionpolicybindings"},
      {"rbac.authorization.k8s.io", "rolebindings"}, {"certificates.k8s.io", "certificatesigningrequests"},
      {"certificates.k8s.io", "clustertrustbundles"}, {"coordination.k8s.io", "leasecandidates"},
      {"scheduling.k8s.io", "priorityclasses"}, {"node.k8s.io", "runtimeclasses"},
      {"flowcontrol.apiserver.k8s.io", "flowschemas"}, {"flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations"},
      {"internal.apiserver.k8s.io", "storageversions"}, {"storagemigration.k8s.io", "storageversionmigrations"},
      {"storage.k8s.io", "storageclasses"}, {"storage.k8s.io", "volumeattachments"}, {"storage.k8s.io", "csidrivers"},
      {"storage.k8s.io", "csistoragecapacities"}, {"resource.k8s.io", "resourceclaims"},
      {"resource.k8s.io", "resourceslices"}, {"apiregistration.k8s.io", "apiservices"}};
  std::mt19937 rng(20261128);
  const std::vector<Json> shapes = {nullptr, 42, "s", Json::array({1}), Json::object(), true, -1.5};
  for (const auto& r : resources) {
    CAPTURE(r[1]);
    // kube's ipaddresses rows carry one cell more than their columns.
    const size_t ncols = ColumnsFor(r[0], r[1]).size() + (std::string_view(r[1]) == "ipaddresses" ? 1 : 0);
    for (const Json& seed : testing::SeedObjects()) {
      for (int i = 0; i < 200; ++i) {
        Json j = seed;
        // Replace a random top-level or second-level member with a random shape.
        if (j.is_object() && !j.empty()) {
          auto it = j.begin();
          std::advance(it, rng() % j.size());
          if (it->is_object() && !it->empty() && rng() % 2) {
            auto inner = it->begin();
            std::advance(inner, rng() % it->size());
            *inner = shapes[rng() % shapes.size()];
          } else {
            *it = shapes[rng() % shapes.size()];
          }
        }
        std::vector<Json> cells;
        CHECK_NOTHROW(cells = CellsFor(r[0], r[1], j, kNow));
        CHECK(cells.size() == ncols);
      }
    }
    for (const Json& shape : shapes) CHECK_NOTHROW((void)CellsFor(r[0], r[1], shape, kNow));
  }
}

}  // namespace kube::printers
