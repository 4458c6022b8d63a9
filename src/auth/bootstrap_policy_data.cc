// The bootstrap policy kube-apiserver creates at start, as data: transcribed from the golden
// files of kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata
// (cluster-roles.yaml, cluster-role-bindings.yaml, controller-roles.yaml,
// controller-role-bindings.yaml, namespace-roles.yaml, namespace-role-bindings.yaml), which are
// the exact objects kube's policy produces (without the feature-gated additions). Derived data,
// not upstream text; the format is read by bootstrap_policy.cc:
//
//   C <name>                       a ClusterRole
//   K <name>                       the controller ClusterRole system:controller:<name>, bound by
//                                  the ClusterRoleBinding of that name to the service account
//                                  kube-system/<name>
//   R <namespace> <name>           a Role
//   L <key>=<value>                a label of the role above (besides kubernetes.io/bootstrapping)
//   S <key>=<value>                a clusterRoleSelector (matchLabels) of its aggregationRule
//   r <groups>|<resources>|<verbs>[|<resourceNames>]   a rule (comma lists; "" is the core group)
//   u <nonResourceURLs>|<verbs>    a non-resource rule
//   E                              the events rule every controller has
//   B <name> <clusterRole>         a ClusterRoleBinding
//   b <namespace> <name> <role>    a RoleBinding (to a Role)
//   s User|Group <name>            a subject of the binding above
//   s ServiceAccount <namespace> <name>
#include "auth/bootstrap_policy.h"

namespace kube::auth {

const char* BootstrapPolicyText() {
  return R"(C admin
S rbac.authorization.k8s.io/aggregate-to-admin=true
C cluster-admin
r *|*|*
u *|*
C edit
L rbac.authorization.k8s.io/aggregate-to-admin=true
S rbac.authorization.k8s.io/aggregate-to-edit=true
C system:aggregate-to-admin
L rbac.authorization.k8s.io/aggregate-to-admin=true
r authorization.k8s.io|localsubjectaccessreviews|create
r rbac.authorization.k8s.io|rolebindings,roles|create,delete,deletecollection,get,list,patch,update,watch
C system:aggregate-to-edit
L rbac.authorization.k8s.io/aggregate-to-edit=true
r |pods/attach,pods/exec,pods/portforward,pods/proxy,secrets,services/proxy|get,list,watch
r |serviceaccounts|impersonate
r |pods,pods/attach,pods/exec,pods/portforward,pods/proxy|create,delete,deletecollection,patch,update
r |pods/eviction|create
r |configmaps,events,persistentvolumeclaims,replicationcontrollers,replicationcontrollers/scale,secrets,serviceaccounts,services,services/proxy|create,delete,deletecollection,patch,update
r |serviceaccounts/token|create
r apps|daemonsets,deployments,deployments/rollback,deployments/scale,replicasets,replicasets/scale,statefulsets,statefulsets/scale|create,delete,deletecollection,patch,update
r autoscaling|horizontalpodautoscalers|create,delete,deletecollection,patch,update
r batch|cronjobs,jobs|create,delete,deletecollection,patch,update
r extensions|daemonsets,deployments,deployments/rollback,deployments/scale,ingresses,networkpolicies,replicasets,replicasets/scale,replicationcontrollers/scale|create,delete,deletecollection,patch,update
r policy|poddisruptionbudgets|create,delete,deletecollection,patch,update
r networking.k8s.io|ingresses,networkpolicies|create,delete,deletecollection,patch,update
r coordination.k8s.io|leases|create,delete,deletecollection,get,list,patch,update,watch
C system:aggregate-to-view
L rbac.authorization.k8s.io/aggregate-to-view=true
r |configmaps,endpoints,persistentvolumeclaims,persistentvolumeclaims/status,pods,replicationcontrollers,replicationcontrollers/scale,serviceaccounts,services,services/status|get,list,watch
r |bindings,events,limitranges,namespaces/status,pods/log,pods/status,replicationcontrollers/status,resourcequotas,resourcequotas/status|get,list,watch
r |namespaces|get,list,watch
r discovery.k8s.io|endpointslices|get,list,watch
r apps|controllerrevisions,daemonsets,daemonsets/status,deployments,deployments/scale,deployments/status,replicasets,replicasets/scale,replicasets/status,statefulsets,statefulsets/scale,statefulsets/status|get,list,watch
r autoscaling|horizontalpodautoscalers,horizontalpodautoscalers/status|get,list,watch
r batch|cronjobs,cronjobs/status,jobs,jobs/status|get,list,watch
r extensions|daemonsets,daemonsets/status,deployments,deployments/scale,deployments/status,ingresses,ingresses/status,networkpolicies,replicasets,replicasets/scale,replicasets/status,replicationcontrollers/scale|get,list,watch
r policy|poddisruptionbudgets,poddisruptionbudgets/status|get,list,watch
r networking.k8s.io|ingresses,ingresses/status,networkpolicies|get,list,watch
C system:auth-delegator
r authentication.k8s.io|tokenreviews|create
r authorization.k8s.io|subjectaccessreviews|create
C system:basic-user
r authorization.k8s.io|selfsubjectaccessreviews,selfsubjectrulesreviews|create
r authentication.k8s.io|selfsubjectreviews|create
C system:certificates.k8s.io:certificatesigningrequests:nodeclient
r certificates.k8s.io|certificatesigningrequests/nodeclient|create
C system:certificates.k8s.io:certificatesigningrequests:selfnodeclient
r certificates.k8s.io|certificatesigningrequests/selfnodeclient|create
C system:certificates.k8s.io:kube-apiserver-client-approver
r certificates.k8s.io|signers|approve|kubernetes.io/kube-apiserver-client
C system:certificates.k8s.io:kube-apiserver-client-kubelet-approver
r certificates.k8s.io|signers|approve|kubernetes.io/kube-apiserver-client-kubelet
C system:certificates.k8s.io:kubelet-serving-approver
r certificates.k8s.io|signers|approve|kubernetes.io/kubelet-serving
C system:certificates.k8s.io:legacy-unknown-approver
r certificates.k8s.io|signers|approve|kubernetes.io/legacy-unknown
C system:discovery
u /api,/api/*,/apis,/apis/*,/healthz,/livez,/openapi,/openapi/*,/readyz,/version,/version/|get
C system:heapster
r |events,namespaces,nodes,pods|get,list,watch
r extensions|deployments|get,list,watch
C system:kube-aggregator
r |endpoints,services|get,list,watch
C system:kube-controller-manager
r ,events.k8s.io|events|create,patch,update
r coordination.k8s.io|leases|create
r coordination.k8s.io|leases|get,update|kube-controller-manager
r |secrets,serviceaccounts|create
r |secrets|delete
r |configmaps,namespaces,secrets,serviceaccounts|get
r |secrets,serviceaccounts|update
r authentication.k8s.io|tokenreviews|create
r authorization.k8s.io|subjectaccessreviews|create
r *|*|list,watch
r |serviceaccounts/token|create
C system:kube-dns
r |endpoints,services|list,watch
C system:kube-scheduler
r ,events.k8s.io|events|create,patch,update
r coordination.k8s.io|leases|create
r coordination.k8s.io|leases|get,update|kube-scheduler
r |nodes|get,list,watch
r |pods|delete,get,list,watch
r |bindings,pods/binding|create
r |pods/status|patch,update
r |replicationcontrollers,services|get,list,watch
r apps,extensions|replicasets|get,list,watch
r apps|statefulsets|get,list,watch
r policy|poddisruptionbudgets|get,list,watch
r |persistentvolumeclaims,persistentvolumes|get,list,watch
r authentication.k8s.io|tokenreviews|create
r authorization.k8s.io|subjectaccessreviews|create
r storage.k8s.io|csinodes|get,list,watch
r |namespaces|get,list,watch
r storage.k8s.io|csidrivers|get,list,watch
r storage.k8s.io|csistoragecapacities|get,list,watch
C system:kubelet-api-admin
r |nodes|get,list,watch
r |nodes|proxy
r |nodes/log,nodes/metrics,nodes/proxy,nodes/stats|*
C system:monitoring
u /healthz,/healthz/*,/livez,/livez/*,/metrics,/metrics/slis,/readyz,/readyz/*|get
C system:node
r authentication.k8s.io|tokenreviews|create
r authorization.k8s.io|localsubjectaccessreviews,subjectaccessreviews|create
r |services|get,list,watch
r |nodes|create,get,list,watch
r |nodes/status|patch,update
r |nodes|patch,update
r |events|create,patch,update
r |pods|get,list,watch
r |pods|create,delete
r |pods/status|patch,update
r |pods/eviction|create
r |configmaps,secrets|get,list,watch
r |persistentvolumeclaims,persistentvolumes|get
r |endpoints|get
r certificates.k8s.io|certificatesigningrequests|create,get,list,watch
r coordination.k8s.io|leases|create,delete,get,patch,update
r storage.k8s.io|volumeattachments|get
r |serviceaccounts/token|create
r |persistentvolumeclaims/status|get,patch,update
r storage.k8s.io|csidrivers|get,list,watch
r storage.k8s.io|csinodes|create,delete,get,patch,update
r node.k8s.io|runtimeclasses|get,list,watch
C system:node-bootstrapper
r certificates.k8s.io|certificatesigningrequests|create,get,list,watch
C system:node-problem-detector
r |nodes|get
r |nodes/status|patch
r ,events.k8s.io|events|create,patch,update
C system:node-proxier
r |endpoints,services|list,watch
r |nodes|get,list,watch
r ,events.k8s.io|events|create,patch,update
r discovery.k8s.io|endpointslices|list,watch
C system:persistent-volume-provisioner
r |persistentvolumes|create,delete,get,list,watch
r |persistentvolumeclaims|get,list,update,watch
r storage.k8s.io|storageclasses|get,list,watch
r |events|watch
r ,events.k8s.io|events|create,patch,update
C system:public-info-viewer
u /healthz,/livez,/readyz,/version,/version/|get
C system:service-account-issuer-discovery
u /.well-known/openid-configuration,/openid/v1/jwks|get
C system:volume-scheduler
r |persistentvolumes|get,list,patch,update,watch
r storage.k8s.io|storageclasses|get,list,watch
r |persistentvolumeclaims|get,list,patch,update,watch
C view
L rbac.authorization.k8s.io/aggregate-to-edit=true
S rbac.authorization.k8s.io/aggregate-to-view=true
K attachdetach-controller
r |persistentvolumeclaims,persistentvolumes|list,watch
r |nodes|get,list,watch
r |nodes/status|patch,update
r |pods|list,watch
E
r storage.k8s.io|volumeattachments|create,delete,get,list,watch
r storage.k8s.io|csidrivers|get,list,watch
r storage.k8s.io|csinodes|get,list,watch
K certificate-controller
r certificates.k8s.io|certificatesigningrequests|delete,get,list,watch
r certificates.k8s.io|certificatesigningrequests/approval,certificatesigningrequests/status|update
r certificates.k8s.io|signers|approve|kubernetes.io/kube-apiserver-client-kubelet
r certificates.k8s.io|signers|sign|kubernetes.io/kube-apiserver-client,kubernetes.io/kube-apiserver-client-kubelet,kubernetes.io/kubelet-serving,kubernetes.io/legacy-unknown
r authorization.k8s.io|subjectaccessreviews|create
E
K clusterrole-aggregation-controller
r rbac.authorization.k8s.io|clusterroles|escalate,get,list,patch,update,watch
K cronjob-controller
r batch|cronjobs|get,list,update,watch
r batch|jobs|create,delete,get,list,patch,update,watch
r batch|cronjobs/status|update
r batch|cronjobs/finalizers|update
r |pods|delete,list,watch
E
K daemon-set-controller
r apps,extensions|daemonsets|get,list,watch
r apps,extensions|daemonsets/status|update
r apps,extensions|daemonsets/finalizers|update
r |nodes|list,watch
r |pods|create,delete,list,patch,watch
r |pods/binding|create
r apps|controllerrevisions|create,delete,get,list,patch,update,watch
E
K deployment-controller
r apps,extensions|deployments|get,list,update,watch
r apps,extensions|deployments/status|update
r apps,extensions|deployments/finalizers|update
r apps,extensions|replicasets|create,delete,get,list,patch,update,watch
r |pods|get,list,update,watch
E
K device-taint-eviction-controller
r |pods|delete,get,list,watch
r |pods/status|patch,update
r resource.k8s.io|resourceclaims|get,list,watch
r resource.k8s.io|resourceslices|get,list,watch
r resource.k8s.io|deviceclasses|get,list,watch
E
K disruption-controller
r apps,extensions|deployments|get,list,watch
r apps,extensions|replicasets|get,list,watch
r |replicationcontrollers|get,list,watch
r policy|poddisruptionbudgets|get,list,watch
r apps|statefulsets|get,list,watch
r policy|poddisruptionbudgets/status|update
r |pods/status|patch,update
r *|*/scale|get
E
K endpoint-controller
r |pods,services|get,list,watch
r |endpoints|create,delete,get,list,update,watch
r |endpoints/restricted|create
E
K endpointslice-controller
r |nodes,pods,services|get,list,watch
r |services/finalizers|update
r discovery.k8s.io|endpointslices|create,delete,get,list,update,watch
E
K endpointslicemirroring-controller
r |endpoints,services|get,list,watch
r |services/finalizers|update
r |endpoints/finalizers|update
r discovery.k8s.io|endpointslices|create,delete,get,list,update,watch
E
K ephemeral-volume-controller
r |pods|get,list,watch
r |pods/finalizers|update
r |persistentvolumeclaims|create,get,list,watch
E
K expand-controller
r |persistentvolumes|get,list,patch,update,watch
r |persistentvolumeclaims/status|patch,update
r |persistentvolumeclaims|get,list,watch
E
K generic-garbage-collector
r *|*|delete,get,list,patch,update,watch
E
K horizontal-pod-autoscaler
r autoscaling|horizontalpodautoscalers|get,list,watch
r autoscaling|horizontalpodautoscalers/status|update
r *|*/scale|get,update
r |pods|list,watch
r metrics.k8s.io|pods|list,watch
r custom.metrics.k8s.io|*|get,list,watch
r external.metrics.k8s.io|*|get,list,watch
E
K job-controller
r batch|jobs|get,list,patch,update,watch
r batch|jobs/status|update
r batch|jobs/finalizers|update
r |pods|create,delete,list,patch,watch
E
K legacy-service-account-token-cleaner
r |configmaps|get|kube-apiserver-legacy-service-account-token-tracking
r |secrets|delete,patch
K namespace-controller
r |namespaces|delete,get,list,watch
r |namespaces/finalize,namespaces/status|update
r *|*|delete,deletecollection,get,list,watch
K node-controller
r |nodes|delete,get,list,patch,update,watch
r |nodes/status|patch,update
r |pods/status|patch,update
r |pods|delete,get,list,watch
E
K persistent-volume-binder
r |persistentvolumes|create,delete,get,list,update,watch
r |persistentvolumes/status|update
r |persistentvolumeclaims|get,list,update,watch
r |persistentvolumeclaims/status|update
r |pods|create,delete,get,list,watch
r storage.k8s.io|storageclasses|get,list,watch
r |nodes|list,watch
E
r |events|watch
K pod-garbage-collector
r |pods|delete,list,watch
r |nodes|get,list,watch
r |pods/status|patch
K pv-protection-controller
r |persistentvolumes|get,list,update,watch
E
K pvc-protection-controller
r |persistentvolumeclaims|get,list,update,watch
r |persistentvolumeclaims/status|update
r |pods|get,list,watch
E
K replicaset-controller
r apps,extensions|replicasets|get,list,update,watch
r apps,extensions|replicasets/status|update
r apps,extensions|replicasets/finalizers|update
r |pods|create,delete,list,patch,watch
E
K replication-controller
r |replicationcontrollers|get,list,update,watch
r |replicationcontrollers/status|update
r |replicationcontrollers/finalizers|update
r |pods|create,delete,list,patch,watch
E
K resource-claim-controller
r |pods|get,list,watch
r |pods/finalizers|update
r resource.k8s.io|resourceclaims|create,delete,get,list,watch
r resource.k8s.io|resourceclaims,resourceclaims/status|patch,update
r |pods/status|patch,update
E
r resource.k8s.io|resourceclaims/binding|patch,update
K resourcequota-controller
r *|*|list,watch
r |resourcequotas/status|update
E
K root-ca-cert-publisher
r |configmaps|create,update
E
K route-controller
r |nodes|list,watch
r |nodes/status|patch
E
K selinux-warning-controller
E
r |persistentvolumes|get,list,watch
r |persistentvolumeclaims|get,list,watch
r |pods|get,list,watch
r storage.k8s.io|csidrivers|get,list,watch
K service-account-controller
r |serviceaccounts|create
E
K service-cidrs-controller
r networking.k8s.io|servicecidrs|get,list,patch,update,watch
r networking.k8s.io|servicecidrs/finalizers|patch,update
r networking.k8s.io|servicecidrs/status|patch,update
r networking.k8s.io|ipaddresses|get,list,watch
E
K service-controller
r |services|get,list,watch
r |services/status|patch,update
r |nodes|list,watch
E
K statefulset-controller
r |pods|list,watch
r apps|statefulsets|get,list,watch
r apps|statefulsets/status|update
r apps|statefulsets/finalizers|update
r |pods|create,delete,get,patch,update
r apps|controllerrevisions|create,delete,get,list,patch,update,watch
r |persistentvolumeclaims|create,get,list,watch
r |persistentvolumeclaims|delete,update
r |pods/finalizers|update
E
K ttl-after-finished-controller
r batch|jobs|delete,get,list,watch
E
K ttl-controller
r |nodes|list,patch,update,watch
E
K validatingadmissionpolicy-status-controller
r admissionregistration.k8s.io|validatingadmissionpolicies|get,list,watch
r admissionregistration.k8s.io|validatingadmissionpolicies/status|get,patch,update
E
K volumeattributesclass-protection-controller
r |persistentvolumeclaims|get,list,watch
r |persistentvolumes|get,list,watch
r storage.k8s.io|volumeattributesclasses|get,list,update,watch
E
R kube-public system:controller:bootstrap-signer
r |configmaps|get,list,watch
r |configmaps|update|cluster-info
E
R kube-system extension-apiserver-authentication-reader
r |configmaps|get,list,watch|extension-apiserver-authentication
R kube-system system::leader-locking-kube-controller-manager
r coordination.k8s.io|leases|create,get,list,update,watch
r coordination.k8s.io|leasecandidates|create,get,list,update,watch
R kube-system system::leader-locking-kube-scheduler
r coordination.k8s.io|leases|create,get,list,update,watch
r coordination.k8s.io|leasecandidates|create,get,list,update,watch
R kube-system system:controller:bootstrap-signer
r |secrets|get,list,watch
R kube-system system:controller:cloud-provider
r |configmaps|create,get,list,watch
R kube-system system:controller:token-cleaner
r |secrets|delete,get,list,watch
E
B cluster-admin cluster-admin
s Group system:masters
B system:basic-user system:basic-user
s Group system:authenticated
B system:discovery system:discovery
s Group system:authenticated
B system:kube-controller-manager system:kube-controller-manager
s User system:kube-controller-manager
B system:kube-dns system:kube-dns
s ServiceAccount kube-system kube-dns
B system:kube-scheduler system:kube-scheduler
s User system:kube-scheduler
B system:monitoring system:monitoring
s Group system:monitoring
B system:node system:node
B system:node-proxier system:node-proxier
s User system:kube-proxy
B system:public-info-viewer system:public-info-viewer
s Group system:authenticated
s Group system:unauthenticated
B system:service-account-issuer-discovery system:service-account-issuer-discovery
s Group system:serviceaccounts
B system:volume-scheduler system:volume-scheduler
s User system:kube-scheduler
b kube-public system:controller:bootstrap-signer system:controller:bootstrap-signer
s ServiceAccount kube-system bootstrap-signer
b kube-system system::extension-apiserver-authentication-reader extension-apiserver-authentication-reader
s User system:kube-controller-manager
s User system:kube-scheduler
b kube-system system::leader-locking-kube-controller-manager system::leader-locking-kube-controller-manager
s User system:kube-controller-manager
s ServiceAccount kube-system kube-controller-manager
s ServiceAccount kube-system leader-election-controller
b kube-system system::leader-locking-kube-scheduler system::leader-locking-kube-scheduler
s User system:kube-scheduler
s ServiceAccount kube-system kube-scheduler
b kube-system system:controller:bootstrap-signer system:controller:bootstrap-signer
s ServiceAccount kube-system bootstrap-signer
b kube-system system:controller:cloud-provider system:controller:cloud-provider
s ServiceAccount kube-system cloud-provider
b kube-system system:controller:token-cleaner system:controller:token-cleaner
s ServiceAccount kube-system token-cleaner
)";
}

}  // namespace kube::auth
