"""kube's errors surfaced by the official client as kubernetes.client.ApiException: the HTTP status
and a metav1.Status body with kube's reason, message and details."""

import kubernetes
import pytest
from kubernetes.client import V1ConfigMap, V1ObjectMeta

from helpers import status_of


def _config_map(name, **data):
    return V1ConfigMap(metadata=V1ObjectMeta(name=name), data=data or None)


def test_already_exists_is_409(core):
    core.create_namespaced_config_map("default", _config_map("dup"))
    with pytest.raises(kubernetes.client.ApiException) as e:
        core.create_namespaced_config_map("default", _config_map("dup"))
    assert e.value.status == 409
    assert e.value.reason == "Conflict"
    status = status_of(e.value)
    assert status["kind"] == "Status"
    assert status["status"] == "Failure"
    assert status["reason"] == "AlreadyExists"
    assert status["message"] == 'configmaps "dup" already exists'
    assert status["details"] == {"name": "dup", "kind": "configmaps"}
    assert status["code"] == 409


def test_not_found_is_404(core):
    with pytest.raises(kubernetes.client.ApiException) as e:
        core.read_namespaced_config_map("missing", "default")
    assert e.value.status == 404
    assert e.value.reason == "Not Found"
    status = status_of(e.value)
    assert status["reason"] == "NotFound"
    assert status["message"] == 'configmaps "missing" not found'
    assert status["details"] == {"name": "missing", "kind": "configmaps"}

    with pytest.raises(kubernetes.client.ApiException) as e:
        core.delete_namespaced_config_map("missing", "default")
    assert e.value.status == 404


def test_create_in_missing_namespace_is_404(core):
    with pytest.raises(kubernetes.client.ApiException) as e:
        core.create_namespaced_config_map("nowhere", _config_map("c"))
    assert e.value.status == 404
    status = status_of(e.value)
    assert status["reason"] == "NotFound"
    assert status["message"] == 'namespaces "nowhere" not found'


def test_stale_update_is_409_conflict(core):
    first = core.create_namespaced_config_map("default", _config_map("cm", v="1"))
    core.patch_namespaced_config_map("cm", "default", {"data": {"v": "2"}})
    first.data["v"] = "3"
    with pytest.raises(kubernetes.client.ApiException) as e:
        core.replace_namespaced_config_map("cm", "default", first)
    assert e.value.status == 409
    status = status_of(e.value)
    assert status["reason"] == "Conflict"
    assert status["message"] == (
        'Operation cannot be fulfilled on configmaps "cm": the object has been modified; '
        "please apply your changes to the latest version and try again"
    )


def test_invalid_name_is_422(core):
    with pytest.raises(kubernetes.client.ApiException) as e:
        core.create_namespaced_config_map("default", _config_map("Bad_Name"))
    assert e.value.status == 422
    status = status_of(e.value)
    assert status["reason"] == "Invalid"
    assert status["details"]["name"] == "Bad_Name"
    assert status["details"]["kind"] == "ConfigMap"
    assert status["details"]["causes"][0]["field"] == "metadata.name"
    assert status["details"]["causes"][0]["reason"] == "FieldValueInvalid"
    assert status["message"].startswith(
        'ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": '
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters"
    )
