// The WebApp kind at v1alpha1: the image as name and tag, no tier.
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WebAppSpec is what the user asks for.
type WebAppSpec struct {
	// ImageName is the image without its tag (registry and repository).
	// +kubebuilder:validation:MinLength=1
	ImageName string `json:"imageName"`

	// ImageTag is the tag; empty means the image as named.
	// +optional
	ImageTag string `json:"imageTag,omitempty"`

	// Replicas is the number of pods wanted.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// Config is written to the <name>-config ConfigMap.
	// +optional
	Config map[string]string `json:"config,omitempty"`

	// Paused stops rollouts of the Deployment.
	// +optional
	Paused bool `json:"paused,omitempty"`
}

// WebAppStatus is what the operator observed; the same fields as v1.
type WebAppStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// +optional
	Selector string `json:"selector,omitempty"`
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// WebApp runs a container image as a Deployment (v1alpha1 shape).
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=wa,categories=kal
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.readyReplicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Image",type=string,JSONPath=`.spec.imageName`
// +kubebuilder:printcolumn:name="Tag",type=string,JSONPath=`.spec.imageTag`
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
