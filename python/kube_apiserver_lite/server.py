"""Server: one kube-apiserver-lite process for tests — started on a free loopback HTTPS port in its
own process group, its kubeconfig loaded into kubernetes client configurations, reset and
snapshots through the admin API, stopped with SIGTERM (SIGKILL when it does not exit)."""

import collections
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from typing import Any, Deque, Dict, List, Optional, Sequence

import kubernetes.client
import kubernetes.config

from .admin import AdminClient, snapshot_path
from .binary import find_binary
from .errors import ServerError, StartError

_log = logging.getLogger(__name__)

READY_PREFIX = "ready: https://"
_OUTPUT_LINES = 200


def _drain(stream, sink: Deque[str], on_line) -> None:
    """Reads `stream` to its end, keeping the last lines in `sink` (so the child never blocks on a
    full pipe) and handing each line to `on_line`."""
    with stream:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            sink.append(line)
            _log.debug("%s", line)
            on_line(line)


def _terminate(proc: subprocess.Popen, timeout: float) -> None:
    """SIGTERM to the process group, then SIGKILL when it has not exited after `timeout` s."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout)
        return
    except subprocess.TimeoutExpired:
        _log.warning("kube-apiserver-lite (pid %d) did not exit %.1f s after SIGTERM: SIGKILL", proc.pid, timeout)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _shutdown(proc: subprocess.Popen, threads: List[threading.Thread], tmpdir: str, timeout: float) -> None:
    """Everything stop() undoes; also the finalizer of a Server dropped or alive at exit."""
    try:
        _terminate(proc, timeout)
    finally:
        for t in threads:
            t.join(5.0)
        shutil.rmtree(tmpdir, ignore_errors=True)


class Server:
    """A kube-apiserver-lite process.

    `binary`: the executable (see find_binary: the argument, else $KUBE_APISERVER_LITE, else
    $KUBEBUILDER_ASSETS/kube-apiserver, else kube-apiserver-lite on PATH), resolved by start().
    `args`: more flags, after the ones the Server sets (`--secure-port 0`, `--cert-dir`,
    `--kubeconfig-out`, `--data-dir`): do not override those. `data_dir`: persist there (kept
    after stop) instead of in memory. `start_timeout`: seconds start() waits for the server to be
    ready; `stop_timeout`: seconds stop() waits after SIGTERM before SIGKILL.

    Use start()/stop() or `with Server() as server:`. A Server starts at most once at a time; it
    may be started again after stop() (a new process, new port, new certificates). Certificates
    and the kubeconfig live in a temporary directory removed by stop(). A Server dropped while
    running, or still running at interpreter exit, is stopped. POSIX only (process groups).
    Methods may be called from several threads, but start() and stop() not concurrently.
    """

    def __init__(
        self,
        binary: Optional[str] = None,
        args: Sequence[str] = (),
        data_dir: Optional[str] = None,
        start_timeout: float = 20.0,
        stop_timeout: float = 20.0,
    ):
        if isinstance(args, (str, bytes)):
            raise TypeError("args must be a sequence of flags, not one string")
        self._binary_arg = binary
        self.args = tuple(str(a) for a in args)
        self.data_dir = os.fspath(data_dir) if data_dir is not None else None
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self._binary: Optional[str] = None
        self._proc: Optional[subprocess.Popen] = None
        self._url: Optional[str] = None
        self._kubeconfig: Optional[str] = None
        self._admin: Optional[AdminClient] = None
        self._finalizer: Optional[weakref.finalize] = None
        self._output: Deque[str] = collections.deque(maxlen=_OUTPUT_LINES)

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> "Server":
        """Starts the server and returns self once it serves and its kubeconfig is written.

        Raises BinaryNotFoundError when there is no binary, StartError (exit code and the last
        output lines) when it exits before it is ready or is not ready within start_timeout (it is
        then stopped), ServerError when this Server is already running.
        """
        if self.running:
            raise ServerError(f"kube-apiserver-lite is already running at {self._url}")
        binary = find_binary(self._binary_arg)
        tmpdir = tempfile.mkdtemp(prefix="kube-apiserver-lite-")
        kubeconfig = os.path.join(tmpdir, "kubeconfig")
        command = [
            binary,
            "--secure-port", "0",
            "--cert-dir", os.path.join(tmpdir, "certs"),
            "--kubeconfig-out", kubeconfig,
        ]
        if self.data_dir is not None:
            command += ["--data-dir", self.data_dir]
        command += self.args
        self._output.clear()
        ready = threading.Event()
        found: Dict[str, str] = {}

        def on_stdout(line: str) -> None:
            if not ready.is_set() and line.startswith(READY_PREFIX):
                found["url"] = line[len("ready: "):].strip()
                ready.set()

        try:
            proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as e:
            shutil.rmtree(tmpdir, ignore_errors=True)
            raise StartError(f"cannot run {binary}: {e}", None, []) from e
        threads = [
            threading.Thread(target=_drain, args=(proc.stdout, self._output, on_stdout), daemon=True,
                             name=f"kube-apiserver-lite-{proc.pid}-stdout"),
            threading.Thread(target=_drain, args=(proc.stderr, self._output, lambda line: None), daemon=True,
                             name=f"kube-apiserver-lite-{proc.pid}-stderr"),
        ]
        for t in threads:
            t.start()
        finalizer = weakref.finalize(self, _shutdown, proc, threads, tmpdir, self.stop_timeout)
        try:
            self._wait_ready(proc, threads, ready, kubeconfig, binary, command)
            admin_cfg = self._load(kubeconfig)
        except BaseException:
            finalizer()
            raise
        self._binary, self._proc, self._finalizer = binary, proc, finalizer
        self._url, self._kubeconfig = found["url"], kubeconfig
        self._admin = AdminClient(
            admin_cfg.host,
            ca_file=admin_cfg.ssl_ca_cert,
            cert_file=admin_cfg.cert_file,
            key_file=admin_cfg.key_file,
            verify=admin_cfg.verify_ssl,
        )
        return self

    def _wait_ready(self, proc, threads, ready, kubeconfig, binary, command) -> None:
        deadline = time.monotonic() + self.start_timeout
        while not ready.wait(0.02):
            if proc.poll() is not None or time.monotonic() >= deadline:
                break
        else:
            # The kubeconfig is written (atomically) once the server is ready.
            while not os.path.exists(kubeconfig):
                if proc.poll() is not None or time.monotonic() >= deadline:
                    break
                time.sleep(0.01)
            else:
                return
        code = proc.poll()
        if code is None:
            what = f"was not ready within {self.start_timeout:g} s (it was stopped)"
        else:
            for t in threads:  # they end at EOF, with the last lines of output
                t.join(2.0)
            what = f"exited with code {code} before it was ready"
        _terminate(proc, self.stop_timeout)
        output = list(self._output)
        lines = "\n".join("  " + line for line in output[-40:]) or "  (no output)"
        raise StartError(
            f"kube-apiserver-lite {binary} {what}\ncommand: {' '.join(command)}\noutput:\n{lines}",
            code,
            output,
        )

    @staticmethod
    def _load(kubeconfig: str) -> kubernetes.client.Configuration:
        cfg = kubernetes.client.Configuration()
        kubernetes.config.load_kube_config(config_file=kubeconfig, client_configuration=cfg, persist_config=False)
        return cfg

    def stop(self) -> None:
        """Stops the server: SIGTERM to its process group, SIGKILL after stop_timeout, then
        removes its temporary directory. Does nothing when it is not running."""
        finalizer, self._finalizer = self._finalizer, None
        self._proc = self._admin = self._url = self._kubeconfig = None
        if finalizer is not None:
            finalizer()

    def __enter__(self) -> "Server":
        if not self.running:
            self.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    # -- state ----------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether start() succeeded, stop() was not called and the process has not exited."""
        return self._proc is not None and self._proc.poll() is None

    def _require(self) -> None:
        if self._proc is None:
            raise ServerError("kube-apiserver-lite is not started")
        code = self._proc.poll()
        if code is not None:
            raise ServerError(f"kube-apiserver-lite exited with code {code}; last output:\n" + "\n".join(self.output[-20:]))

    @property
    def url(self) -> str:
        """The HTTPS base URL, https://127.0.0.1:PORT. Raises ServerError when not running."""
        self._require()
        assert self._url is not None
        return self._url

    @property
    def kubeconfig_path(self) -> str:
        """The kubeconfig the server wrote (CA and an admin client certificate in system:masters),
        for kubectl or other clients. Removed by stop(). Raises ServerError when not running."""
        self._require()
        assert self._kubeconfig is not None
        return self._kubeconfig

    @property
    def binary(self) -> Optional[str]:
        """The absolute path of the running binary (None before start())."""
        return self._binary

    @property
    def pid(self) -> Optional[int]:
        """The process id (also its process group id), None when not started."""
        return self._proc.pid if self._proc is not None else None

    @property
    def output(self) -> List[str]:
        """The last lines the process wrote on stdout and stderr (at most 200), oldest first."""
        return list(self._output)

    def configuration(self) -> kubernetes.client.Configuration:
        """A new kubernetes.client.Configuration for the admin user (host, CA, client
        certificate), loaded from the kubeconfig; each call returns a fresh one that the caller
        may change. Raises ServerError when not running."""
        return self._load(self.kubeconfig_path)

    def api_client(self) -> kubernetes.client.ApiClient:
        """A new kubernetes.client.ApiClient on configuration(); close it (or use `with`)."""
        return kubernetes.client.ApiClient(self.configuration())

    # -- admin API ------------------------------------------------------------------------------

    def _call(self, method: str, path: str) -> Dict[str, Any]:
        self._require()
        assert self._admin is not None
        return self._admin.call(method, path)

    def reset(self) -> Dict[str, Any]:
        """Brings the server back to its initial state (the one it reported ready with). Every
        open watch ends with a 410 Expired ERROR event. Returns the Success Status (its
        metadata.resourceVersion is the revision after the reset). Snapshots are kept.

        Raises AdminError (status, reason, message) when the server refuses."""
        return self._call("POST", "/admin/reset")

    def snapshot(self, name: str) -> Dict[str, Any]:
        """Saves the current state under `name` ([A-Za-z0-9._-], 1 to 253 characters), replacing
        a snapshot of that name. Returns the Success Status; AdminError 400 for an invalid name."""
        return self._call("POST", snapshot_path(name))

    def restore(self, name: str) -> Dict[str, Any]:
        """Restores the state saved as `name` (the snapshot stays); open watches end with 410.
        Returns the Success Status; AdminError 404 NotFound for an unknown snapshot."""
        return self._call("POST", snapshot_path(name, "/restore"))

    def delete_snapshot(self, name: str) -> Dict[str, Any]:
        """Forgets the snapshot `name`. Returns the Success Status; AdminError 404 NotFound for an
        unknown snapshot."""
        return self._call("DELETE", snapshot_path(name))

    def snapshots(self) -> List[Dict[str, Any]]:
        """The saved snapshots, each {"name", "resourceVersion", "objects", "bytes"}."""
        return list(self._call("GET", "/admin/snapshots").get("items") or [])

    def snapshot_list(self) -> Dict[str, Any]:
        """The whole SnapshotList answer: {"kind": "SnapshotList", "initial": {...}, "items": [...]},
        `initial` describing the initial state that reset() restores."""
        return self._call("GET", "/admin/snapshots")

    def __repr__(self) -> str:
        state = f"running at {self._url}" if self.running else "stopped"
        return f"<kube_apiserver_lite.Server {state}>"
