"""Where the kube-apiserver-lite binary is: find_binary() resolves the argument, the environment
and the default places, in that order."""

import os
import shutil
from typing import List, Optional

from .errors import BinaryNotFoundError

ENV_BINARY = "KUBE_APISERVER_LITE"
ENV_ASSETS = "KUBEBUILDER_ASSETS"
PATH_NAME = "kube-apiserver-lite"


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _named(value: str, source: str) -> str:
    """The binary a caller named (argument, option, $KUBE_APISERVER_LITE): a path, or a command
    looked up on PATH when it has no directory part. Never falls back to the default search."""
    if os.sep in value or (os.altsep and os.altsep in value) or os.path.exists(value):
        if _executable(value):
            return os.path.abspath(value)
        why = "does not exist" if not os.path.exists(value) else "is not an executable file"
        raise BinaryNotFoundError(f"kube-apiserver-lite binary {value!r} ({source}) {why}")
    found = shutil.which(value)
    if found is None:
        raise BinaryNotFoundError(f"kube-apiserver-lite binary {value!r} ({source}) is not on PATH")
    return os.path.abspath(found)


def find_binary(binary: Optional[str] = None, source: str = "binary argument") -> str:
    """Returns the absolute path of the kube-apiserver-lite binary to run.

    The first of: `binary` (a path, or a command name looked up on PATH), else the environment
    variable KUBE_APISERVER_LITE (the same), else $KUBEBUILDER_ASSETS/kube-apiserver, else
    `kube-apiserver-lite` on PATH. A binary named by the argument or KUBE_APISERVER_LITE must be
    there: it is never replaced by the later places. `source` names where `binary` came from, for
    the error message.

    Raises BinaryNotFoundError, saying what was tried, when there is none.
    """
    if binary:
        return _named(os.fspath(binary), source)
    env = os.environ.get(ENV_BINARY)
    if env:
        return _named(env, f"${ENV_BINARY}")
    tried: List[str] = []
    assets = os.environ.get(ENV_ASSETS)
    if assets:
        candidate = os.path.join(assets, "kube-apiserver")
        if _executable(candidate):
            return os.path.abspath(candidate)
        tried.append(f"{candidate} (${ENV_ASSETS})")
    else:
        tried.append(f"${ENV_ASSETS}/kube-apiserver (${ENV_ASSETS} is not set)")
    found = shutil.which(PATH_NAME)
    if found is not None:
        return os.path.abspath(found)
    tried.append(f"{PATH_NAME} on PATH")
    raise BinaryNotFoundError(
        "kube-apiserver-lite binary not found: tried "
        + ", ".join(tried)
        + f"; name it with ${ENV_BINARY}, ${ENV_ASSETS}, or the binary argument "
        "(pytest: --kube-apiserver-lite=PATH)"
    )
