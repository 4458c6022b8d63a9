// Package v1 is the hub (and storage) version of the webapp.kal.example.com API group.
//
// +kubebuilder:object:generate=true
// +groupName=webapp.kal.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of the types in this package.
	GroupVersion = schema.GroupVersion{Group: "webapp.kal.example.com", Version: "v1"}

	// SchemeBuilder registers the types of this package in a scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types of this package to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
