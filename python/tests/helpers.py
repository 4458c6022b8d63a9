"""Helpers of the suite's tests (plain functions; fixtures are in conftest.py)."""

import json
import time

import pytest


def status_of(error):
    """The metav1.Status body of a kubernetes.client.ApiException, as a dict."""
    return json.loads(error.body)


def eventually(check, timeout=15.0, interval=0.05):
    """Calls check() until it returns a true value, and returns it; fails after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"condition not met within {timeout} s: {check.__doc__ or check}")
        time.sleep(interval)
