"""Server-side apply (PATCH application/apply-patch+yaml): through the dynamic client, with field
managers, conflicts and force; and a YAML body sent with ApiClient.call_api."""

import json

import kubernetes
import pytest
from kubernetes.dynamic import DynamicClient

from helpers import status_of


@pytest.fixture
def config_maps(kube_api_client):
    return DynamicClient(kube_api_client).resources.get(api_version="v1", kind="ConfigMap")


def _config_map(**data):
    """The applied configuration: a ConfigMap with `data`, or without the field when there is none."""
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "applied", "namespace": "default"}}
    if data:
        obj["data"] = data
    return obj


def _managers(obj):
    return {(m["manager"], m["operation"]) for m in obj["metadata"]["managedFields"]}


def test_apply_creates_then_merges_by_manager(config_maps):
    created = config_maps.server_side_apply(body=_config_map(a="1"), namespace="default", field_manager="alice")
    assert created.data.a == "1"
    obj = created.to_dict()
    assert _managers(obj) == {("alice", "Apply")}
    fields = obj["metadata"]["managedFields"][0]
    assert fields["fieldsType"] == "FieldsV1"
    assert fields["fieldsV1"] == {"f:data": {"f:a": {}}}

    # Another manager's apply adds its field and leaves alice's.
    both = config_maps.server_side_apply(body=_config_map(b="2"), namespace="default", field_manager="bob").to_dict()
    assert both["data"] == {"a": "1", "b": "2"}
    assert _managers(both) == {("alice", "Apply"), ("bob", "Apply")}

    # alice no longer applying a field removes it (nobody else owns it).
    fewer = config_maps.server_side_apply(body=_config_map(), namespace="default", field_manager="alice").to_dict()
    assert fewer["data"] == {"b": "2"}


def test_apply_conflict_is_409_until_forced(config_maps):
    config_maps.server_side_apply(body=_config_map(key="alice"), namespace="default", field_manager="alice")
    with pytest.raises(kubernetes.client.ApiException) as e:
        config_maps.server_side_apply(body=_config_map(key="bob"), namespace="default", field_manager="bob")
    assert e.value.status == 409
    status = status_of(e.value)
    assert status["reason"] == "Conflict"
    assert status["message"] == 'Apply failed with 1 conflict: conflict with "alice": .data.key'
    assert status["details"]["causes"] == [
        {"reason": "FieldManagerConflict", "message": 'conflict with "alice"', "field": ".data.key"}
    ]

    forced = config_maps.server_side_apply(
        body=_config_map(key="bob"), namespace="default", field_manager="bob", force_conflicts=True
    ).to_dict()
    assert forced["data"] == {"key": "bob"}
    owners = {m["manager"]: m.get("fieldsV1", {}) for m in forced["metadata"]["managedFields"]}
    assert owners["bob"] == {"f:data": {"f:key": {}}}
    assert "alice" not in owners  # it owned nothing else


DEPLOYMENT_YAML = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: applied
  labels:
    app: applied
spec:
  replicas: 1
  selector:
    matchLabels:
      app: applied
  template:
    metadata:
      labels:
        app: applied
    spec:
      containers:
      - name: web
        image: nginx:1.27
"""


def test_apply_yaml_with_call_api(kube_api_client):
    url = kube_api_client.configuration.host + "/apis/apps/v1/namespaces/default/deployments/applied?fieldManager=yaml-test"
    headers = {"Content-Type": "application/apply-patch+yaml", "Accept": "application/json"}
    response = kube_api_client.call_api("PATCH", url, header_params=headers, body=DEPLOYMENT_YAML)
    body = json.loads(response.read())
    assert response.status == 201  # apply creates an absent object
    assert body["kind"] == "Deployment"
    assert body["spec"]["replicas"] == 1
    assert body["spec"]["strategy"]["type"] == "RollingUpdate"  # defaulted as on create
    assert {(m["manager"], m["operation"]) for m in body["metadata"]["managedFields"]} == {("yaml-test", "Apply")}

    response = kube_api_client.call_api(
        "PATCH", url, header_params=headers, body=DEPLOYMENT_YAML.replace("replicas: 1", "replicas: 3")
    )
    body = json.loads(response.read())
    assert response.status == 200
    assert body["spec"]["replicas"] == 3
    assert body["metadata"]["generation"] == 2

    got = kubernetes.client.AppsV1Api(kube_api_client).read_namespaced_deployment("applied", "default")
    assert got.spec.replicas == 3
