// An informer across a Reset: its watch ends with 410 Expired, it relists,
// and its store follows the reset state.

package apiserverlite_test

import (
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	apiserverlite "github.com/kube-apiserver-lite/kube-apiserver-lite/go"
)

func TestInformerRelistsAfterReset(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startServer(t, apiserverlite.Options{})
	c := clientset(t, s)

	createConfigMap(ctx, t, c, "default", "before-informer")
	factory := informers.NewSharedInformerFactory(c, 0)
	informer := factory.Core().V1().ConfigMaps().Informer()
	var deletes atomic.Int32
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(any) { deletes.Add(1) },
	}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	factory.Start(stop)
	t.Cleanup(func() { close(stop); factory.Shutdown() })
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("informer never synced")
	}
	store := informer.GetStore()
	has := func(name string) bool {
		_, exists, err := store.GetByKey("default/" + name)
		return err == nil && exists
	}
	if !has("before-informer") {
		t.Fatalf("synced store lacks default/before-informer: %v", store.ListKeys())
	}
	createConfigMap(ctx, t, c, "default", "while-watching")
	eventually(t, "the informer to see default/while-watching", func() bool { return has("while-watching") })
	initialKeys := len(store.ListKeys()) - 2

	if err := s.Reset(ctx); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	// Both configmaps are gone from the server; the informer, told by the
	// 410 that its watch is stale, relists and drops them.
	eventually(t, "the informer's store to drop the reset configmaps", func() bool {
		return !has("before-informer") && !has("while-watching")
	})
	if got := len(store.ListKeys()); got != initialKeys {
		t.Errorf("store after Reset has %d keys %v, want the initial %d", got, store.ListKeys(), initialKeys)
	}
	if deletes.Load() < 2 {
		t.Errorf("the informer delivered %d deletes, want 2", deletes.Load())
	}

	// And it watches again: a configmap created after the reset arrives.
	created := createConfigMap(ctx, t, c, "default", "after-reset")
	eventually(t, "the informer to see default/after-reset", func() bool { return has("after-reset") })
	obj, _, _ := store.GetByKey("default/after-reset")
	if cm := obj.(*corev1.ConfigMap); cm.UID != created.UID {
		t.Errorf("store's after-reset uid %s, want %s", cm.UID, created.UID)
	}
	// The relist did not bring back what a reset removed, even after a while.
	time.Sleep(200 * time.Millisecond)
	if has("before-informer") || has("while-watching") {
		t.Errorf("reset configmaps came back into the store: %v", store.ListKeys())
	}
}
