// The WebApp kind at v1: what the operator runs (spec) and what it observed (status).
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Tier values accepted by spec.tier.
const (
	TierFrontend = "frontend"
	TierBackend  = "backend"
)

// Condition types the operator maintains in status.conditions.
const (
	ConditionAvailable   = "Available"
	ConditionProgressing = "Progressing"
)

// WebAppSpec is what the user asks for.
//
// +kubebuilder:validation:XValidation:rule="!has(self.tier) || self.tier != 'backend' || !has(self.replicas) || self.replicas <= 3",message="a backend WebApp may have at most 3 replicas"
type WebAppSpec struct {
	// Image is the container image the Deployment runs.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:XValidation:rule="!self.contains(' ')",message="image must not contain spaces"
	Image string `json:"image"`

	// Replicas is the number of pods wanted.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// Config is written to the <name>-config ConfigMap and exposed to the pods as environment.
	// +optional
	Config map[string]string `json:"config,omitempty"`

	// Tier says where the application sits.
	// +kubebuilder:validation:Enum=frontend;backend
	// +kubebuilder:default=frontend
	// +optional
	Tier string `json:"tier,omitempty"`

	// Paused stops rollouts of the Deployment.
	// +optional
	Paused bool `json:"paused,omitempty"`
}

// WebAppStatus is what the operator observed.
type WebAppStatus struct {
	// ObservedGeneration is the metadata.generation the status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// ReadyReplicas mirrors the Deployment's ready replicas.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`

	// Selector is the label selector of the pods, for the scale subresource.
	// +optional
	Selector string `json:"selector,omitempty"`

	// Conditions are Available and Progressing.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// WebApp runs a container image as a Deployment with its configuration in a ConfigMap.
//
// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:resource:shortName=wa,categories=kal
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.readyReplicas,selectorpath=.status.selector
// +kubebuilder:selectablefield:JSONPath=`.spec.tier`
// +kubebuilder:printcolumn:name="Image",type=string,JSONPath=`.spec.image`
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Available")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type WebApp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec   WebAppSpec   `json:"spec"`
	Status WebAppStatus `json:"status,omitempty"`
}

// WebAppList is a list of WebApps.
//
// +kubebuilder:object:root=true
type WebAppList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WebApp `json:"items"`
}

func init() {
	SchemeBuilder.Register(&WebApp{}, &WebAppList{})
}
