"""State between tests: the kube_config fixture's reset isolates tests of one session; reset,
snapshot, restore, delete_snapshot and snapshots on the session's Server."""

import kubernetes
import pytest
from kubernetes.client import V1ConfigMap, V1Namespace, V1ObjectMeta

import kube_apiserver_lite
from helpers import status_of

_seen = []


@pytest.mark.parametrize("step", ["create", "check"])
def test_reset_isolates_tests(step, core):
    # Two tests in a fixed order (parametrize keeps it): the first leaves objects behind, the
    # second, in the same session, must not see them.
    if step == "create":
        core.create_namespace(V1Namespace(metadata=V1ObjectMeta(name="leftover")))
        core.create_namespaced_config_map("default", V1ConfigMap(metadata=V1ObjectMeta(name="leftover")))
        assert core.read_namespaced_config_map("leftover", "default").metadata.name == "leftover"
        _seen.append(step)
        return
    assert _seen == ["create"], "the create step must run first in this session"
    with pytest.raises(kubernetes.client.ApiException) as e:
        core.read_namespaced_config_map("leftover", "default")
    assert e.value.status == 404
    assert core.list_namespaced_config_map("default").items == []
    assert "leftover" not in {ns.metadata.name for ns in core.list_namespace().items}


def test_reset(kube_apiserver, core):
    core.create_namespace(V1Namespace(metadata=V1ObjectMeta(name="scratch")))
    core.create_namespaced_config_map("scratch", V1ConfigMap(metadata=V1ObjectMeta(name="c")))
    before = int(core.list_namespace().metadata.resource_version)

    status = kube_apiserver.reset()
    assert status["kind"] == "Status"
    assert status["status"] == "Success"
    assert status["message"] == "reset to the initial state"
    assert int(status["metadata"]["resourceVersion"]) > before  # revisions stay monotonic

    names = {ns.metadata.name for ns in core.list_namespace().items}
    assert "scratch" not in names
    assert "default" in names
    assert core.list_namespaced_config_map("scratch").items == []


def test_snapshot_restore_delete(kube_apiserver, core):
    def names():
        return sorted(c.metadata.name for c in core.list_namespaced_config_map("default").items)

    core.create_namespaced_config_map("default", V1ConfigMap(metadata=V1ObjectMeta(name="a"), data={"v": "1"}))
    saved = kube_apiserver.snapshot("with-a")
    assert saved["status"] == "Success"
    assert saved["message"] == 'saved snapshot "with-a"'
    try:
        listed = {s["name"]: s for s in kube_apiserver.snapshots()}
        assert set(listed["with-a"]) == {"name", "resourceVersion", "objects", "bytes"}
        assert listed["with-a"]["resourceVersion"] == saved["metadata"]["resourceVersion"]
        assert listed["with-a"]["objects"] > 0 and listed["with-a"]["bytes"] > 0
        whole = kube_apiserver.snapshot_list()
        assert whole["kind"] == "SnapshotList"
        assert whole["initial"]["objects"] > 0

        core.create_namespaced_config_map("default", V1ConfigMap(metadata=V1ObjectMeta(name="b")))
        core.patch_namespaced_config_map("a", "default", {"data": {"v": "2"}})
        assert names() == ["a", "b"]

        restored = kube_apiserver.restore("with-a")
        assert restored["message"] == 'restored snapshot "with-a"'
        assert names() == ["a"]
        assert core.read_namespaced_config_map("a", "default").data == {"v": "1"}

        # The snapshot stays after a restore, and after a reset.
        kube_apiserver.reset()
        assert names() == []
        kube_apiserver.restore("with-a")
        assert names() == ["a"]
    finally:
        deleted = kube_apiserver.delete_snapshot("with-a")
    assert deleted["message"] == 'deleted snapshot "with-a"'
    assert "with-a" not in {s["name"] for s in kube_apiserver.snapshots()}


def test_unknown_snapshot_is_404(kube_apiserver):
    for call in (kube_apiserver.restore, kube_apiserver.delete_snapshot):
        with pytest.raises(kube_apiserver_lite.AdminError) as e:
            call("never-saved")
        assert e.value.status == 404
        assert e.value.reason == "NotFound"
        assert e.value.message == 'snapshot "never-saved" not found'
        assert status_of(e.value)["code"] == 404
        # An admin error is a kubernetes ApiException too.
        assert isinstance(e.value, kubernetes.client.ApiException)


def test_invalid_snapshot_name_is_400(kube_apiserver):
    with pytest.raises(kube_apiserver_lite.AdminError) as e:
        kube_apiserver.snapshot("no spaces")
    assert e.value.status == 400
    assert e.value.reason == "BadRequest"
    assert e.value.message == 'invalid snapshot name "no spaces": must be 1 to 253 characters of [A-Za-z0-9._-]'
    assert "400 BadRequest" in str(e.value)
