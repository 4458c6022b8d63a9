"""The exceptions of kube_apiserver_lite.

Every exception raised on purpose by this package is a ServerError: the binary cannot be found
(BinaryNotFoundError), the server does not come up (StartError), or an admin call is refused
(AdminError, which is also a kubernetes.client.ApiException, as the client's own calls raise).
"""

from typing import Optional, Sequence

from kubernetes.client import ApiException


class ServerError(Exception):
    """Base class of this package's errors; also raised for a server that is not running."""


class BinaryNotFoundError(ServerError, FileNotFoundError):
    """No kube-apiserver-lite binary where one was asked for or looked for.

    The message says what was tried: the name given (argument, option or environment variable), or
    each place of the default search.
    """


class StartError(ServerError):
    """The server exited, or did not report ready in time, during Server.start().

    Attributes:
        exit_code: the process's exit code, or None when it was still running (a timeout; it was
            then stopped).
        output: the last lines the process wrote on stdout and stderr, oldest first.
    """

    def __init__(self, message: str, exit_code: Optional[int], output: Sequence[str]):
        super().__init__(message)
        self.exit_code = exit_code
        self.output = list(output)


class AdminError(ServerError, ApiException):
    """An admin call (reset, snapshots) answered with an HTTP error.

    Attributes:
        status: the HTTP status code (404 for an unknown snapshot, 400 for an invalid name, 403
            for a user outside system:masters, ...).
        reason: the Status object's reason ("NotFound", "BadRequest", ...), else the HTTP reason
            phrase.
        message: the Status object's message (`snapshot "x" not found`), else the body.
        body: the response body as text.
    """

    def __init__(self, method: str, path: str, status: int, reason: str, message: str, body: str):
        Exception.__init__(self, f"{method} {path}: {status} {reason}: {message}")
        self.method = method
        self.path = path
        self.status = status
        self.reason = reason
        self.message = message
        self.body = body
        self.headers = None
        self.data = None

    def __str__(self) -> str:
        return f"{self.method} {self.path}: {self.status} {self.reason}: {self.message}"
