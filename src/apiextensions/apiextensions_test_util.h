// CRDs of real-world shapes for the apiextensions tests, and helpers that run them through
// defaulting and the create/update preparation the way the registry will.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "apiextensions/crd_defaults.h"
#include "apiextensions/crd_validation.h"
#include "apiextensions/field_errors.h"

namespace kube::apiextensions::testing {

using Json = nlohmann::json;

inline Json J(const char* text) { return Json::parse(text); }

// A minimal valid CRD: widgets.example.com, namespaced, one version v1 with a spec/status
// schema and the status subresource.
inline Json WidgetCrd() {
  return J(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {
      "group": "example.com", "scope": "Namespaced",
      "names": {"plural": "widgets", "kind": "Widget", "shortNames": ["wd"], "categories": ["all"]},
      "versions": [{
        "name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
          "spec": {"type": "object", "properties": {
            "size": {"type": "integer", "minimum": 1},
            "color": {"type": "string", "enum": ["red", "blue"]},
            "tags": {"type": "array", "items": {"type": "string"}}}},
          "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}},
        "subresources": {"status": {}}
      }]
    }
  })");
}

// The kubebuilder book's CronJob CRD (controller-gen output, abridged but keeping its
// constructs: descriptions, int-or-string, embedded templates with preserve-unknown-fields,
// list-type map, format date-time, enum, status subresource).
inline Json KubebuilderCronJobCrd() {
  return J(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "cronjobs.batch.tutorial.kubebuilder.io",
                 "annotations": {"controller-gen.kubebuilder.io/version": "v0.16.1"}},
    "spec": {
      "group": "batch.tutorial.kubebuilder.io",
      "names": {"kind": "CronJob", "listKind": "CronJobList", "plural": "cronjobs", "singular": "cronjob"},
      "scope": "Namespaced",
      "versions": [{
        "name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {
          "description": "CronJob is the Schema for the cronjobs API",
          "type": "object",
          "properties": {
            "apiVersion": {"description": "APIVersion defines the versioned schema", "type": "string"},
            "kind": {"description": "Kind is a string value", "type": "string"},
            "metadata": {"type": "object"},
            "spec": {
              "description": "CronJobSpec defines the desired state of CronJob",
              "type": "object",
              "required": ["jobTemplate", "schedule"],
              "properties": {
                "concurrencyPolicy": {"type": "string", "enum": ["Allow", "Forbid", "Replace"]},
                "failedJobsHistoryLimit": {"type": "integer", "format": "int32", "minimum": 0},
                "schedule": {"type": "string", "minLength": 0},
                "startingDeadlineSeconds": {"type": "integer", "format": "int64"},
                "suspend": {"type": "boolean"},
                "maxUnavailable": {"anyOf": [{"type": "integer"}, {"type": "string"}],
                                   "x-kubernetes-int-or-string": true},
                "jobTemplate": {
                  "type": "object",
                  "properties": {
                    "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                    "spec": {"type": "object", "properties": {
                      "template": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                      "ports": {"type": "array",
                                "items": {"type": "object", "required": ["containerPort"],
                                          "properties": {"containerPort": {"type": "integer", "format": "int32"},
                                                         "protocol": {"type": "string", "default": "TCP"}}},
                                "x-kubernetes-list-map-keys": ["containerPort", "protocol"],
                                "x-kubernetes-list-type": "map"}}}}}
              }
            },
            "status": {
              "type": "object",
              "properties": {
                "active": {"type": "array", "items": {"type": "object",
                  "properties": {"name": {"type": "string"}, "uid": {"type": "string"}},
                  "x-kubernetes-map-type": "atomic"}, "x-kubernetes-list-type": "atomic"},
                "lastScheduleTime": {"type": "string", "format": "date-time"}
              }
            }
          }
        }},
        "subresources": {"status": {}}
      }]
    }
  })");
}

// cert-manager's Certificate CRD shape: printer columns with a filter JSONPath, priorities and a
// date column, categories, short names, nested required fields, a status with conditions.
inline Json CertManagerCertificateCrd() {
  return J(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "certificates.cert-manager.io",
                 "labels": {"app": "cert-manager", "app.kubernetes.io/name": "cert-manager"}},
    "spec": {
      "group": "cert-manager.io",
      "names": {"kind": "Certificate", "listKind": "CertificateList", "plural": "certificates",
                "shortNames": ["cert", "certs"], "singular": "certificate", "categories": ["cert-manager"]},
      "scope": "Namespaced",
      "versions": [{
        "name": "v1", "served": true, "storage": true,
        "additionalPrinterColumns": [
          {"jsonPath": ".status.conditions[?(@.type==\"Ready\")].status", "name": "Ready", "type": "string"},
          {"jsonPath": ".spec.secretName", "name": "Secret", "type": "string"},
          {"jsonPath": ".spec.issuerRef.name", "name": "Issuer", "priority": 1, "type": "string"},
          {"jsonPath": ".status.conditions[?(@.type==\"Ready\")].message", "name": "Status", "priority": 1, "type": "string"},
          {"jsonPath": ".metadata.creationTimestamp", "name": "Age", "type": "date",
           "description": "CreationTimestamp is a timestamp representing the server time when this object was created."}
        ],
        "schema": {"openAPIV3Schema": {
          "type": "object",
          "required": ["spec"],
          "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": {
              "type": "object",
              "required": ["issuerRef", "secretName"],
              "properties": {
                "commonName": {"type": "string"},
                "dnsNames": {"type": "array", "items": {"type": "string"}},
                "duration": {"type": "string"},
                "issuerRef": {"type": "object", "required": ["name"], "properties": {
                  "group": {"type": "string"}, "kind": {"type": "string"}, "name": {"type": "string"}}},
                "privateKey": {"type": "object", "properties": {
                  "algorithm": {"type": "string", "enum": ["RSA", "ECDSA", "Ed25519"]},
                  "size": {"type": "integer"},
                  "rotationPolicy": {"type": "string", "enum": ["Never", "Always"]}}},
                "secretName": {"type": "string"},
                "secretTemplate": {"type": "object", "properties": {
                  "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
                  "labels": {"type": "object", "additionalProperties": {"type": "string"}}}},
                "usages": {"type": "array", "items": {"type": "string", "enum": ["signing", "server auth", "client auth"]}}
              }
            },
            "status": {
              "type": "object",
              "properties": {
                "conditions": {
                  "type": "array",
                  "items": {"type": "object", "required": ["status", "type"], "properties": {
                    "lastTransitionTime": {"type": "string", "format": "date-time"},
                    "message": {"type": "string"},
                    "observedGeneration": {"type": "integer", "format": "int64"},
                    "reason": {"type": "string"},
                    "status": {"type": "string", "enum": ["True", "False", "Unknown"]},
                    "type": {"type": "string"}}},
                  "x-kubernetes-list-map-keys": ["type"],
                  "x-kubernetes-list-type": "map"},
                "notAfter": {"type": "string", "format": "date-time"},
                "revision": {"type": "integer"}
              }
            }
          }
        }},
        "subresources": {"status": {}}
      }]
    }
  })");
}

// The errors one per line, so that doctest prints a readable difference.
inline std::string Lines(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += "\n  " + s;
  return out;
}

inline std::vector<std::string> Format(const FieldErrors& errs) {
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(FormatFieldError(e));
  return out;
}

// Defaulting + PrepareForCreate + ValidateCustomResourceDefinition, as a create request runs.
inline std::vector<std::string> CreateErrors(Json crd, const CrdValidationOptions& options = {}) {
  SetDefaults(&crd);
  PrepareForCreate(&crd);
  return Format(ValidateCustomResourceDefinition(crd, options));
}

// Defaulting + PrepareForUpdate + ValidateCustomResourceDefinitionUpdate.
inline std::vector<std::string> UpdateErrors(Json crd, const Json& old, const CrdValidationOptions& options = {}) {
  SetDefaults(&crd);
  PrepareForUpdate(&crd, old);
  return Format(ValidateCustomResourceDefinitionUpdate(crd, old, options));
}

// A stored CRD: created (defaulted and prepared) from `crd`.
inline Json Stored(Json crd) {
  SetDefaults(&crd);
  PrepareForCreate(&crd);
  return crd;
}

}  // namespace kube::apiextensions::testing
