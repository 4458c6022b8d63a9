"""A Deployment through AppsV1Api: kube's defaults, the scale subresource, generation, validation."""

import kubernetes
import pytest
from kubernetes.client import (
    V1Container,
    V1Deployment,
    V1DeploymentSpec,
    V1LabelSelector,
    V1ObjectMeta,
    V1PodSpec,
    V1PodTemplateSpec,
)

from helpers import status_of


def _deployment(name, selector_labels, template_labels, replicas=2):
    return V1Deployment(
        metadata=V1ObjectMeta(name=name),
        spec=V1DeploymentSpec(
            replicas=replicas,
            selector=V1LabelSelector(match_labels=selector_labels),
            template=V1PodTemplateSpec(
                metadata=V1ObjectMeta(labels=template_labels),
                spec=V1PodSpec(containers=[V1Container(name="web", image="nginx:1.27")]),
            ),
        ),
    )


@pytest.fixture
def apps(kube_api_client):
    return kubernetes.client.AppsV1Api(kube_api_client)


def test_deployment_defaults_scale_and_delete(apps):
    created = apps.create_namespaced_deployment("default", _deployment("web", {"app": "web"}, {"app": "web"}))
    assert created.metadata.generation == 1
    spec = created.spec
    assert spec.replicas == 2
    assert spec.strategy.type == "RollingUpdate"
    assert spec.strategy.rolling_update.max_surge == "25%"
    assert spec.strategy.rolling_update.max_unavailable == "25%"
    assert spec.revision_history_limit == 10
    assert spec.progress_deadline_seconds == 600
    pod = spec.template.spec
    assert pod.restart_policy == "Always"
    assert pod.dns_policy == "ClusterFirst"
    assert pod.termination_grace_period_seconds == 30
    assert pod.scheduler_name == "default-scheduler"
    container = pod.containers[0]
    assert container.image_pull_policy == "IfNotPresent"
    assert container.termination_message_path == "/dev/termination-log"
    assert container.termination_message_policy == "File"

    scale = apps.read_namespaced_deployment_scale("web", "default")
    assert scale.spec.replicas == 2
    assert scale.status.selector == "app=web"

    apps.patch_namespaced_deployment_scale("web", "default", {"spec": {"replicas": 5}})
    got = apps.read_namespaced_deployment("web", "default")
    assert got.spec.replicas == 5
    assert got.metadata.generation == 2

    everywhere = apps.list_deployment_for_all_namespaces()
    assert [(d.metadata.namespace, d.metadata.name) for d in everywhere.items] == [("default", "web")]

    apps.delete_namespaced_deployment("web", "default")
    with pytest.raises(kubernetes.client.ApiException) as e:
        apps.read_namespaced_deployment("web", "default")
    assert e.value.status == 404
    assert status_of(e.value)["message"] == 'deployments.apps "web" not found'


def test_deployment_selector_must_match_template(apps):
    with pytest.raises(kubernetes.client.ApiException) as e:
        apps.create_namespaced_deployment("default", _deployment("bad", {"app": "web"}, {"app": "other"}))
    assert e.value.status == 422
    status = status_of(e.value)
    assert status["reason"] == "Invalid"
    assert status["details"]["kind"] == "Deployment"
    assert status["details"]["group"] == "apps"
    assert status["message"].startswith('Deployment.apps "bad" is invalid: ')
    assert "spec.template.metadata.labels" in [c["field"] for c in status["details"]["causes"]]
    assert "`selector` does not match template `labels`" in status["message"]
