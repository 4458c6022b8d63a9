"""A CustomResourceDefinition through ApiextensionsV1Api, waited for until Established, then its
custom resources through CustomObjectsApi: CRUD, schema validation, the status subresource; a
reset takes the CRD away again."""

import kubernetes
import pytest
from kubernetes.client import (
    V1CustomResourceDefinition,
    V1CustomResourceDefinitionNames,
    V1CustomResourceDefinitionSpec,
    V1CustomResourceDefinitionVersion,
    V1CustomResourceSubresources,
    V1CustomResourceValidation,
    V1JSONSchemaProps,
    V1ObjectMeta,
)

from helpers import eventually, status_of

GROUP, VERSION, PLURAL = "example.com", "v1", "widgets"


def _widget_crd():
    schema = V1JSONSchemaProps(
        type="object",
        properties={
            "spec": V1JSONSchemaProps(
                type="object",
                required=["size"],
                properties={
                    "size": V1JSONSchemaProps(type="integer", minimum=1),
                    "color": V1JSONSchemaProps(type="string", default="blue"),
                },
            ),
            "status": V1JSONSchemaProps(
                type="object", properties={"ready": V1JSONSchemaProps(type="boolean")}
            ),
        },
    )
    return V1CustomResourceDefinition(
        metadata=V1ObjectMeta(name=f"{PLURAL}.{GROUP}"),
        spec=V1CustomResourceDefinitionSpec(
            group=GROUP,
            scope="Namespaced",
            names=V1CustomResourceDefinitionNames(plural=PLURAL, singular="widget", kind="Widget", list_kind="WidgetList"),
            versions=[
                V1CustomResourceDefinitionVersion(
                    name=VERSION,
                    served=True,
                    storage=True,
                    schema=V1CustomResourceValidation(open_apiv3_schema=schema),
                    subresources=V1CustomResourceSubresources(status={}),
                )
            ],
        ),
    )


def _established(ext, name):
    crd = ext.read_custom_resource_definition(name)
    conditions = {c.type: c.status for c in (crd.status.conditions or [])} if crd.status else {}
    return conditions.get("Established") == "True" and conditions.get("NamesAccepted") == "True"


@pytest.fixture
def widgets(kube_api_client):
    """Creates the Widget CRD, waits until it is Established, returns CustomObjectsApi."""
    ext = kubernetes.client.ApiextensionsV1Api(kube_api_client)
    ext.create_custom_resource_definition(_widget_crd())
    eventually(lambda: _established(ext, f"{PLURAL}.{GROUP}"))
    return kubernetes.client.CustomObjectsApi(kube_api_client)


def _widget(name, size):
    return {"apiVersion": f"{GROUP}/{VERSION}", "kind": "Widget", "metadata": {"name": name}, "spec": {"size": size}}


def test_custom_resource_crud(widgets):
    created = widgets.create_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, _widget("w1", 3))
    assert created["metadata"]["uid"]
    assert created["metadata"]["generation"] == 1
    assert created["spec"] == {"size": 3, "color": "blue"}  # the schema's default

    got = widgets.get_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, "w1")
    assert got["metadata"]["uid"] == created["metadata"]["uid"]

    listed = widgets.list_namespaced_custom_object(GROUP, VERSION, "default", PLURAL)
    assert listed["kind"] == "WidgetList"
    assert [w["metadata"]["name"] for w in listed["items"]] == ["w1"]

    patched = widgets.patch_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, "w1", {"spec": {"size": 7}})
    assert patched["spec"] == {"size": 7, "color": "blue"}
    assert patched["metadata"]["generation"] == 2

    # status is a subresource: the main resource ignores it, /status writes it without a new generation.
    with_status = widgets.patch_namespaced_custom_object_status(
        GROUP, VERSION, "default", PLURAL, "w1", {"status": {"ready": True}}
    )
    assert with_status["status"] == {"ready": True}
    assert with_status["metadata"]["generation"] == 2

    widgets.delete_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, "w1")
    with pytest.raises(kubernetes.client.ApiException) as e:
        widgets.get_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, "w1")
    assert e.value.status == 404
    assert status_of(e.value)["message"] == 'widgets.example.com "w1" not found'


def test_custom_resource_schema_validation(widgets):
    with pytest.raises(kubernetes.client.ApiException) as e:
        widgets.create_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, _widget("small", 0))
    assert e.value.status == 422
    status = status_of(e.value)
    assert status["reason"] == "Invalid"
    assert status["details"] == {
        "name": "small",
        "group": GROUP,
        "kind": "Widget",
        "causes": [
            {
                "reason": "FieldValueInvalid",
                "message": "Invalid value: 0: spec.size in body should be greater than or equal to 1",
                "field": "spec.size",
            }
        ],
    }
    assert status["message"] == (
        'Widget.example.com "small" is invalid: spec.size: Invalid value: 0: '
        "spec.size in body should be greater than or equal to 1"
    )


def test_reset_removes_the_crd(kube_apiserver, widgets, kube_api_client):
    widgets.create_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, _widget("w", 1))
    kube_apiserver.reset()
    ext = kubernetes.client.ApiextensionsV1Api(kube_api_client)
    with pytest.raises(kubernetes.client.ApiException) as e:
        ext.read_custom_resource_definition(f"{PLURAL}.{GROUP}")
    assert e.value.status == 404
    with pytest.raises(kubernetes.client.ApiException) as e:
        widgets.list_namespaced_custom_object(GROUP, VERSION, "default", PLURAL)
    assert e.value.status == 404
