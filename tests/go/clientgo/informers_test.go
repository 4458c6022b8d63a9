// client-go's SharedInformerFactory: informers over ConfigMaps, Secrets, Namespaces and
// Deployments with event handlers and listers; periodic resync; and a factory filtered by
// namespace and by a label selector (WithNamespace, WithTweakListOptions).
package clientgo_test

import (
	"sort"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// handlerLog records "kind:type:name" for objects of one namespace (or namespaces named ns).
type handlerLog struct {
	mu     sync.Mutex
	ns     string
	events []string
}

func (l *handlerLog) add(kind, typ string, obj interface{}) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	o, ok := obj.(metav1.Object)
	if !ok {
		return
	}
	if o.GetNamespace() != l.ns && !(kind == "Namespace" && o.GetName() == l.ns) {
		return
	}
	l.mu.Lock()
	l.events = append(l.events, kind+":"+typ+":"+o.GetName())
	l.mu.Unlock()
}

func (l *handlerLog) handlerFor(kind string) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { l.add(kind, "add", obj) },
		UpdateFunc: func(oldObj, newObj interface{}) {
			if oldObj.(metav1.Object).GetResourceVersion() != newObj.(metav1.Object).GetResourceVersion() {
				l.add(kind, "update", newObj)
			}
		},
		DeleteFunc: func(obj interface{}) { l.add(kind, "delete", obj) },
	}
}

func (l *handlerLog) sorted() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]string(nil), l.events...)
	sort.Strings(out)
	return out
}

func startFactory(t *testing.T, f informers.SharedInformerFactory) {
	t.Helper()
	stop := make(chan struct{})
	f.Start(stop)
	t.Cleanup(func() {
		close(stop)
		f.Shutdown()
	})
	for typ, ok := range f.WaitForCacheSync(stop) {
		if !ok {
			t.Fatalf("informer for %v did not sync", typ)
		}
	}
}

func TestSharedInformerFactoryHandlersAndListers(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "early"}}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())

	factory := informers.NewSharedInformerFactory(cs, 0)
	log := &handlerLog{ns: ns}
	cmInf := factory.Core().V1().ConfigMaps()
	secretInf := factory.Core().V1().Secrets()
	nsInf := factory.Core().V1().Namespaces()
	deployInf := factory.Apps().V1().Deployments()
	for kind, inf := range map[string]cache.SharedIndexInformer{
		"ConfigMap": cmInf.Informer(), "Secret": secretInf.Informer(), "Namespace": nsInf.Informer(), "Deployment": deployInf.Informer(),
	} {
		_, err := inf.AddEventHandler(log.handlerFor(kind))
		g.Expect(err).NotTo(HaveOccurred())
	}
	startFactory(t, factory)

	// What existed before the start is in the listers at once.
	early, err := cmInf.Lister().ConfigMaps(ns).Get("early")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(early.Name).To(Equal("early"))
	nsObj, err := nsInf.Lister().Get(ns)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(nsObj.Status.Phase).To(Equal(corev1.NamespaceActive))
	_, err = nsInf.Lister().Get("kube-system")
	g.Expect(err).NotTo(HaveOccurred())

	_, err = cs.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "token", Labels: map[string]string{"k": "v"}},
		Data: map[string][]byte{"t": []byte("x")}}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	replicas := int32(1)
	_, err = cs.AppsV1().Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	cm, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "late"}}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	cm.Data = map[string]string{"x": "y"}
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(cs.CoreV1().ConfigMaps(ns).Delete(ctx, "early", metav1.DeleteOptions{})).To(Succeed())

	g.Eventually(log.sorted, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{
		"ConfigMap:add:early", "ConfigMap:add:late", "ConfigMap:delete:early", "ConfigMap:update:late",
		"Deployment:add:web", "Namespace:add:" + ns, "Secret:add:token",
	}))

	late, err := cmInf.Lister().ConfigMaps(ns).Get("late")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(late.Data).To(Equal(map[string]string{"x": "y"}))
	_, err = cmInf.Lister().ConfigMaps(ns).Get("early")
	g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "got %v", err)
	secrets, err := secretInf.Lister().Secrets(ns).List(labels.SelectorFromSet(labels.Set{"k": "v"}))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(secrets).To(HaveLen(1))
	g.Expect(string(secrets[0].Data["t"])).To(Equal("x"))
	d, err := deployInf.Lister().Deployments(ns).Get("web")
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(*d.Spec.RevisionHistoryLimit).To(Equal(int32(10)))
}

func TestSharedInformerResyncRedeliversUnchangedObjects(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "steady"}}, metav1.CreateOptions{})
	g.Expect(err).NotTo(HaveOccurred())

	factory := informers.NewSharedInformerFactoryWithOptions(cs, time.Second, informers.WithNamespace(ns))
	var mu sync.Mutex
	resyncs := 0
	_, err = factory.Core().V1().ConfigMaps().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj interface{}) {
			if oldObj.(*corev1.ConfigMap).ResourceVersion == newObj.(*corev1.ConfigMap).ResourceVersion {
				mu.Lock()
				resyncs++
				mu.Unlock()
			}
		},
	})
	g.Expect(err).NotTo(HaveOccurred())
	startFactory(t, factory)

	g.Eventually(func() int {
		mu.Lock()
		defer mu.Unlock()
		return resyncs
	}, 10*time.Second, 50*time.Millisecond).Should(BeNumerically(">=", 2))
}

func TestFilteredInformerFactoryByNamespaceAndLabel(t *testing.T) {
	g := NewWithT(t)
	ctx := testContext(t)
	ns := newNamespace(t)
	other := newNamespace(t)

	mk := func(namespace, name, team string) {
		_, err := cs.CoreV1().ConfigMaps(namespace).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name,
			Labels: map[string]string{"team": team}}}, metav1.CreateOptions{})
		g.Expect(err).NotTo(HaveOccurred())
	}
	mk(ns, "blue-1", "blue")
	mk(ns, "red-1", "red")
	mk(other, "blue-2", "blue")

	rec := &recorder{}
	recCS, err := kubernetes.NewForConfig(recordingConfig(rec))
	g.Expect(err).NotTo(HaveOccurred())
	factory := informers.NewSharedInformerFactoryWithOptions(recCS, 0,
		informers.WithNamespace(ns),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "team=blue" }))
	inf := factory.Core().V1().ConfigMaps()
	log := &handlerLog{ns: ns}
	_, err = inf.Informer().AddEventHandler(log.handlerFor("ConfigMap"))
	g.Expect(err).NotTo(HaveOccurred())
	startFactory(t, factory)

	all, err := inf.Lister().List(labels.Everything())
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(all).To(HaveLen(1))
	g.Expect(all[0].Namespace + "/" + all[0].Name).To(Equal(ns + "/blue-1"))

	// red-1 turning blue enters; blue-1 turning red leaves (a delete for the informer).
	red, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "red-1", metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	red.Labels["team"] = "blue"
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, red, metav1.UpdateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	blue, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "blue-1", metav1.GetOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	blue.Labels["team"] = "red"
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, blue, metav1.UpdateOptions{})
	g.Expect(err).NotTo(HaveOccurred())
	mk(other, "blue-3", "blue")

	g.Eventually(log.sorted, 10*time.Second, 20*time.Millisecond).Should(Equal([]string{
		"ConfigMap:add:blue-1", "ConfigMap:add:red-1", "ConfigMap:delete:blue-1",
	}))
	names := func() []string {
		items, err := inf.Lister().List(labels.Everything())
		g.Expect(err).NotTo(HaveOccurred())
		out := []string{}
		for _, item := range items {
			out = append(out, item.Name)
		}
		return out
	}
	g.Expect(names()).To(Equal([]string{"red-1"}))

	// Every request of the factory was for the namespace with the selector.
	var seen int
	for _, r := range rec.All() {
		seen++
		g.Expect(r.Path).To(Equal("/api/v1/namespaces/" + ns + "/configmaps"))
		g.Expect(r.Query).To(ContainSubstring("labelSelector=team%3Dblue"))
	}
	g.Expect(seen).To(BeNumerically(">=", 1))
}
