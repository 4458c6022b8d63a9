// Package v1alpha1 is an older, still served version of the webapp.kal.example.com API group: the image is
// split into name and tag and there is no tier. It converts to and from the v1 hub.
//
// +kubebuilder:object:generate=true
// +groupName=webapp.kal.example.com
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of the types in this package.
	GroupVersion = schema.GroupVersion{Group: "webapp.kal.example.com", Version: "v1alpha1"}

	// SchemeBuilder registers the types of this package in a scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types of this package to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
