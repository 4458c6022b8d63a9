"""Shared pieces of the suite: pytester (for the plugin's own tests) and API objects built on the
plugin's kube_api_client fixture (the plugin itself comes from its installed entry point)."""

import kubernetes
import pytest

pytest_plugins = ["pytester"]


@pytest.fixture
def core(kube_api_client):
    """CoreV1Api on the freshly reset server."""
    return kubernetes.client.CoreV1Api(kube_api_client)
