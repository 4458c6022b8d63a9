// Package controller holds the WebApp reconciler: it keeps a ConfigMap and a Deployment per WebApp, reports
// their state in the WebApp's status, and cleans them up itself through a finalizer (no garbage collector is
// assumed to run).
package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	webappv1 "github.com/kube-apiserver-lite/kube-apiserver-lite/tests/go/api/v1"
)

// Finalizer is added to every WebApp so that its children are deleted before it goes.
const Finalizer = "webapp.kal.example.com/cleanup"

// ControllerName names the controller and the reporting controller of its Events.
const ControllerName = "webapp-controller"

// Event reasons (events.k8s.io/v1 reason) and actions the reconciler records on the WebApp.
const (
	ReasonConfigMapCreated  = "ConfigMapCreated"
	ReasonConfigMapUpdated  = "ConfigMapUpdated"
	ReasonDeploymentCreated = "DeploymentCreated"
	ReasonDeploymentUpdated = "DeploymentUpdated"
	ReasonCleanedUp         = "CleanedUp"

	ActionCreate = "Create"
	ActionUpdate = "Update"
	ActionDelete = "Delete"
)

// WebAppReconciler reconciles WebApp objects.
type WebAppReconciler struct {
	client.Client
	Scheme   *runtime.Scheme
	Recorder events.EventRecorder
}

// +kubebuilder:rbac:groups=webapp.kal.example.com,resources=webapps,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=webapp.kal.example.com,resources=webapps/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=webapp.kal.example.com,resources=webapps/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch;update
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch;delete

// Reconcile brings the children of one WebApp in line with its spec and reports their state.
func (r *WebAppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)

	app := &webappv1.WebApp{}
	if err := r.Get(ctx, req.NamespacedName, app); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	if !app.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.finalize(ctx, app)
	}

	if !controllerutil.ContainsFinalizer(app, Finalizer) {
		controllerutil.AddFinalizer(app, Finalizer)
		if err := r.Update(ctx, app); err != nil {
			return ctrl.Result{}, err
		}
		log.V(1).Info("added finalizer")
	}

	cm := &corev1.ConfigMap{}
	cm.Name, cm.Namespace = ConfigMapName(app), app.Namespace
	res, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		MutateConfigMap(cm, app)
		return controllerutil.SetControllerReference(app, cm, r.Scheme)
	})
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("configmap %s: %w", cm.Name, err)
	}
	r.recordChild(app, cm, res, ReasonConfigMapCreated, ReasonConfigMapUpdated, "ConfigMap")

	dep := &appsv1.Deployment{}
	dep.Name, dep.Namespace = app.Name, app.Namespace
	res, err = controllerutil.CreateOrUpdate(ctx, r.Client, dep, func() error {
		MutateDeployment(dep, app, ConfigHash(cm.Data))
		return controllerutil.SetControllerReference(app, dep, r.Scheme)
	})
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("deployment %s: %w", dep.Name, err)
	}
	r.recordChild(app, dep, res, ReasonDeploymentCreated, ReasonDeploymentUpdated, "Deployment")

	status := ComputeStatus(app, dep)
	if !equality.Semantic.DeepEqual(status, app.Status) {
		app.Status = status
		if err := r.Status().Update(ctx, app); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// recordChild records an Event on the WebApp when a child was created or changed.
func (r *WebAppReconciler) recordChild(app *webappv1.WebApp, child client.Object, res controllerutil.OperationResult,
	created, updated, kind string) {
	switch res {
	case controllerutil.OperationResultCreated:
		r.Recorder.Eventf(app, child, corev1.EventTypeNormal, created, ActionCreate, "created %s %s", kind, child.GetName())
	case controllerutil.OperationResultUpdated:
		r.Recorder.Eventf(app, child, corev1.EventTypeNormal, updated, ActionUpdate, "updated %s %s", kind, child.GetName())
	}
}

// finalize deletes the children of a WebApp being deleted, then lets it go.
func (r *WebAppReconciler) finalize(ctx context.Context, app *webappv1.WebApp) error {
	if !controllerutil.ContainsFinalizer(app, Finalizer) {
		return nil
	}
	children := []client.Object{
		&appsv1.Deployment{},
		&corev1.ConfigMap{},
	}
	children[0].SetName(app.Name)
	children[1].SetName(ConfigMapName(app))
	for _, c := range children {
		c.SetNamespace(app.Namespace)
		if err := r.Delete(ctx, c); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting %s: %w", c.GetName(), err)
		}
	}
	r.Recorder.Eventf(app, nil, corev1.EventTypeNormal, ReasonCleanedUp, ActionDelete,
		"deleted Deployment %s and ConfigMap %s", app.Name, ConfigMapName(app))
	controllerutil.RemoveFinalizer(app, Finalizer)
	return r.Update(ctx, app)
}

// SetupWithManager registers the reconciler with a manager, watching WebApps and the children they own.
func (r *WebAppReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&webappv1.WebApp{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&appsv1.Deployment{}).
		Named(ControllerName).
		Complete(r)
}
