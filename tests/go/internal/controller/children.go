// The desired state of a WebApp's children (ConfigMap and Deployment) and of its status, as pure functions.
package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

// ConfigHashAnnotation on the pod template changes with the configuration, so that a config change rolls
// the pods.
const ConfigHashAnnotation = "webapp.kal.example.com/config-hash"

// ContainerName is the name of the application's container in the pod template.
const ContainerName = "app"

// ConfigMapName is the name of a WebApp's ConfigMap.
func ConfigMapName(app *webappv1.WebApp) string { return app.Name + "-config" }

// Labels are the labels of a WebApp's children and pods.
func Labels(app *webappv1.WebApp) map[string]string { return map[string]string{"app": app.Name} }

// Selector is the pod selector of a WebApp in its string form (status.selector, used by the scale subresource).
func Selector(app *webappv1.WebApp) string { return labels.SelectorFromSet(Labels(app)).String() }

// DesiredReplicas is spec.replicas with the API default.
func DesiredReplicas(app *webappv1.WebApp) int32 {
	if app.Spec.Replicas == nil {
		return 1
	}
	return *app.Spec.Replicas
}

// MutateConfigMap makes cm hold the WebApp's configuration (its other fields are left as they are).
func MutateConfigMap(cm *corev1.ConfigMap, app *webappv1.WebApp) {
	cm.Labels = mergeLabels(cm.Labels, Labels(app))
	cm.Data = map[string]string{}
	for k, v := range app.Spec.Config {
		cm.Data[k] = v
	}
	if len(cm.Data) == 0 {
		cm.Data = nil
	}
}

// MutateDeployment sets the fields of dep the WebApp decides, keeping whatever the server defaulted.
func MutateDeployment(dep *appsv1.Deployment, app *webappv1.WebApp, configHash string) {
	l := Labels(app)
	dep.Labels = mergeLabels(dep.Labels, l)
	replicas := DesiredReplicas(app)
	dep.Spec.Replicas = &replicas
	if dep.Spec.Selector == nil { // immutable once created
		dep.Spec.Selector = &metav1.LabelSelector{MatchLabels: l}
	}
	dep.Spec.Paused = app.Spec.Paused
	tmpl := &dep.Spec.Template
	tmpl.Labels = mergeLabels(tmpl.Labels, l)
	if tmpl.Annotations == nil {
		tmpl.Annotations = map[string]string{}
	}
	tmpl.Annotations[ConfigHashAnnotation] = configHash

	var c *corev1.Container
	for i := range tmpl.Spec.Containers {
		if tmpl.Spec.Containers[i].Name == ContainerName {
			c = &tmpl.Spec.Containers[i]
		}
	}
	if c == nil {
		tmpl.Spec.Containers = append(tmpl.Spec.Containers, corev1.Container{Name: ContainerName})
		c = &tmpl.Spec.Containers[len(tmpl.Spec.Containers)-1]
	}
	c.Image = app.Spec.Image
	c.EnvFrom = []corev1.EnvFromSource{{
		ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: ConfigMapName(app)}},
	}}
}

// ConfigHash is a stable digest of a ConfigMap's data.
func ConfigHash(data map[string]string) string {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%d:%s=%d:%s;", len(k), k, len(data[k]), data[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ComputeStatus is the status of app given its Deployment.
func ComputeStatus(app *webappv1.WebApp, dep *appsv1.Deployment) webappv1.WebAppStatus {
	st := *app.Status.DeepCopy()
	st.ObservedGeneration = app.Generation
	st.ReadyReplicas = dep.Status.ReadyReplicas
	st.Selector = Selector(app)
	want := DesiredReplicas(app)

	available := metav1.Condition{Type: webappv1.ConditionAvailable, ObservedGeneration: app.Generation}
	if dep.Status.ReadyReplicas >= want {
		available.Status, available.Reason = metav1.ConditionTrue, "MinimumReplicasAvailable"
		available.Message = fmt.Sprintf("%d of %d replicas ready", dep.Status.ReadyReplicas, want)
	} else {
		available.Status, available.Reason = metav1.ConditionFalse, "ReplicasUnavailable"
		available.Message = fmt.Sprintf("%d of %d replicas ready", dep.Status.ReadyReplicas, want)
	}
	meta.SetStatusCondition(&st.Conditions, available)

	progressing := metav1.Condition{Type: webappv1.ConditionProgressing, ObservedGeneration: app.Generation}
	switch {
	case app.Spec.Paused:
		progressing.Status, progressing.Reason, progressing.Message = metav1.ConditionFalse, "Paused", "rollout paused"
	case dep.Status.ReadyReplicas != want || dep.Status.UpdatedReplicas != want:
		progressing.Status, progressing.Reason = metav1.ConditionTrue, "RollingOut"
		progressing.Message = fmt.Sprintf("%d of %d replicas updated", dep.Status.UpdatedReplicas, want)
	default:
		progressing.Status, progressing.Reason, progressing.Message = metav1.ConditionFalse, "RolloutComplete",
			"all replicas updated and ready"
	}
	meta.SetStatusCondition(&st.Conditions, progressing)
	return st
}

func mergeLabels(have, want map[string]string) map[string]string {
	if have == nil {
		have = map[string]string{}
	}
	for k, v := range want {
		have[k] = v
	}
	return have
}
