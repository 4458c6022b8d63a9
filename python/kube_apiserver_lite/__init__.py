"""kube-apiserver-lite for Python tests: Server runs the binary (a Kubernetes API server for tests)
and hands out kubernetes client configurations for it; the pytest plugin (pytest_plugin, loaded
through the pytest11 entry point) provides the kube_apiserver, kube_config and kube_api_client
fixtures."""

from .binary import find_binary
from .errors import AdminError, BinaryNotFoundError, ServerError, StartError
from .server import Server

__all__ = [
    "AdminError",
    "BinaryNotFoundError",
    "Server",
    "ServerError",
    "StartError",
    "find_binary",
]
__version__ = "0.1.0"
