// A hand-written Go type for the Gadget custom resource (testdata/crds/gadgets.yaml), registered in
// the suite's scheme so that controller-runtime's typed client serves it (JSON, as for every CR).
package client_test

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var gadgetGV = schema.GroupVersion{Group: "tests.kal.example.com", Version: "v1"}

type GadgetSpec struct {
	Color    string   `json:"color,omitempty"`
	Size     string   `json:"size,omitempty"`
	Replicas *int32   `json:"replicas,omitempty"`
	Tags     []string `json:"tags,omitempty"`
}

type GadgetStatus struct {
	Replicas int32  `json:"replicas,omitempty"`
	Selector string `json:"selector,omitempty"`
	Phase    string `json:"phase,omitempty"`
}

type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetSpec   `json:"spec,omitempty"`
	Status            GadgetStatus `json:"status,omitempty"`
}

type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}

func (in *Gadget) DeepCopyInto(out *Gadget) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Replicas != nil {
		r := *in.Spec.Replicas
		out.Spec.Replicas = &r
	}
	if in.Spec.Tags != nil {
		out.Spec.Tags = append([]string(nil), in.Spec.Tags...)
	}
}

func (in *Gadget) DeepCopy() *Gadget {
	if in == nil {
		return nil
	}
	out := new(Gadget)
	in.DeepCopyInto(out)
	return out
}

func (in *Gadget) DeepCopyObject() runtime.Object { return in.DeepCopy() }

func (in *GadgetList) DeepCopyObject() runtime.Object {
	if in == nil {
		return nil
	}
	out := new(GadgetList)
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Gadget, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
	return out
}

func addGadgetTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(gadgetGV, &Gadget{}, &GadgetList{})
	metav1.AddToGroupVersion(s, gadgetGV)
	return nil
}

func int32p(v int32) *int32 { return &v }
