"""CoreV1 through the official client: ConfigMap and Namespace CRUD on the real server."""

import kubernetes
import pytest
from kubernetes.client import V1ConfigMap, V1Namespace, V1ObjectMeta

from helpers import eventually, status_of


def test_config_map_crud(core):
    created = core.create_namespaced_config_map(
        "default",
        V1ConfigMap(metadata=V1ObjectMeta(name="settings", labels={"app": "web"}), data={"mode": "fast"}),
    )
    assert created.metadata.uid
    assert created.metadata.resource_version
    assert created.metadata.creation_timestamp is not None
    assert created.metadata.namespace == "default"

    got = core.read_namespaced_config_map("settings", "default")
    assert got.data == {"mode": "fast"}
    assert got.metadata.uid == created.metadata.uid

    listed = core.list_namespaced_config_map("default", label_selector="app=web")
    assert [c.metadata.name for c in listed.items] == ["settings"]
    assert core.list_namespaced_config_map("default", label_selector="app=db").items == []

    got.data["mode"] = "safe"
    replaced = core.replace_namespaced_config_map("settings", "default", got)
    assert replaced.data == {"mode": "safe"}
    assert int(replaced.metadata.resource_version) > int(created.metadata.resource_version)

    patched = core.patch_namespaced_config_map("settings", "default", {"data": {"extra": "1"}})
    assert patched.data == {"mode": "safe", "extra": "1"}

    # kube answers the deletion of a ConfigMap with a Success Status (the client leaves it a dict).
    deleted = core.delete_namespaced_config_map("settings", "default")
    assert deleted["kind"] == "Status"
    assert deleted["status"] == "Success"
    assert deleted["details"] == {"name": "settings", "kind": "configmaps", "uid": created.metadata.uid}
    with pytest.raises(kubernetes.client.ApiException) as e:
        core.read_namespaced_config_map("settings", "default")
    assert e.value.status == 404


def test_initial_namespaces(core):
    names = {ns.metadata.name for ns in core.list_namespace().items}
    assert {"default", "kube-system", "kube-public", "kube-node-lease"} <= names


def test_namespace_crud(core):
    ns = core.create_namespace(V1Namespace(metadata=V1ObjectMeta(name="team-a", labels={"team": "a"})))
    assert ns.status.phase == "Active"
    assert ns.spec.finalizers == ["kubernetes"]
    # kube labels every namespace with its name.
    assert ns.metadata.labels == {"team": "a", "kubernetes.io/metadata.name": "team-a"}

    assert [n.metadata.name for n in core.list_namespace(label_selector="team=a").items] == ["team-a"]
    core.create_namespaced_config_map("team-a", V1ConfigMap(metadata=V1ObjectMeta(name="inside")))

    ns.metadata.labels["tier"] = "gold"
    updated = core.replace_namespace("team-a", ns)
    assert updated.metadata.labels["tier"] == "gold"

    core.delete_namespace("team-a")

    def gone():
        """team-a is finalized and deleted"""
        try:
            current = core.read_namespace("team-a")
        except kubernetes.client.ApiException as e:
            assert e.status == 404, e
            assert status_of(e)["message"] == 'namespaces "team-a" not found'
            return True
        assert current.status.phase == "Terminating"
        assert current.metadata.deletion_timestamp is not None
        return False

    eventually(gone)
    # Its content went with it.
    assert core.list_namespaced_config_map("team-a").items == []
