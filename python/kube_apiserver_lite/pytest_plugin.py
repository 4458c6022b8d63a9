"""The pytest plugin (entry point pytest11 `kube_apiserver_lite`): one kube-apiserver-lite per test
session, reset before every test that asks for a client.

Fixtures:
    kube_apiserver   session scope: a started Server, stopped when the session ends.
    kube_config      function scope: resets the server (back to its initial state), then returns a
                     new kubernetes.client.Configuration for the admin.
    kube_api_client  function scope: a kubernetes.client.ApiClient on kube_config, closed after
                     the test.

The binary: the option --kube-apiserver-lite=PATH (relative to the invocation directory), else the
ini key kube_apiserver_lite_binary (relative to the ini file), else Server's own search
($KUBE_APISERVER_LITE, $KUBEBUILDER_ASSETS/kube-apiserver, kube-apiserver-lite on PATH). The ini
keys kube_apiserver_lite_args (more flags, shell-split) and kube_apiserver_lite_start_timeout
(seconds) tune the start. A server that cannot start fails every test using it with the reason
and the server's last output. With pytest-xdist each worker has its own server.
"""

import os
from typing import Iterator, Optional

import kubernetes.client
import pytest

from .binary import find_binary
from .errors import ServerError
from .server import Server

OPTION = "--kube-apiserver-lite"
INI_BINARY = "kube_apiserver_lite_binary"
INI_ARGS = "kube_apiserver_lite_args"
INI_START_TIMEOUT = "kube_apiserver_lite_start_timeout"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("kube-apiserver-lite", "kube-apiserver-lite (a Kubernetes API server for tests)")
    group.addoption(
        OPTION,
        dest="kube_apiserver_lite",
        metavar="PATH",
        default=None,
        help="the kube-apiserver-lite binary (default: ini kube_apiserver_lite_binary, "
        "$KUBE_APISERVER_LITE, $KUBEBUILDER_ASSETS/kube-apiserver, kube-apiserver-lite on PATH)",
    )
    parser.addini(INI_BINARY, "the kube-apiserver-lite binary, relative to the ini file (--kube-apiserver-lite wins)")
    parser.addini(INI_ARGS, "more kube-apiserver-lite flags for the session's server", type="args", default=[])
    parser.addini(INI_START_TIMEOUT, "seconds to wait for the server to be ready (default 20)", default="20")


def _relative_to(base: Optional[os.PathLike], value: str) -> str:
    if os.path.isabs(value) or base is None or os.sep not in value:
        return value  # absolute, or a command name looked up on PATH
    return os.path.join(os.fspath(base), value)


def configured_binary(config: pytest.Config) -> Optional[str]:
    """The binary named by the option or the ini key, resolved to an absolute path, or None for
    Server's default search. Raises BinaryNotFoundError when the named one is not there."""
    option = config.getoption("kube_apiserver_lite")
    if option:
        return find_binary(_relative_to(config.invocation_params.dir, option), source=OPTION)
    ini = config.getini(INI_BINARY)
    if ini:
        inipath = getattr(config, "inipath", None)
        base = inipath.parent if inipath is not None else config.rootpath
        return find_binary(_relative_to(base, ini), source=f"ini {INI_BINARY}")
    return None


@pytest.fixture(scope="session")
def kube_apiserver(pytestconfig: pytest.Config) -> Iterator[Server]:
    """The session's kube-apiserver-lite Server, started on first use, stopped at the end."""
    try:
        timeout = float(pytestconfig.getini(INI_START_TIMEOUT))
    except ValueError:
        raise pytest.UsageError(f"{INI_START_TIMEOUT} must be a number of seconds") from None
    failure = None
    try:
        server = Server(
            binary=configured_binary(pytestconfig),
            args=pytestconfig.getini(INI_ARGS),
            start_timeout=timeout,
        )
        server.start()
    except ServerError as e:
        failure = str(e)
    if failure is not None:  # outside the except: no "during handling" chain in the report
        pytest.fail(f"kube-apiserver-lite did not start: {failure}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def kube_config(kube_apiserver: Server) -> kubernetes.client.Configuration:
    """Resets the server to its initial state, then returns a new Configuration for its admin."""
    kube_apiserver.reset()
    return kube_apiserver.configuration()


@pytest.fixture
def kube_api_client(kube_config: kubernetes.client.Configuration) -> Iterator[kubernetes.client.ApiClient]:
    """An ApiClient on kube_config (the server just reset), closed after the test."""
    client = kubernetes.client.ApiClient(kube_config)
    try:
        yield client
    finally:
        client.close()
