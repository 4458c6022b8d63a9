"""kubernetes.watch.Watch on the real server: ADDED, MODIFIED, DELETED as they happen, and a reset
ending an open watch with 410 Expired."""

import threading

import kubernetes
import pytest
from kubernetes.client import V1ConfigMap, V1ObjectMeta


def _collect(watch, func, events, errors, until, **kwargs):
    try:
        for event in watch.stream(func, **kwargs):
            events.append(event)
            if until(events):
                watch.stop()
    except Exception as e:  # handed to the test's thread
        errors.append(e)


def test_watch_sees_added_modified_deleted(core):
    start = core.list_namespaced_config_map("default").metadata.resource_version
    watch = kubernetes.watch.Watch()
    events, errors = [], []
    thread = threading.Thread(
        target=_collect,
        args=(watch, core.list_namespaced_config_map, events, errors, lambda ev: len(ev) >= 3),
        kwargs={"namespace": "default", "resource_version": start, "timeout_seconds": 20},
        daemon=True,
    )
    thread.start()

    core.create_namespaced_config_map("default", V1ConfigMap(metadata=V1ObjectMeta(name="w"), data={"v": "1"}))
    core.patch_namespaced_config_map("w", "default", {"data": {"v": "2"}})
    core.delete_namespaced_config_map("w", "default")

    thread.join(30)
    assert not thread.is_alive(), "the watch did not deliver three events"
    assert errors == []
    assert [e["type"] for e in events] == ["ADDED", "MODIFIED", "DELETED"]
    objects = [e["object"] for e in events]
    assert all(isinstance(o, kubernetes.client.V1ConfigMap) for o in objects)
    assert [o.metadata.name for o in objects] == ["w", "w", "w"]
    assert [o.data["v"] for o in objects] == ["1", "2", "2"]
    versions = [int(o.metadata.resource_version) for o in objects]
    assert versions == sorted(versions) and len(set(versions)) == 3
    assert events[0]["raw_object"]["kind"] == "ConfigMap"


def test_reset_ends_an_open_watch_with_410(kube_apiserver, core):
    watch = kubernetes.watch.Watch()
    events, errors = [], []
    first = threading.Event()

    def until(ev):
        first.set()
        return False

    start = core.list_namespaced_config_map("default").metadata.resource_version
    thread = threading.Thread(
        target=_collect,
        args=(watch, core.list_namespaced_config_map, events, errors, until),
        kwargs={"namespace": "default", "resource_version": start, "timeout_seconds": 20},
        daemon=True,
    )
    thread.start()
    core.create_namespaced_config_map("default", V1ConfigMap(metadata=V1ObjectMeta(name="before-reset")))
    assert first.wait(15), "the watch did not see the ConfigMap"

    kube_apiserver.reset()
    thread.join(15)
    assert not thread.is_alive(), "the watch did not end after the reset"
    assert [e["type"] for e in events] == ["ADDED"]
    assert len(errors) == 1
    error = errors[0]
    assert isinstance(error, kubernetes.client.ApiException)
    assert error.status == 410
    assert error.reason.startswith("Expired: ")
    with pytest.raises(kubernetes.client.ApiException) as e:
        core.read_namespaced_config_map("before-reset", "default")
    assert e.value.status == 404
