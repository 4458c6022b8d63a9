"""kube_apiserver_lite.Server used directly: a context manager that starts and stops the real
binary (process gone, files removed), restarts over a data dir, and its errors — no binary, a
binary that exits, one that never gets ready, one that ignores SIGTERM."""

import os
import stat
import time

import kubernetes
import pytest
from kubernetes.client import V1ConfigMap, V1ObjectMeta

import kube_apiserver_lite
from kube_apiserver_lite import BinaryNotFoundError, Server, ServerError, StartError
from helpers import eventually


def _gone(pid):
    """Whether process `pid` has ended (absent, or a zombie left for its new parent to reap)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_context_manager_starts_and_stops():
    with Server() as server:
        assert server.running
        assert server.url.startswith("https://127.0.0.1:")
        kubeconfig = server.kubeconfig_path
        assert os.path.isfile(kubeconfig)
        pid = server.pid
        assert os.getpgid(pid) == pid  # its own process group

        cfg = server.configuration()
        assert cfg.host == server.url
        assert cfg.cert_file and cfg.key_file and cfg.ssl_ca_cert  # the admin's client certificate
        with server.api_client() as client:
            version = kubernetes.client.VersionApi(client).get_code()
            assert version.major == "1"
            assert version.git_version.startswith("v1.36.")
            names = {ns.metadata.name for ns in kubernetes.client.CoreV1Api(client).list_namespace().items}
            assert "default" in names
    assert not server.running
    assert _gone(pid)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # exited and reaped
    assert not os.path.exists(os.path.dirname(kubeconfig))  # certificates and kubeconfig removed
    with pytest.raises(ServerError, match="not started"):
        server.url
    server.stop()  # stopping twice is harmless


def test_start_twice_refused_and_restart_after_stop():
    server = Server()
    server.start()
    try:
        with pytest.raises(ServerError, match="already running"):
            server.start()
        first_pid = server.pid
    finally:
        server.stop()
    server.start()
    try:
        assert server.pid != first_pid
        with server.api_client() as client:
            kubernetes.client.CoreV1Api(client).read_namespace("default")
    finally:
        server.stop()


def test_data_dir_survives_a_restart(tmp_path):
    data = tmp_path / "data"
    with Server(data_dir=str(data)) as server, server.api_client() as client:
        kubernetes.client.CoreV1Api(client).create_namespaced_config_map(
            "default", V1ConfigMap(metadata=V1ObjectMeta(name="kept"), data={"k": "v"})
        )
    assert data.is_dir()
    with Server(data_dir=str(data)) as server, server.api_client() as client:
        core = kubernetes.client.CoreV1Api(client)
        assert core.read_namespaced_config_map("kept", "default").data == {"k": "v"}
        # The initial state of a restarted server is the one it came up with.
        server.reset()
        assert core.read_namespaced_config_map("kept", "default").data == {"k": "v"}


def test_binary_not_found(tmp_path, monkeypatch):
    missing = str(tmp_path / "nope" / "kube-apiserver-lite")
    with pytest.raises(BinaryNotFoundError) as e:
        Server(binary=missing).start()
    assert str(e.value) == f"kube-apiserver-lite binary {missing!r} (binary argument) does not exist"
    assert isinstance(e.value, FileNotFoundError)

    monkeypatch.setenv("KUBE_APISERVER_LITE", missing)
    with pytest.raises(BinaryNotFoundError, match=r"\(\$KUBE_APISERVER_LITE\) does not exist"):
        Server().start()

    # Nothing named: the default places are searched and listed.
    monkeypatch.delenv("KUBE_APISERVER_LITE")
    monkeypatch.setenv("KUBEBUILDER_ASSETS", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BinaryNotFoundError) as e:
        Server().start()
    assert str(e.value).startswith(
        f"kube-apiserver-lite binary not found: tried {tmp_path}/kube-apiserver ($KUBEBUILDER_ASSETS), "
        "kube-apiserver-lite on PATH"
    )

    not_executable = tmp_path / "plain-file"
    not_executable.write_text("")
    with pytest.raises(BinaryNotFoundError, match="is not an executable file"):
        kube_apiserver_lite.find_binary(str(not_executable))


def test_binary_that_exits_is_a_start_error():
    with pytest.raises(StartError) as e:
        Server(args=["--no-such-flag"]).start()
    assert e.value.exit_code == 1
    assert "exited with code 1 before it was ready" in str(e.value)
    assert "Error: unknown flag: --no-such-flag" in e.value.output
    assert "Error: unknown flag: --no-such-flag" in str(e.value)


def test_not_ready_in_time_stops_the_whole_group(tmp_path):
    script = _script(
        tmp_path,
        "never-ready",
        f'sleep 300 &\necho $! > {tmp_path}/child\necho "starting up"\nexec sleep 300\n',
    )
    server = Server(binary=script, start_timeout=1, stop_timeout=5)
    started = time.monotonic()
    with pytest.raises(StartError) as e:
        server.start()
    assert time.monotonic() - started < 5
    assert e.value.exit_code is None
    assert f"kube-apiserver-lite {script} was not ready within 1 s (it was stopped)" in str(e.value)
    assert e.value.output == ["starting up"]
    child = int((tmp_path / "child").read_text())
    eventually(lambda: _gone(child), timeout=5)  # SIGTERM went to the process group
    assert not server.running


def test_sigkill_after_stop_timeout(tmp_path):
    # A stand-in that reports ready, writes a kubeconfig and ignores SIGTERM (an ignored signal
    # stays ignored across exec).
    kubeconfig = (
        "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
        "clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n    insecure-skip-tls-verify: true\n"
        "contexts:\n- name: c\n  context:\n    cluster: c\n    user: u\n"
        "users:\n- name: u\n  user:\n    token: t\n"
    )
    script = _script(
        tmp_path,
        "stubborn",
        'while [ $# -gt 0 ]; do [ "$1" = --kubeconfig-out ] && out="$2"; shift; done\n'
        f"cat > \"$out.tmp\" <<'EOF'\n{kubeconfig}EOF\n"
        'mv "$out.tmp" "$out"\n'
        "trap '' TERM\n"
        'echo "ready: https://127.0.0.1:1"\n'
        "exec sleep 300\n",
    )
    server = Server(binary=script, stop_timeout=0.5).start()
    assert server.url == "https://127.0.0.1:1"
    pid = server.pid
    started = time.monotonic()
    server.stop()
    elapsed = time.monotonic() - started
    assert 0.5 <= elapsed < 5
    assert _gone(pid)
