"""The pytest plugin itself, through pytester sessions: it is loaded from its installed pytest11
entry point, finds the binary from --kube-apiserver-lite, the ini key, $KUBE_APISERVER_LITE or
$KUBEBUILDER_ASSETS, isolates tests by resetting, and reports a server that cannot start."""

import os
from importlib.metadata import entry_points

import pytest

import kube_apiserver_lite.pytest_plugin

INNER_TEST = """
import kubernetes


def test_inner(kube_apiserver, kube_api_client):
    assert kube_apiserver.binary == {binary!r}
    names = [ns.metadata.name for ns in kubernetes.client.CoreV1Api(kube_api_client).list_namespace().items]
    assert "default" in names
"""


@pytest.fixture
def binary(kube_apiserver):
    """The real binary, as the outer session found it ($KUBEBUILDER_ASSETS/kube-apiserver)."""
    return kube_apiserver.binary


@pytest.fixture
def bare_env(monkeypatch, tmp_path):
    """No binary from the environment: neither variable set, nothing on PATH."""
    monkeypatch.delenv("KUBE_APISERVER_LITE", raising=False)
    monkeypatch.delenv("KUBEBUILDER_ASSETS", raising=False)
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


def _link(pytester, binary, relative="bin/kube-apiserver-lite"):
    """A symlink to the binary inside the pytester directory (its name keeps argv[0]'s meaning)."""
    link = pytester.path / relative
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(binary)
    return str(link)


def test_loaded_from_its_entry_point(request):
    found = [ep for ep in entry_points(group="pytest11") if ep.name == "kube_apiserver_lite"]
    assert [ep.value for ep in found] == ["kube_apiserver_lite.pytest_plugin"]
    assert request.config.pluginmanager.get_plugin("kube_apiserver_lite") is kube_apiserver_lite.pytest_plugin


def test_option_names_the_binary(pytester, binary, bare_env):
    pytester.makepyfile(INNER_TEST.format(binary=binary))
    result = pytester.runpytest(f"--kube-apiserver-lite={binary}")
    result.assert_outcomes(passed=1)


def test_option_relative_to_the_invocation_directory(pytester, binary, bare_env):
    link = _link(pytester, binary)
    pytester.makepyfile(INNER_TEST.format(binary=link))
    result = pytester.runpytest("--kube-apiserver-lite=bin/kube-apiserver-lite")
    result.assert_outcomes(passed=1)


def test_option_wins_over_the_environment(pytester, binary, bare_env, monkeypatch):
    monkeypatch.setenv("KUBE_APISERVER_LITE", "/nonexistent/kube-apiserver-lite")
    pytester.makepyfile(INNER_TEST.format(binary=binary))
    pytester.runpytest(f"--kube-apiserver-lite={binary}").assert_outcomes(passed=1)


def test_ini_key_names_the_binary(pytester, binary, bare_env):
    link = _link(pytester, binary, "tools/kube-apiserver-lite")
    pytester.makeini("[pytest]\nkube_apiserver_lite_binary = tools/kube-apiserver-lite\n")
    pytester.makepyfile(INNER_TEST.format(binary=link))
    pytester.runpytest().assert_outcomes(passed=1)


def test_env_kube_apiserver_lite(pytester, binary, bare_env, monkeypatch):
    monkeypatch.setenv("KUBE_APISERVER_LITE", binary)
    pytester.makepyfile(INNER_TEST.format(binary=binary))
    pytester.runpytest().assert_outcomes(passed=1)


def test_env_kubebuilder_assets(pytester, binary, bare_env, monkeypatch):
    link = _link(pytester, binary, "assets/kube-apiserver")
    monkeypatch.setenv("KUBEBUILDER_ASSETS", os.path.dirname(link))
    pytester.makepyfile(INNER_TEST.format(binary=link))
    pytester.runpytest().assert_outcomes(passed=1)


def test_missing_binary_is_reported(pytester, bare_env):
    pytester.makepyfile(INNER_TEST.format(binary=None))
    result = pytester.runpytest("--kube-apiserver-lite=/nonexistent/kube-apiserver-lite")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*kube-apiserver-lite did not start: kube-apiserver-lite binary "
            "'/nonexistent/kube-apiserver-lite' (--kube-apiserver-lite) does not exist*"
        ]
    )

    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*kube-apiserver-lite did not start: kube-apiserver-lite binary not found: tried *"])


def test_failing_start_is_reported(pytester, binary, bare_env):
    pytester.makeini("[pytest]\nkube_apiserver_lite_args = --no-such-flag\n")
    pytester.makepyfile(
        """
        def test_one(kube_config):
            pass

        def test_two(kube_api_client):
            pass
        """
    )
    result = pytester.runpytest(f"--kube-apiserver-lite={binary}")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        [
            f"*kube-apiserver-lite did not start: kube-apiserver-lite {binary} exited with code 1 before it was ready",
            f"*command: {binary} --secure-port 0 --cert-dir * --kubeconfig-out * --no-such-flag",
            "*output:",
            "*  Error: unknown flag: --no-such-flag",
        ]
    )


def test_failing_start_is_tried_once(pytester, bare_env):
    runs = pytester.path / "runs"
    script = pytester.path / "broken-server"
    script.write_text(f'#!/bin/sh\necho run >> {runs}\necho "boom: cannot bind" >&2\nexit 3\n')
    script.chmod(0o755)
    pytester.makepyfile(
        """
        def test_one(kube_apiserver):
            pass

        def test_two(kube_apiserver):
            pass
        """
    )
    result = pytester.runpytest(f"--kube-apiserver-lite={script}")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*exited with code 3 before it was ready*", "*  boom: cannot bind"])
    assert runs.read_text() == "run\n"  # the session fixture's failure is cached, not retried


def test_tests_of_one_session_are_isolated(pytester, binary, bare_env):
    pytester.makepyfile(
        """
        import kubernetes
        from kubernetes.client import V1ConfigMap, V1ObjectMeta

        PIDS = []

        def test_a_creates(kube_apiserver, kube_api_client):
            PIDS.append(kube_apiserver.pid)
            core = kubernetes.client.CoreV1Api(kube_api_client)
            core.create_namespaced_config_map("default", V1ConfigMap(metadata=V1ObjectMeta(name="from-a")))

        def test_b_does_not_see_it(kube_apiserver, kube_api_client):
            PIDS.append(kube_apiserver.pid)
            core = kubernetes.client.CoreV1Api(kube_api_client)
            assert core.list_namespaced_config_map("default").items == []
            assert PIDS[0] == PIDS[1]  # one server for the session
        """
    )
    result = pytester.runpytest(f"--kube-apiserver-lite={binary}", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*test_a_creates PASSED*", "*test_b_does_not_see_it PASSED*"])
