"""The client of kube-apiserver-lite's admin API (/admin/reset, /admin/snapshots/...), over urllib
with the admin client certificate of the server's kubeconfig."""

import json
import ssl
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Optional

from .errors import AdminError, ServerError

USER_AGENT = "pytest-kube-apiserver-lite"


class AdminClient:
    """Calls the admin API of one server.

    `url` is the server's base URL (https://127.0.0.1:PORT). For HTTPS, `ca_file` verifies the
    serving certificate (unless `verify` is false) and `cert_file`/`key_file` are the client
    certificate (it must be in system:masters, as the kubeconfig's admin is). Proxies from the
    environment are never used: the server is on loopback. Thread-safe.
    """

    def __init__(
        self,
        url: str,
        ca_file: Optional[str] = None,
        cert_file: Optional[str] = None,
        key_file: Optional[str] = None,
        verify: bool = True,
        timeout: float = 30.0,
    ):
        self.url = url.rstrip("/")
        self.timeout = timeout
        handlers: list = [urllib.request.ProxyHandler({})]
        if self.url.startswith("https://"):
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            if verify and ca_file:
                context.load_verify_locations(cafile=ca_file)
            elif verify:
                context.load_default_certs()
            else:
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
            if cert_file:
                context.load_cert_chain(cert_file, key_file)
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self._opener = urllib.request.build_opener(*handlers)

    def call(self, method: str, path: str) -> Dict[str, Any]:
        """Sends `method` to `path` (no body) and returns the decoded JSON answer.

        Raises AdminError (status, Status reason and message) for an HTTP error, ServerError when
        the server cannot be reached or answers something that is not JSON.
        """
        data = b"" if method in ("POST", "PUT") else None
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Accept": "application/json", "User-Agent": USER_AGENT},
        )
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                body = response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            with e:
                text = e.read().decode("utf-8", "replace")
            reason, message = e.reason or "", text
            try:
                status = json.loads(text)
            except ValueError:
                status = None
            if isinstance(status, dict):
                reason = status.get("reason") or reason
                message = status.get("message") or message
            raise AdminError(method, path, e.code, str(reason), str(message), text) from None
        except (urllib.error.URLError, OSError) as e:
            raise ServerError(f"{method} {self.url}{path}: {e}") from e
        try:
            return json.loads(body)
        except ValueError:
            raise ServerError(f"{method} {self.url}{path}: the answer is not JSON: {body[:200]!r}") from None


def snapshot_path(name: str, suffix: str = "") -> str:
    """/admin/snapshots/{name}{suffix}, the name percent-encoded as one path segment."""
    return "/admin/snapshots/" + urllib.parse.quote(name, safe="") + suffix
