// Conversion between this spoke and the v1 hub: image <-> imageName:imageTag, tier kept in an annotation.
package v1alpha1

import (
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/conversion"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

// TierAnnotation holds v1's spec.tier on a v1alpha1 object, which has no such field, so that a round trip
// through v1alpha1 loses nothing.
const TierAnnotation = "webapp.kal.example.com/tier"

// ConvertTo converts this WebApp to the hub version.
func (src *WebApp) ConvertTo(dstRaw conversion.Hub) error {
	dst, ok := dstRaw.(*webappv1.WebApp)
	if !ok {
		return fmt.Errorf("v1alpha1 WebApp converts to *v1.WebApp, not %T", dstRaw)
	}
	src.ObjectMeta.DeepCopyInto(&dst.ObjectMeta)
	dst.Spec = webappv1.WebAppSpec{
		Image:    JoinImage(src.Spec.ImageName, src.Spec.ImageTag),
		Replicas: copyInt32(src.Spec.Replicas),
		Config:   copyMap(src.Spec.Config),
		Paused:   src.Spec.Paused,
	}
	if tier, ok := dst.Annotations[TierAnnotation]; ok {
		dst.Spec.Tier = tier
		delete(dst.Annotations, TierAnnotation)
		if len(dst.Annotations) == 0 {
			dst.Annotations = nil
		}
	}
	dst.Status = webappv1.WebAppStatus{
		ObservedGeneration: src.Status.ObservedGeneration,
		ReadyReplicas:      src.Status.ReadyReplicas,
		Selector:           src.Status.Selector,
	}
	for _, c := range src.Status.Conditions {
		dst.Status.Conditions = append(dst.Status.Conditions, *c.DeepCopy())
	}
	return nil
}

// ConvertFrom converts the hub version to this WebApp.
func (dst *WebApp) ConvertFrom(srcRaw conversion.Hub) error {
	src, ok := srcRaw.(*webappv1.WebApp)
	if !ok {
		return fmt.Errorf("v1alpha1 WebApp converts from *v1.WebApp, not %T", srcRaw)
	}
	src.ObjectMeta.DeepCopyInto(&dst.ObjectMeta)
	name, tag := SplitImage(src.Spec.Image)
	dst.Spec = WebAppSpec{
		ImageName: name,
		ImageTag:  tag,
		Replicas:  copyInt32(src.Spec.Replicas),
		Config:    copyMap(src.Spec.Config),
		Paused:    src.Spec.Paused,
	}
	if src.Spec.Tier != "" {
		if dst.Annotations == nil {
			dst.Annotations = map[string]string{}
		}
		dst.Annotations[TierAnnotation] = src.Spec.Tier
	}
	dst.Status = WebAppStatus{
		ObservedGeneration: src.Status.ObservedGeneration,
		ReadyReplicas:      src.Status.ReadyReplicas,
		Selector:           src.Status.Selector,
	}
	for _, c := range src.Status.Conditions {
		dst.Status.Conditions = append(dst.Status.Conditions, *c.DeepCopy())
	}
	return nil
}

// SplitImage splits an image reference into name and tag. The tag is what follows the last ':' after the
// last '/', so a registry port ("registry:5000/app") is part of the name. A reference with a digest
// ("app@sha256:...") has no tag: it stays whole in the name.
func SplitImage(image string) (name, tag string) {
	if strings.Contains(image, "@") {
		return image, ""
	}
	slash := strings.LastIndex(image, "/")
	colon := strings.LastIndex(image, ":")
	if colon <= slash {
		return image, ""
	}
	return image[:colon], image[colon+1:]
}

// JoinImage is the inverse of SplitImage.
func JoinImage(name, tag string) string {
	if tag == "" {
		return name
	}
	return name + ":" + tag
}

func copyInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
