#!/usr/bin/env python3
"""Generates src/protobuf/data/proto_catalogue.json: the protobuf field table of every built-in kind.

Origin: the inputs are the Kubernetes 1.36 `generated.proto` files of k8s.io/api and
k8s.io/apimachinery (written by go-to-protobuf; Kubernetes project, The Kubernetes Authors,
Apache License 2.0; see NOTICE). They are generator INPUTS only: they are NOT part of this
repository and must never be copied into it. Only the derived table below is committed; every
comment and all prose are dropped. JSON names, inlining and required-ness are cross-checked
against the committed src/catalogue/data/catalogue.json (itself derived from the OpenAPI document).

Usage (from the repository root; standard library only):
    tools/gen_proto_catalogue.py [PROTO_ROOT] [-o OUTPUT] [--check] [--go-tags TSV [--print-go-tags]]
PROTO_ROOT defaults to ../shared/kubernetes-api/v1.36/proto (the directory holding k8s.io/),
OUTPUT to src/protobuf/data/proto_catalogue.json. --check writes nothing and exits 1 when the
committed file differs from what would be generated.

Output format (one JSON object, one message per line):
  "format": 1, "source": {...}
  "messages": {fully qualified proto message name ("k8s.io.api.core.v1.ConfigMap"):
      [[number, name, type, flags, json?], ...] sorted by field number, where
      type  = scalar type (string, bytes, bool, int32, int64, uint32, uint64, sint32, sint64,
              fixed32, fixed64, sfixed32, sfixed64, double, float) or a fully qualified message
              name; for maps "map:<keytype>:<valuetype>"
      flags = bit set: 1 repeated, 2 required in the OpenAPI schema (kept even when zero/empty),
              4 inline (Go embedded struct: its fields appear in the parent JSON object),
              8 keep an empty string (a Go *string, or a non-pointer string without
                 `omitempty`: Go's JSON shows ""),
              16 drop when zero/false (a Go non-pointer `omitempty` int/bool: gogo always
                 writes it, Go's JSON leaves it out); see GO_TAGS
      json  = the JSON name, only present when it differs from `name`]
  "wrappers": [message names that are Go named slices (`message X { repeated T items = 1; }`,
              JSON: a plain array)]
"""

import argparse
import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_INPUT = os.path.join(REPO, "..", "shared", "kubernetes-api", "v1.36", "proto")
DEFAULT_OUTPUT = os.path.join(REPO, "src", "protobuf", "data", "proto_catalogue.json")
CATALOGUE = os.path.join(REPO, "src", "catalogue", "data", "catalogue.json")

SOURCE = {
    "project": "Kubernetes (https://kubernetes.io), The Kubernetes Authors",
    "license": "Apache-2.0",
    "document": "Kubernetes 1.36 generated.proto files of k8s.io/api and k8s.io/apimachinery",
}

SCALARS = {"string", "bytes", "bool", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
           "fixed32", "fixed64", "sfixed32", "sfixed64", "double", "float"}

# Zero values (see protobuf.h). proto2 `optional` cannot tell a Go pointer from a non-pointer, and
# gogo-protobuf writes every non-pointer field, so which zero values Go's JSON shows comes from the
# Go struct tags:
#   non-pointer with `omitempty`     -> "" / 0 / false omitted   (ints/bools: flag 16)
#   non-pointer without `omitempty`  -> "" / 0 / false kept      (strings: flag 8)
#   pointer (*string, *int32, *bool) -> kept whenever on the wire (strings: flag 8)
# GO_TAGS below was derived from the Go struct tags (json name, pointer?, omitempty?) of every
# protobuf-tagged field in k8s.io/api and k8s.io/apimachinery v0.36 (release-1.36; The Kubernetes
# Authors, Apache-2.0; see NOTICE). Only field names are kept, never Go source. Per proto message:
#   (keep-empty string fields, omit-when-zero int/bool fields), each a space-separated list of
#   proto field names. Messages absent here (or when no Go tags exist for them) fall back to:
#   "" dropped unless required in the OpenAPI schema, 0/false kept.
# Regenerate with `--go-tags FILE --print-go-tags` from a TSV of Go struct fields
# (message, number, proto name, json name, pointer 0/1, omitempty 0/1[, Go type]).
GO_TAGS = {
    "k8s.io.api.admission.v1.AdmissionRequest": ("operation uid", ""),
    "k8s.io.api.admission.v1.AdmissionResponse": ("patchType uid", ""),
    "k8s.io.api.admission.v1beta1.AdmissionRequest": ("operation uid", ""),
    "k8s.io.api.admission.v1beta1.AdmissionResponse": ("patchType uid", ""),
    "k8s.io.api.admissionregistration.v1.AuditAnnotation": ("key valueExpression", ""),
    "k8s.io.api.admissionregistration.v1.ExpressionWarning": ("fieldRef warning", ""),
    "k8s.io.api.admissionregistration.v1.MatchCondition": ("expression name", ""),
    "k8s.io.api.admissionregistration.v1.MatchResources": ("matchPolicy", ""),
    "k8s.io.api.admissionregistration.v1.MutatingAdmissionPolicySpec": ("failurePolicy", ""),
    "k8s.io.api.admissionregistration.v1.MutatingWebhook": ("failurePolicy matchPolicy name reinvocationPolicy sideEffects", ""),
    "k8s.io.api.admissionregistration.v1.Mutation": ("patchType", ""),
    "k8s.io.api.admissionregistration.v1.ParamRef": ("parameterNotFoundAction", ""),
    "k8s.io.api.admissionregistration.v1.Rule": ("scope", ""),
    "k8s.io.api.admissionregistration.v1.ServiceReference": ("name namespace path", ""),
    "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicySpec": ("failurePolicy", ""),
    "k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus": ("", "observedGeneration"),
    "k8s.io.api.admissionregistration.v1.ValidatingWebhook": ("failurePolicy matchPolicy name sideEffects", ""),
    "k8s.io.api.admissionregistration.v1.Validation": ("Expression reason", ""),
    "k8s.io.api.admissionregistration.v1.Variable": ("Expression Name", ""),
    "k8s.io.api.admissionregistration.v1.WebhookClientConfig": ("url", ""),
    "k8s.io.api.admissionregistration.v1alpha1.AuditAnnotation": ("key valueExpression", ""),
    "k8s.io.api.admissionregistration.v1alpha1.ExpressionWarning": ("fieldRef warning", ""),
    "k8s.io.api.admissionregistration.v1alpha1.MatchCondition": ("expression name", ""),
    "k8s.io.api.admissionregistration.v1alpha1.MatchResources": ("matchPolicy", ""),
    "k8s.io.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec": ("failurePolicy", ""),
    "k8s.io.api.admissionregistration.v1alpha1.Mutation": ("patchType", ""),
    "k8s.io.api.admissionregistration.v1alpha1.ParamRef": ("parameterNotFoundAction", ""),
    "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicySpec": ("failurePolicy", ""),
    "k8s.io.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyStatus": ("", "observedGeneration"),
    "k8s.io.api.admissionregistration.v1alpha1.Validation": ("Expression reason", ""),
    "k8s.io.api.admissionregistration.v1alpha1.Variable": ("Expression Name", ""),
    "k8s.io.api.admissionregistration.v1beta1.AuditAnnotation": ("key valueExpression", ""),
    "k8s.io.api.admissionregistration.v1beta1.ExpressionWarning": ("fieldRef warning", ""),
    "k8s.io.api.admissionregistration.v1beta1.MatchCondition": ("expression name", ""),
    "k8s.io.api.admissionregistration.v1beta1.MatchResources": ("matchPolicy", ""),
    "k8s.io.api.admissionregistration.v1beta1.MutatingAdmissionPolicySpec": ("failurePolicy", ""),
    "k8s.io.api.admissionregistration.v1beta1.MutatingWebhook": ("failurePolicy matchPolicy name reinvocationPolicy sideEffects", ""),
    "k8s.io.api.admissionregistration.v1beta1.Mutation": ("patchType", ""),
    "k8s.io.api.admissionregistration.v1beta1.ParamRef": ("parameterNotFoundAction", ""),
    "k8s.io.api.admissionregistration.v1beta1.ServiceReference": ("name namespace path", ""),
    "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicySpec": ("failurePolicy", ""),
    "k8s.io.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus": ("", "observedGeneration"),
    "k8s.io.api.admissionregistration.v1beta1.ValidatingWebhook": ("failurePolicy matchPolicy name sideEffects", ""),
    "k8s.io.api.admissionregistration.v1beta1.Validation": ("Expression reason", ""),
    "k8s.io.api.admissionregistration.v1beta1.Variable": ("Expression Name", ""),
    "k8s.io.api.admissionregistration.v1beta1.WebhookClientConfig": ("url", ""),
    "k8s.io.api.apidiscovery.v2.APIResourceDiscovery": ("resource scope singularResource", ""),
    "k8s.io.api.apidiscovery.v2.APISubresourceDiscovery": ("subresource", ""),
    "k8s.io.api.apidiscovery.v2.APIVersionDiscovery": ("version", ""),
    "k8s.io.api.apidiscovery.v2beta1.APIResourceDiscovery": ("resource scope singularResource", ""),
    "k8s.io.api.apidiscovery.v2beta1.APISubresourceDiscovery": ("subresource", ""),
    "k8s.io.api.apidiscovery.v2beta1.APIVersionDiscovery": ("version", ""),
    "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionCondition": ("reason status type", "observedGeneration"),
    "k8s.io.api.apiserverinternal.v1alpha1.StorageVersionStatus": ("commonEncodingVersion", ""),
    "k8s.io.api.apps.v1.DaemonSetCondition": ("status type", ""),
    "k8s.io.api.apps.v1.DaemonSetSpec": ("", "minReadySeconds"),
    "k8s.io.api.apps.v1.DaemonSetStatus": ("", "numberAvailable numberUnavailable observedGeneration updatedNumberScheduled"),
    "k8s.io.api.apps.v1.DeploymentCondition": ("status type", ""),
    "k8s.io.api.apps.v1.DeploymentSpec": ("", "minReadySeconds paused"),
    "k8s.io.api.apps.v1.DeploymentStatus": ("", "availableReplicas observedGeneration readyReplicas replicas unavailableReplicas updatedReplicas"),
    "k8s.io.api.apps.v1.ReplicaSetCondition": ("status type", ""),
    "k8s.io.api.apps.v1.ReplicaSetSpec": ("", "minReadySeconds"),
    "k8s.io.api.apps.v1.ReplicaSetStatus": ("", "availableReplicas fullyLabeledReplicas observedGeneration readyReplicas"),
    "k8s.io.api.apps.v1.StatefulSetCondition": ("status type", ""),
    "k8s.io.api.apps.v1.StatefulSetSpec": ("serviceName", "minReadySeconds"),
    "k8s.io.api.apps.v1.StatefulSetStatus": ("", "currentReplicas observedGeneration readyReplicas updatedReplicas"),
    "k8s.io.api.apps.v1beta1.DeploymentCondition": ("status type", ""),
    "k8s.io.api.apps.v1beta1.DeploymentRollback": ("name", ""),
    "k8s.io.api.apps.v1beta1.DeploymentSpec": ("", "minReadySeconds paused"),
    "k8s.io.api.apps.v1beta1.DeploymentStatus": ("", "availableReplicas observedGeneration readyReplicas replicas unavailableReplicas updatedReplicas"),
    "k8s.io.api.apps.v1beta1.RollbackConfig": ("", "revision"),
    "k8s.io.api.apps.v1beta1.ScaleSpec": ("", "replicas"),
    "k8s.io.api.apps.v1beta1.StatefulSetCondition": ("status type", ""),
    "k8s.io.api.apps.v1beta1.StatefulSetSpec": ("serviceName", "minReadySeconds"),
    "k8s.io.api.apps.v1beta1.StatefulSetStatus": ("", "currentReplicas readyReplicas updatedReplicas"),
    "k8s.io.api.apps.v1beta2.DaemonSetCondition": ("status type", ""),
    "k8s.io.api.apps.v1beta2.DaemonSetSpec": ("", "minReadySeconds"),
    "k8s.io.api.apps.v1beta2.DaemonSetStatus": ("", "numberAvailable numberUnavailable observedGeneration updatedNumberScheduled"),
    "k8s.io.api.apps.v1beta2.DeploymentCondition": ("status type", ""),
    "k8s.io.api.apps.v1beta2.DeploymentSpec": ("", "minReadySeconds paused"),
    "k8s.io.api.apps.v1beta2.DeploymentStatus": ("", "availableReplicas observedGeneration readyReplicas replicas unavailableReplicas updatedReplicas"),
    "k8s.io.api.apps.v1beta2.ReplicaSetCondition": ("status type", ""),
    "k8s.io.api.apps.v1beta2.ReplicaSetSpec": ("", "minReadySeconds"),
    "k8s.io.api.apps.v1beta2.ReplicaSetStatus": ("", "availableReplicas fullyLabeledReplicas observedGeneration readyReplicas"),
    "k8s.io.api.apps.v1beta2.ScaleSpec": ("", "replicas"),
    "k8s.io.api.apps.v1beta2.StatefulSetCondition": ("status type", ""),
    "k8s.io.api.apps.v1beta2.StatefulSetSpec": ("serviceName", "minReadySeconds"),
    "k8s.io.api.apps.v1beta2.StatefulSetStatus": ("", "currentReplicas observedGeneration readyReplicas updatedReplicas"),
    "k8s.io.api.authentication.v1.TokenRequestStatus": ("token", ""),
    "k8s.io.api.authentication.v1.TokenReviewStatus": ("", "authenticated"),
    "k8s.io.api.authentication.v1beta1.TokenReviewStatus": ("", "authenticated"),
    "k8s.io.api.authorization.v1.SubjectAccessReviewStatus": ("", "denied"),
    "k8s.io.api.authorization.v1beta1.SubjectAccessReviewStatus": ("", "denied"),
    "k8s.io.api.autoscaling.v1.ContainerResourceMetricSource": ("container name", ""),
    "k8s.io.api.autoscaling.v1.ContainerResourceMetricStatus": ("container name", ""),
    "k8s.io.api.autoscaling.v1.CrossVersionObjectReference": ("kind name", ""),
    "k8s.io.api.autoscaling.v1.ExternalMetricSource": ("metricName", ""),
    "k8s.io.api.autoscaling.v1.ExternalMetricStatus": ("metricName", ""),
    "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerCondition": ("status type", ""),
    "k8s.io.api.autoscaling.v1.MetricSpec": ("type", ""),
    "k8s.io.api.autoscaling.v1.MetricStatus": ("type", ""),
    "k8s.io.api.autoscaling.v1.ObjectMetricSource": ("metricName", ""),
    "k8s.io.api.autoscaling.v1.ObjectMetricStatus": ("metricName", ""),
    "k8s.io.api.autoscaling.v1.PodsMetricSource": ("metricName", ""),
    "k8s.io.api.autoscaling.v1.PodsMetricStatus": ("metricName", ""),
    "k8s.io.api.autoscaling.v1.ResourceMetricSource": ("name", ""),
    "k8s.io.api.autoscaling.v1.ResourceMetricStatus": ("name", ""),
    "k8s.io.api.autoscaling.v1.ScaleSpec": ("", "replicas"),
    "k8s.io.api.autoscaling.v2.ContainerResourceMetricSource": ("container name", ""),
    "k8s.io.api.autoscaling.v2.ContainerResourceMetricStatus": ("container name", ""),
    "k8s.io.api.autoscaling.v2.CrossVersionObjectReference": ("kind name", ""),
    "k8s.io.api.autoscaling.v2.HPAScalingPolicy": ("type", ""),
    "k8s.io.api.autoscaling.v2.HPAScalingRules": ("selectPolicy", ""),
    "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerCondition": ("status type", ""),
    "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerStatus": ("", "currentReplicas"),
    "k8s.io.api.autoscaling.v2.MetricIdentifier": ("name", ""),
    "k8s.io.api.autoscaling.v2.MetricSpec": ("type", ""),
    "k8s.io.api.autoscaling.v2.MetricStatus": ("type", ""),
    "k8s.io.api.autoscaling.v2.MetricTarget": ("type", ""),
    "k8s.io.api.autoscaling.v2.ResourceMetricSource": ("name", ""),
    "k8s.io.api.autoscaling.v2.ResourceMetricStatus": ("name", ""),
    "k8s.io.api.batch.v1.CronJobSpec": ("schedule timeZone", ""),
    "k8s.io.api.batch.v1.JobCondition": ("status type", ""),
    "k8s.io.api.batch.v1.JobSpec": ("completionMode managedBy podReplacementPolicy", ""),
    "k8s.io.api.batch.v1.JobStatus": ("failedIndexes", "active failed succeeded"),
    "k8s.io.api.batch.v1.PodFailurePolicyOnExitCodesRequirement": ("containerName operator", ""),
    "k8s.io.api.batch.v1.PodFailurePolicyOnPodConditionsPattern": ("status type", ""),
    "k8s.io.api.batch.v1.PodFailurePolicyRule": ("action", ""),
    "k8s.io.api.batch.v1.SuccessPolicyRule": ("succeededIndexes", ""),
    "k8s.io.api.batch.v1beta1.CronJobSpec": ("schedule timeZone", ""),
    "k8s.io.api.certificates.v1.CertificateSigningRequestCondition": ("status type", ""),
    "k8s.io.api.certificates.v1.CertificateSigningRequestSpec": ("signerName", ""),
    "k8s.io.api.certificates.v1alpha1.ClusterTrustBundleSpec": ("trustBundle", ""),
    "k8s.io.api.certificates.v1beta1.CertificateSigningRequestCondition": ("status type", ""),
    "k8s.io.api.certificates.v1beta1.CertificateSigningRequestSpec": ("signerName", ""),
    "k8s.io.api.certificates.v1beta1.ClusterTrustBundleSpec": ("trustBundle", ""),
    "k8s.io.api.certificates.v1beta1.PodCertificateRequestSpec": ("nodeName nodeUID podName podUID serviceAccountName serviceAccountUID signerName", ""),
    "k8s.io.api.coordination.v1.LeaseSpec": ("holderIdentity preferredHolder strategy", ""),
    "k8s.io.api.coordination.v1alpha2.LeaseCandidateSpec": ("binaryVersion leaseName", ""),
    "k8s.io.api.coordination.v1beta1.LeaseCandidateSpec": ("binaryVersion leaseName", ""),
    "k8s.io.api.coordination.v1beta1.LeaseSpec": ("holderIdentity preferredHolder strategy", ""),
    "k8s.io.api.core.v1.AWSElasticBlockStoreVolumeSource": ("volumeID", "partition readOnly"),
    "k8s.io.api.core.v1.AppArmorProfile": ("localhostProfile type", ""),
    "k8s.io.api.core.v1.AttachedVolume": ("devicePath name", ""),
    "k8s.io.api.core.v1.AzureDiskVolumeSource": ("cachingMode diskName diskURI fsType kind", ""),
    "k8s.io.api.core.v1.AzureFilePersistentVolumeSource": ("secretName secretNamespace shareName", "readOnly"),
    "k8s.io.api.core.v1.AzureFileVolumeSource": ("secretName shareName", "readOnly"),
    "k8s.io.api.core.v1.CSIPersistentVolumeSource": ("driver volumeHandle", "readOnly"),
    "k8s.io.api.core.v1.CSIVolumeSource": ("driver fsType", ""),
    "k8s.io.api.core.v1.CephFSPersistentVolumeSource": ("", "readOnly"),
    "k8s.io.api.core.v1.CephFSVolumeSource": ("", "readOnly"),
    "k8s.io.api.core.v1.CinderPersistentVolumeSource": ("volumeID", "readOnly"),
    "k8s.io.api.core.v1.CinderVolumeSource": ("volumeID", "readOnly"),
    "k8s.io.api.core.v1.ClusterTrustBundleProjection": ("name path signerName", ""),
    "k8s.io.api.core.v1.ComponentCondition": ("status type", ""),
    "k8s.io.api.core.v1.ConfigMapKeySelector": ("key", ""),
    "k8s.io.api.core.v1.ConfigMapNodeConfigSource": ("kubeletConfigKey name namespace", ""),
    "k8s.io.api.core.v1.Container": ("name restartPolicy", "stdin stdinOnce tty"),
    "k8s.io.api.core.v1.ContainerExtendedResourceRequest": ("containerName requestName resourceName", ""),
    "k8s.io.api.core.v1.ContainerImage": ("", "sizeBytes"),
    "k8s.io.api.core.v1.ContainerPort": ("", "hostPort"),
    "k8s.io.api.core.v1.ContainerResizePolicy": ("resourceName restartPolicy", ""),
    "k8s.io.api.core.v1.ContainerStateTerminated": ("", "signal"),
    "k8s.io.api.core.v1.ContainerStatus": ("image imageID name stopSignal", ""),
    "k8s.io.api.core.v1.DownwardAPIVolumeFile": ("path", ""),
    "k8s.io.api.core.v1.EndpointAddress": ("ip nodeName", ""),
    "k8s.io.api.core.v1.EndpointPort": ("appProtocol", ""),
    "k8s.io.api.core.v1.EnvVar": ("name", ""),
    "k8s.io.api.core.v1.EphemeralContainerCommon": ("name restartPolicy", "stdin stdinOnce tty"),
    "k8s.io.api.core.v1.Event": ("reportingComponent reportingInstance", "count"),
    "k8s.io.api.core.v1.EventSeries": ("", "count"),
    "k8s.io.api.core.v1.FCVolumeSource": ("", "readOnly"),
    "k8s.io.api.core.v1.FileKeySelector": ("key path volumeName", ""),
    "k8s.io.api.core.v1.FlexPersistentVolumeSource": ("driver", "readOnly"),
    "k8s.io.api.core.v1.FlexVolumeSource": ("driver", "readOnly"),
    "k8s.io.api.core.v1.GCEPersistentDiskVolumeSource": ("pdName", "partition readOnly"),
    "k8s.io.api.core.v1.GRPCAction": ("service", ""),
    "k8s.io.api.core.v1.GitRepoVolumeSource": ("repository", ""),
    "k8s.io.api.core.v1.GlusterfsPersistentVolumeSource": ("endpoints endpointsNamespace path", "readOnly"),
    "k8s.io.api.core.v1.GlusterfsVolumeSource": ("endpoints path", "readOnly"),
    "k8s.io.api.core.v1.HTTPHeader": ("name value", ""),
    "k8s.io.api.core.v1.HostAlias": ("ip", ""),
    "k8s.io.api.core.v1.HostIP": ("ip", ""),
    "k8s.io.api.core.v1.HostPathVolumeSource": ("path type", ""),
    "k8s.io.api.core.v1.ISCSIPersistentVolumeSource": ("initiatorName iqn targetPortal", "chapAuthDiscovery chapAuthSession readOnly"),
    "k8s.io.api.core.v1.ISCSIVolumeSource": ("initiatorName iqn targetPortal", "chapAuthDiscovery chapAuthSession readOnly"),
    "k8s.io.api.core.v1.KeyToPath": ("key path", ""),
    "k8s.io.api.core.v1.Lifecycle": ("stopSignal", ""),
    "k8s.io.api.core.v1.LimitRangeItem": ("type", ""),
    "k8s.io.api.core.v1.LoadBalancerIngress": ("ipMode", ""),
    "k8s.io.api.core.v1.LocalVolumeSource": ("fsType path", ""),
    "k8s.io.api.core.v1.ModifyVolumeStatus": ("status", ""),
    "k8s.io.api.core.v1.NFSVolumeSource": ("path server", "readOnly"),
    "k8s.io.api.core.v1.NamespaceCondition": ("status type", ""),
    "k8s.io.api.core.v1.NodeAddress": ("address type", ""),
    "k8s.io.api.core.v1.NodeAllocatableResourceClaimStatus": ("resourceClaimName", ""),
    "k8s.io.api.core.v1.NodeCondition": ("status type", ""),
    "k8s.io.api.core.v1.NodeRuntimeHandler": ("name", ""),
    "k8s.io.api.core.v1.NodeSelectorRequirement": ("key operator", ""),
    "k8s.io.api.core.v1.NodeSpec": ("", "unschedulable"),
    "k8s.io.api.core.v1.NodeSystemInfo": ("architecture bootID containerRuntimeVersion kernelVersion kubeProxyVersion kubeletVersion machineID operatingSystem osImage systemUUID", ""),
    "k8s.io.api.core.v1.ObjectFieldSelector": ("fieldPath", ""),
    "k8s.io.api.core.v1.PersistentVolumeClaimCondition": ("status type", ""),
    "k8s.io.api.core.v1.PersistentVolumeClaimSpec": ("storageClassName volumeAttributesClassName volumeMode", ""),
    "k8s.io.api.core.v1.PersistentVolumeClaimStatus": ("currentVolumeAttributesClassName", ""),
    "k8s.io.api.core.v1.PersistentVolumeClaimVolumeSource": ("claimName", "readOnly"),
    "k8s.io.api.core.v1.PersistentVolumeSpec": ("volumeAttributesClassName volumeMode", ""),
    "k8s.io.api.core.v1.PhotonPersistentDiskVolumeSource": ("pdID", ""),
    "k8s.io.api.core.v1.PodAffinityTerm": ("topologyKey", ""),
    "k8s.io.api.core.v1.PodAttachOptions": ("", "stderr stdin stdout tty"),
    "k8s.io.api.core.v1.PodCondition": ("status type", "observedGeneration"),
    "k8s.io.api.core.v1.PodDNSConfigOption": ("value", ""),
    "k8s.io.api.core.v1.PodExecOptions": ("", "stderr stdin stdout tty"),
    "k8s.io.api.core.v1.PodExtendedResourceClaimStatus": ("resourceClaimName", ""),
    "k8s.io.api.core.v1.PodIP": ("ip", ""),
    "k8s.io.api.core.v1.PodLogOptions": ("stream", "follow insecureSkipTLSVerifyBackend previous timestamps"),
    "k8s.io.api.core.v1.PodOS": ("name", ""),
    "k8s.io.api.core.v1.PodReadinessGate": ("conditionType", ""),
    "k8s.io.api.core.v1.PodResourceClaim": ("name resourceClaimName resourceClaimTemplateName", ""),
    "k8s.io.api.core.v1.PodResourceClaimStatus": ("name resourceClaimName", ""),
    "k8s.io.api.core.v1.PodSchedulingGate": ("name", ""),
    "k8s.io.api.core.v1.PodSchedulingGroup": ("podGroupName", ""),
    "k8s.io.api.core.v1.PodSecurityContext": ("fsGroupChangePolicy seLinuxChangePolicy supplementalGroupsPolicy", ""),
    "k8s.io.api.core.v1.PodSpec": ("hostnameOverride preemptionPolicy runtimeClassName", "hostIPC hostNetwork hostPID"),
    "k8s.io.api.core.v1.PodStatus": ("", "observedGeneration"),
    "k8s.io.api.core.v1.PortStatus": ("error protocol", ""),
    "k8s.io.api.core.v1.PortworxVolumeSource": ("volumeID", "readOnly"),
    "k8s.io.api.core.v1.Preconditions": ("uid", ""),
    "k8s.io.api.core.v1.Probe": ("", "failureThreshold initialDelaySeconds periodSeconds successThreshold timeoutSeconds"),
    "k8s.io.api.core.v1.QuobyteVolumeSource": ("registry volume", "readOnly"),
    "k8s.io.api.core.v1.RBDPersistentVolumeSource": ("image", "readOnly"),
    "k8s.io.api.core.v1.RBDVolumeSource": ("image", "readOnly"),
    "k8s.io.api.core.v1.RangeAllocation": ("range", ""),
    "k8s.io.api.core.v1.ReplicationControllerCondition": ("status type", ""),
    "k8s.io.api.core.v1.ReplicationControllerSpec": ("", "minReadySeconds"),
    "k8s.io.api.core.v1.ReplicationControllerStatus": ("", "availableReplicas fullyLabeledReplicas observedGeneration readyReplicas"),
    "k8s.io.api.core.v1.ResourceClaim": ("name", ""),
    "k8s.io.api.core.v1.ResourceFieldSelector": ("resource", ""),
    "k8s.io.api.core.v1.ResourceHealth": ("message resourceID", ""),
    "k8s.io.api.core.v1.ResourceStatus": ("name", ""),
    "k8s.io.api.core.v1.ScaleIOPersistentVolumeSource": ("gateway system", "readOnly sslEnabled"),
    "k8s.io.api.core.v1.ScaleIOVolumeSource": ("gateway system", "readOnly sslEnabled"),
    "k8s.io.api.core.v1.ScopedResourceSelectorRequirement": ("operator scopeName", ""),
    "k8s.io.api.core.v1.SeccompProfile": ("localhostProfile type", ""),
    "k8s.io.api.core.v1.SecretKeySelector": ("key", ""),
    "k8s.io.api.core.v1.SecurityContext": ("procMount", ""),
    "k8s.io.api.core.v1.ServiceAccountTokenProjection": ("path", ""),
    "k8s.io.api.core.v1.ServicePort": ("appProtocol", "nodePort"),
    "k8s.io.api.core.v1.ServiceSpec": ("internalTrafficPolicy ipFamilyPolicy loadBalancerClass trafficDistribution", "healthCheckNodePort publishNotReadyAddresses"),
    "k8s.io.api.core.v1.StorageOSPersistentVolumeSource": ("", "readOnly"),
    "k8s.io.api.core.v1.StorageOSVolumeSource": ("", "readOnly"),
    "k8s.io.api.core.v1.Sysctl": ("name value", ""),
    "k8s.io.api.core.v1.Taint": ("effect key", ""),
    "k8s.io.api.core.v1.TopologySelectorLabelRequirement": ("key", ""),
    "k8s.io.api.core.v1.TopologySpreadConstraint": ("nodeAffinityPolicy nodeTaintsPolicy topologyKey whenUnsatisfiable", ""),
    "k8s.io.api.core.v1.TypedLocalObjectReference": ("apiGroup kind name", ""),
    "k8s.io.api.core.v1.TypedObjectReference": ("apiGroup kind name namespace", ""),
    "k8s.io.api.core.v1.Volume": ("name", ""),
    "k8s.io.api.core.v1.VolumeDevice": ("devicePath name", ""),
    "k8s.io.api.core.v1.VolumeMount": ("mountPath mountPropagation name recursiveReadOnly", "readOnly"),
    "k8s.io.api.core.v1.VolumeMountStatus": ("mountPath name recursiveReadOnly", "readOnly"),
    "k8s.io.api.core.v1.VsphereVirtualDiskVolumeSource": ("volumePath", ""),
    "k8s.io.api.core.v1.WindowsSecurityContextOptions": ("gmsaCredentialSpec gmsaCredentialSpecName runAsUserName", ""),
    "k8s.io.api.discovery.v1.Endpoint": ("hostname nodeName zone", ""),
    "k8s.io.api.discovery.v1.EndpointPort": ("appProtocol name protocol", ""),
    "k8s.io.api.discovery.v1.EndpointSlice": ("addressType", ""),
    "k8s.io.api.discovery.v1.ForNode": ("name", ""),
    "k8s.io.api.discovery.v1.ForZone": ("name", ""),
    "k8s.io.api.discovery.v1beta1.Endpoint": ("hostname nodeName", ""),
    "k8s.io.api.discovery.v1beta1.EndpointPort": ("appProtocol name protocol", ""),
    "k8s.io.api.discovery.v1beta1.EndpointSlice": ("addressType", ""),
    "k8s.io.api.discovery.v1beta1.ForNode": ("name", ""),
    "k8s.io.api.discovery.v1beta1.ForZone": ("name", ""),
    "k8s.io.api.events.v1.Event": ("", "deprecatedCount"),
    "k8s.io.api.events.v1beta1.Event": ("", "deprecatedCount"),
    "k8s.io.api.extensions.v1beta1.DaemonSetCondition": ("status type", ""),
    "k8s.io.api.extensions.v1beta1.DaemonSetSpec": ("", "minReadySeconds templateGeneration"),
    "k8s.io.api.extensions.v1beta1.DaemonSetStatus": ("", "numberAvailable numberUnavailable observedGeneration updatedNumberScheduled"),
    "k8s.io.api.extensions.v1beta1.DeploymentCondition": ("status type", ""),
    "k8s.io.api.extensions.v1beta1.DeploymentRollback": ("name", ""),
    "k8s.io.api.extensions.v1beta1.DeploymentSpec": ("", "minReadySeconds paused"),
    "k8s.io.api.extensions.v1beta1.DeploymentStatus": ("", "availableReplicas observedGeneration readyReplicas replicas unavailableReplicas updatedReplicas"),
    "k8s.io.api.extensions.v1beta1.HTTPIngressPath": ("pathType", ""),
    "k8s.io.api.extensions.v1beta1.IPBlock": ("cidr", ""),
    "k8s.io.api.extensions.v1beta1.IngressPortStatus": ("error protocol", ""),
    "k8s.io.api.extensions.v1beta1.IngressSpec": ("ingressClassName", ""),
    "k8s.io.api.extensions.v1beta1.NetworkPolicyPort": ("protocol", ""),
    "k8s.io.api.extensions.v1beta1.ReplicaSetCondition": ("status type", ""),
    "k8s.io.api.extensions.v1beta1.ReplicaSetSpec": ("", "minReadySeconds"),
    "k8s.io.api.extensions.v1beta1.ReplicaSetStatus": ("", "availableReplicas fullyLabeledReplicas observedGeneration readyReplicas"),
    "k8s.io.api.extensions.v1beta1.RollbackConfig": ("", "revision"),
    "k8s.io.api.extensions.v1beta1.ScaleSpec": ("", "replicas"),
    "k8s.io.api.flowcontrol.v1.FlowDistinguisherMethod": ("type", ""),
    "k8s.io.api.flowcontrol.v1.GroupSubject": ("name", ""),
    "k8s.io.api.flowcontrol.v1.LimitResponse": ("type", ""),
    "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationReference": ("name", ""),
    "k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationSpec": ("type", ""),
    "k8s.io.api.flowcontrol.v1.ResourcePolicyRule": ("", "clusterScope"),
    "k8s.io.api.flowcontrol.v1.ServiceAccountSubject": ("name namespace", ""),
    "k8s.io.api.flowcontrol.v1.Subject": ("kind", ""),
    "k8s.io.api.flowcontrol.v1.UserSubject": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta1.FlowDistinguisherMethod": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta1.GroupSubject": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta1.LimitResponse": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationReference": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta1.PriorityLevelConfigurationSpec": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta1.ResourcePolicyRule": ("", "clusterScope"),
    "k8s.io.api.flowcontrol.v1beta1.ServiceAccountSubject": ("name namespace", ""),
    "k8s.io.api.flowcontrol.v1beta1.Subject": ("kind", ""),
    "k8s.io.api.flowcontrol.v1beta1.UserSubject": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta2.FlowDistinguisherMethod": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta2.GroupSubject": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta2.LimitResponse": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationReference": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta2.PriorityLevelConfigurationSpec": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta2.ResourcePolicyRule": ("", "clusterScope"),
    "k8s.io.api.flowcontrol.v1beta2.ServiceAccountSubject": ("name namespace", ""),
    "k8s.io.api.flowcontrol.v1beta2.Subject": ("kind", ""),
    "k8s.io.api.flowcontrol.v1beta2.UserSubject": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta3.FlowDistinguisherMethod": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta3.GroupSubject": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta3.LimitResponse": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationReference": ("name", ""),
    "k8s.io.api.flowcontrol.v1beta3.PriorityLevelConfigurationSpec": ("type", ""),
    "k8s.io.api.flowcontrol.v1beta3.ResourcePolicyRule": ("", "clusterScope"),
    "k8s.io.api.flowcontrol.v1beta3.ServiceAccountSubject": ("name namespace", ""),
    "k8s.io.api.flowcontrol.v1beta3.Subject": ("kind", ""),
    "k8s.io.api.flowcontrol.v1beta3.UserSubject": ("name", ""),
    "k8s.io.api.networking.v1.HTTPIngressPath": ("pathType", ""),
    "k8s.io.api.networking.v1.IPBlock": ("cidr", ""),
    "k8s.io.api.networking.v1.IngressClassParametersReference": ("aPIGroup kind name namespace scope", ""),
    "k8s.io.api.networking.v1.IngressPortStatus": ("error protocol", ""),
    "k8s.io.api.networking.v1.IngressServiceBackend": ("name", ""),
    "k8s.io.api.networking.v1.IngressSpec": ("ingressClassName", ""),
    "k8s.io.api.networking.v1.NetworkPolicyPort": ("protocol", ""),
    "k8s.io.api.networking.v1.ServiceBackendPort": ("", "number"),
    "k8s.io.api.networking.v1beta1.HTTPIngressPath": ("pathType", ""),
    "k8s.io.api.networking.v1beta1.IngressClassParametersReference": ("aPIGroup kind name namespace scope", ""),
    "k8s.io.api.networking.v1beta1.IngressPortStatus": ("error protocol", ""),
    "k8s.io.api.networking.v1beta1.IngressSpec": ("ingressClassName", ""),
    "k8s.io.api.node.v1.RuntimeClass": ("handler", ""),
    "k8s.io.api.node.v1alpha1.RuntimeClassSpec": ("runtimeHandler", ""),
    "k8s.io.api.node.v1beta1.RuntimeClass": ("handler", ""),
    "k8s.io.api.policy.v1.PodDisruptionBudgetSpec": ("unhealthyPodEvictionPolicy", ""),
    "k8s.io.api.policy.v1.PodDisruptionBudgetStatus": ("", "observedGeneration"),
    "k8s.io.api.policy.v1beta1.PodDisruptionBudgetSpec": ("unhealthyPodEvictionPolicy", ""),
    "k8s.io.api.policy.v1beta1.PodDisruptionBudgetStatus": ("", "observedGeneration"),
    "k8s.io.api.rbac.v1.RoleRef": ("apiGroup kind name", ""),
    "k8s.io.api.rbac.v1.Subject": ("kind name", ""),
    "k8s.io.api.rbac.v1alpha1.RoleRef": ("apiGroup kind name", ""),
    "k8s.io.api.rbac.v1alpha1.Subject": ("kind name", ""),
    "k8s.io.api.rbac.v1beta1.RoleRef": ("apiGroup kind name", ""),
    "k8s.io.api.rbac.v1beta1.Subject": ("kind name", ""),
    "k8s.io.api.resource.v1.AllocatedDeviceStatus": ("device driver pool shareID", ""),
    "k8s.io.api.resource.v1.CELDeviceSelector": ("expression", ""),
    "k8s.io.api.resource.v1.CounterSet": ("name", ""),
    "k8s.io.api.resource.v1.Device": ("name nodeName", ""),
    "k8s.io.api.resource.v1.DeviceAllocationConfiguration": ("source", ""),
    "k8s.io.api.resource.v1.DeviceAttribute": ("string version", ""),
    "k8s.io.api.resource.v1.DeviceClassSpec": ("extendedResourceName", ""),
    "k8s.io.api.resource.v1.DeviceConstraint": ("distinctAttribute matchAttribute", ""),
    "k8s.io.api.resource.v1.DeviceCounterConsumption": ("counterSet", ""),
    "k8s.io.api.resource.v1.DeviceRequest": ("name", ""),
    "k8s.io.api.resource.v1.DeviceRequestAllocationResult": ("device driver pool request shareID", ""),
    "k8s.io.api.resource.v1.DeviceSubRequest": ("deviceClassName name", "count"),
    "k8s.io.api.resource.v1.DeviceTaint": ("effect key", ""),
    "k8s.io.api.resource.v1.ExactDeviceRequest": ("deviceClassName", "count"),
    "k8s.io.api.resource.v1.NodeAllocatableResourceMapping": ("capacityKey", ""),
    "k8s.io.api.resource.v1.OpaqueDeviceConfiguration": ("driver", ""),
    "k8s.io.api.resource.v1.ResourceClaimConsumerReference": ("name resource uid", ""),
    "k8s.io.api.resource.v1.ResourcePool": ("name", ""),
    "k8s.io.api.resource.v1.ResourceSliceSpec": ("driver nodeName", ""),
    "k8s.io.api.resource.v1alpha3.CELDeviceSelector": ("expression", ""),
    "k8s.io.api.resource.v1alpha3.DeviceTaint": ("effect key", ""),
    "k8s.io.api.resource.v1alpha3.DeviceTaintSelector": ("device driver pool", ""),
    "k8s.io.api.resource.v1alpha3.PoolStatus": ("nodeName validationError", ""),
    "k8s.io.api.resource.v1alpha3.ResourcePoolStatusRequestSpec": ("driver poolName", ""),
    "k8s.io.api.resource.v1beta1.AllocatedDeviceStatus": ("device driver pool shareID", ""),
    "k8s.io.api.resource.v1beta1.BasicDevice": ("nodeName", ""),
    "k8s.io.api.resource.v1beta1.CELDeviceSelector": ("expression", ""),
    "k8s.io.api.resource.v1beta1.CounterSet": ("name", ""),
    "k8s.io.api.resource.v1beta1.Device": ("name", ""),
    "k8s.io.api.resource.v1beta1.DeviceAllocationConfiguration": ("source", ""),
    "k8s.io.api.resource.v1beta1.DeviceAttribute": ("string version", ""),
    "k8s.io.api.resource.v1beta1.DeviceClassSpec": ("extendedResourceName", ""),
    "k8s.io.api.resource.v1beta1.DeviceConstraint": ("distinctAttribute matchAttribute", ""),
    "k8s.io.api.resource.v1beta1.DeviceCounterConsumption": ("counterSet", ""),
    "k8s.io.api.resource.v1beta1.DeviceRequest": ("deviceClassName name", "count"),
    "k8s.io.api.resource.v1beta1.DeviceRequestAllocationResult": ("device driver pool request shareID", ""),
    "k8s.io.api.resource.v1beta1.DeviceSubRequest": ("deviceClassName name", "count"),
    "k8s.io.api.resource.v1beta1.DeviceTaint": ("effect key", ""),
    "k8s.io.api.resource.v1beta1.NodeAllocatableResourceMapping": ("capacityKey", ""),
    "k8s.io.api.resource.v1beta1.OpaqueDeviceConfiguration": ("driver", ""),
    "k8s.io.api.resource.v1beta1.ResourceClaimConsumerReference": ("name resource uid", ""),
    "k8s.io.api.resource.v1beta1.ResourcePool": ("name", ""),
    "k8s.io.api.resource.v1beta1.ResourceSliceSpec": ("driver", "allNodes"),
    "k8s.io.api.resource.v1beta2.AllocatedDeviceStatus": ("device driver pool shareID", ""),
    "k8s.io.api.resource.v1beta2.CELDeviceSelector": ("expression", ""),
    "k8s.io.api.resource.v1beta2.CounterSet": ("name", ""),
    "k8s.io.api.resource.v1beta2.Device": ("name nodeName", ""),
    "k8s.io.api.resource.v1beta2.DeviceAllocationConfiguration": ("source", ""),
    "k8s.io.api.resource.v1beta2.DeviceAttribute": ("string version", ""),
    "k8s.io.api.resource.v1beta2.DeviceClassSpec": ("extendedResourceName", ""),
    "k8s.io.api.resource.v1beta2.DeviceConstraint": ("distinctAttribute matchAttribute", ""),
    "k8s.io.api.resource.v1beta2.DeviceCounterConsumption": ("counterSet", ""),
    "k8s.io.api.resource.v1beta2.DeviceRequest": ("name", ""),
    "k8s.io.api.resource.v1beta2.DeviceRequestAllocationResult": ("device driver pool request shareID", ""),
    "k8s.io.api.resource.v1beta2.DeviceSubRequest": ("deviceClassName name", "count"),
    "k8s.io.api.resource.v1beta2.DeviceTaint": ("effect key", ""),
    "k8s.io.api.resource.v1beta2.DeviceTaintSelector": ("device driver pool", ""),
    "k8s.io.api.resource.v1beta2.ExactDeviceRequest": ("deviceClassName", "count"),
    "k8s.io.api.resource.v1beta2.NodeAllocatableResourceMapping": ("capacityKey", ""),
    "k8s.io.api.resource.v1beta2.OpaqueDeviceConfiguration": ("driver", ""),
    "k8s.io.api.resource.v1beta2.ResourceClaimConsumerReference": ("name resource uid", ""),
    "k8s.io.api.resource.v1beta2.ResourcePool": ("name", ""),
    "k8s.io.api.resource.v1beta2.ResourceSliceSpec": ("driver nodeName", ""),
    "k8s.io.api.scheduling.v1.PriorityClass": ("preemptionPolicy", "globalDefault"),
    "k8s.io.api.scheduling.v1alpha2.PodGroupResourceClaim": ("name resourceClaimName resourceClaimTemplateName", ""),
    "k8s.io.api.scheduling.v1alpha2.PodGroupResourceClaimStatus": ("name resourceClaimName", ""),
    "k8s.io.api.scheduling.v1alpha2.PodGroupSpec": ("disruptionMode", ""),
    "k8s.io.api.scheduling.v1alpha2.PodGroupTemplate": ("disruptionMode name", ""),
    "k8s.io.api.scheduling.v1alpha2.TopologyConstraint": ("key", ""),
    "k8s.io.api.scheduling.v1alpha2.TypedLocalObjectReference": ("kind name", ""),
    "k8s.io.api.scheduling.v1alpha2.WorkloadPodGroupTemplateReference": ("podGroupTemplateName workloadName", ""),
    "k8s.io.api.scheduling.v1beta1.PriorityClass": ("preemptionPolicy", "globalDefault"),
    "k8s.io.api.storage.v1.CSIDriverSpec": ("fsGroupPolicy", ""),
    "k8s.io.api.storage.v1.CSINodeDriver": ("name nodeID", ""),
    "k8s.io.api.storage.v1.CSIStorageCapacity": ("storageClassName", ""),
    "k8s.io.api.storage.v1.StorageClass": ("provisioner reclaimPolicy volumeBindingMode", ""),
    "k8s.io.api.storage.v1.TokenRequest": ("audience", ""),
    "k8s.io.api.storage.v1.VolumeAttachmentSource": ("persistentVolumeName", ""),
    "k8s.io.api.storage.v1.VolumeAttachmentSpec": ("attacher nodeName", ""),
    "k8s.io.api.storage.v1.VolumeAttributesClass": ("driverName", ""),
    "k8s.io.api.storage.v1alpha1.CSIStorageCapacity": ("storageClassName", ""),
    "k8s.io.api.storage.v1alpha1.VolumeAttachmentSource": ("persistentVolumeName", ""),
    "k8s.io.api.storage.v1alpha1.VolumeAttachmentSpec": ("attacher nodeName", ""),
    "k8s.io.api.storage.v1alpha1.VolumeAttributesClass": ("driverName", ""),
    "k8s.io.api.storage.v1beta1.CSIDriverSpec": ("fsGroupPolicy", ""),
    "k8s.io.api.storage.v1beta1.CSINodeDriver": ("name nodeID", ""),
    "k8s.io.api.storage.v1beta1.CSIStorageCapacity": ("storageClassName", ""),
    "k8s.io.api.storage.v1beta1.StorageClass": ("provisioner reclaimPolicy volumeBindingMode", ""),
    "k8s.io.api.storage.v1beta1.TokenRequest": ("audience", ""),
    "k8s.io.api.storage.v1beta1.VolumeAttachmentSource": ("persistentVolumeName", ""),
    "k8s.io.api.storage.v1beta1.VolumeAttachmentSpec": ("attacher nodeName", ""),
    "k8s.io.api.storage.v1beta1.VolumeAttributesClass": ("driverName", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.APIGroup": ("name", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.APIResource": ("kind name singularName", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.APIResourceList": ("groupVersion", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.ApplyOptions": ("fieldManager", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.Condition": ("message reason status type", "observedGeneration"),
    "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions": ("propagationPolicy", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement": ("key operator", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.GroupKind": ("group kind", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.GroupResource": ("group resource", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersion": ("group version", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery": ("groupVersion version", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionKind": ("group kind version", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersionResource": ("group resource version", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement": ("key operator", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.ListOptions": ("", "allowWatchBookmarks limit watch"),
    "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta": ("", "generation"),
    "k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference": ("apiVersion kind name uid", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.Preconditions": ("resourceVersion uid", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR": ("clientCIDR serverAddress", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.ShardInfo": ("selector", ""),
    "k8s.io.apimachinery.pkg.apis.meta.v1.Status": ("", "code"),
    "k8s.io.apimachinery.pkg.apis.meta.v1.StatusDetails": ("", "retryAfterSeconds"),
    "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent": ("type", ""),
}

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_.][A-Za-z0-9_.]*|-?\d+|[{}<>;=,\[\]()]')


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse_proto(text):
    """Returns (package, {message name: [(number, name, type, label, map key)]})."""
    toks = TOKEN.findall(strip_comments(text))
    package, messages, stack, i = "", {}, [], 0

    def qualify(name):
        return ".".join([package] + stack + [name]) if package else ".".join(stack + [name])

    while i < len(toks):
        t = toks[i]
        if t == "package":
            package, i = toks[i + 1], i + 3
        elif t in ("syntax", "import", "option"):
            while toks[i] != ";":
                i += 1
            i += 1
        elif t == "message":
            stack.append(toks[i + 1])
            messages[".".join([package] + stack)] = []
            i += 3  # message NAME {
        elif t == "}":
            stack.pop()
            i += 1
        elif t in ("enum", "oneof", "extend", "service"):
            raise SystemExit("unsupported proto construct %r in package %s" % (t, package))
        elif t == "reserved":
            while toks[i] != ";":
                i += 1
            i += 1
        else:
            cur = messages[".".join([package] + stack)]
            label, key = "", ""
            if t in ("optional", "repeated", "required"):
                label, i = t, i + 1
            if toks[i] == "map":  # map < K , V > name = N ;
                key, vtype, i = toks[i + 2], toks[i + 4], i + 6
                ftype = vtype
            else:
                ftype, i = toks[i], i + 1
            name, number = toks[i], int(toks[i + 2])
            i += 3
            if toks[i] == "[":
                while toks[i] != "]":
                    i += 1
                i += 1
            if toks[i] != ";":
                raise SystemExit("parse error near field %s in %s" % (name, package))
            i += 1
            cur.append((number, name, ftype, label, key))
    return package, messages


def resolve(ftype, package):
    if ftype in SCALARS:
        return ftype
    if ftype.startswith("."):
        return ftype[1:]
    return package + "." + ftype


def definition_name(msg):
    return "io.k8s." + msg[len("k8s.io."):]


# Deliberate deviations from the Go tags (applied after GO_TAGS / --go-tags): zero values kept
# although Go's JSON omits them. None: the decoder follows Go exactly.
KEEP_ZERO = set()

ZERO_TYPES = {"bool", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
              "fixed32", "fixed64", "sfixed32", "sfixed64"}


def embedded_go_tags():
    return {m: (set(keep.split()), set(omit.split())) for m, (keep, omit) in GO_TAGS.items()}


def read_go_tags(path, raw):
    """Derives GO_TAGS from a TSV of Go struct fields and the proto field types in `raw`."""
    types = {(m, fn): (t, lab, k) for m, fs in raw.items() for _, fn, t, lab, k in fs}
    out = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 6 or not cols[3] or cols[3] == "-":
                continue  # embedded (inline) structs, fields without a JSON name
            msg, fn, pointer, omitempty = cols[0], cols[2], cols[4] == "1", cols[5] == "1"
            t, lab, k = types.get((msg, fn), ("", "x", ""))
            if lab == "repeated" or k:
                continue
            keep, omit = out.setdefault(msg, (set(), set()))
            if t == "string" and (pointer or not omitempty):
                keep.add(fn)
            elif t in ZERO_TYPES and not pointer and omitempty:
                omit.add(fn)
    return {m: v for m, v in out.items() if v[0] or v[1]}


def format_go_tags(tags):
    lines = ["GO_TAGS = {"]
    for m in sorted(tags):
        keep, omit = tags[m]
        lines.append("    %s: (%s, %s)," % (json.dumps(m), json.dumps(" ".join(sorted(keep))),
                                              json.dumps(" ".join(sorted(omit)))))
    return "\n".join(lines + ["}"]) + "\n"


def read_protos(root):
    raw = {}
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if f == "generated.proto":
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    package, msgs = parse_proto(fh.read())
                for name, fields in msgs.items():
                    raw[name] = [(n, fn, resolve(t, package), lab, resolve(k, package) if k else "")
                                 for n, fn, t, lab, k in fields]
    return raw


def generate(raw, go_tags):
    with open(CATALOGUE, encoding="utf-8") as fh:
        defs = json.load(fh)["definitions"]

    def props(msg):
        return (defs.get(definition_name(msg)) or {}).get("properties")

    def json_names(msg):  # every JSON name a message contributes, following inline fields
        out = set()
        for n, fn, t, lab, k in raw.get(msg, []):
            p = props(msg)
            if p is not None and fn not in p and t in raw and not lab == "repeated" and not k:
                out |= json_names(t)
            else:
                out.add(fn)
        return out

    wrappers = sorted(m for m, f in raw.items()
                      if len(f) == 1 and f[0][0] == 1 and f[0][1] == "items"
                      and f[0][3] == "repeated" and definition_name(m) not in defs)
    messages, problems = {}, []
    for msg in sorted(raw):
        p = props(msg)
        required = set((defs.get(definition_name(msg)) or {}).get("required", []))
        out = []
        for n, fn, t, lab, k in sorted(raw[msg]):
            flags = 1 if lab == "repeated" else 0
            jn = fn
            if p is not None and fn not in p:
                lower = {x.lower(): x for x in p}
                if t in raw and not k and lab != "repeated" and json_names(t) <= set(p):
                    flags |= 4
                elif fn.lower() in lower:
                    jn = lower[fn.lower()]
                else:
                    problems.append("%s.%s has no JSON property" % (msg, fn))
            if jn in required:
                flags |= 2
            keep, omit = go_tags.get(msg, ((), ()))
            if fn in keep and lab != "repeated" and not k:
                assert t == "string", (msg, fn, t)
                flags |= 8
            if fn in omit and lab != "repeated" and not k and (msg, fn) not in KEEP_ZERO:
                assert t in ZERO_TYPES, (msg, fn, t)
                flags |= 16
            ty = "map:%s:%s" % (k, t) if k else t
            out.append([n, fn, ty, flags] + ([jn] if jn != fn else []))
        messages[msg] = out
    return messages, wrappers, problems


def render(messages, wrappers):
    lines = ['{"format":1,', '"source":' + json.dumps(SOURCE, separators=(",", ":")) + ",",
             '"wrappers":' + json.dumps(wrappers, separators=(",", ":")) + ",", '"messages":{']
    items = [json.dumps(m) + ":" + json.dumps(f, separators=(",", ":")) for m, f in messages.items()]
    lines.append(",\n".join(items))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("proto_root", nargs="?", default=DEFAULT_INPUT)
    ap.add_argument("-o", "--output", default=DEFAULT_OUTPUT)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--go-tags", metavar="TSV",
                    help="derive the zero-value lists from this TSV of Go struct fields instead "
                         "of the embedded GO_TAGS")
    ap.add_argument("--print-go-tags", action="store_true",
                    help="print the GO_TAGS literal derived from --go-tags and exit")
    args = ap.parse_args()
    raw = read_protos(args.proto_root)
    go_tags = read_go_tags(args.go_tags, raw) if args.go_tags else embedded_go_tags()
    if args.print_go_tags:
        sys.stdout.write(format_go_tags(go_tags))
        return 0
    messages, wrappers, problems = generate(raw, go_tags)
    for p in problems:
        print("warning: " + p, file=sys.stderr)
    text = render(messages, wrappers)
    json.loads(text)  # must be valid JSON
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as fh:
                same = fh.read() == text
        except OSError:
            same = False
        if not same:
            print("%s is out of date; run tools/gen_proto_catalogue.py" % args.output,
                  file=sys.stderr)
            return 1
        return 0
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write(text)
    print("wrote %s: %d messages" % (args.output, len(messages)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
