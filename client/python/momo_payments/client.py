"""``PaymentsClient``: the API's operations as methods, with credentials, sandbox mode,
idempotency keys and retries."""

from __future__ import annotations

import os
import time
import urllib.parse
from collections.abc import Callable

from ._operations import Operations, OperationsWithResponse
from ._transport import Transport
from .errors import PaymentsConfigError
from .retry import RetryPolicy

DEFAULT_BASE_URL = "http://127.0.0.1:3000/v1"
"""Where ``npm start`` serves the API."""
BASE_URL_VARIABLE = "PAYMENTS_BASE_URL"
"""The environment variable read when no ``base_url`` is given (``npm start`` prints it)."""
DEFAULT_TIMEOUT = 30.0


class PaymentsClient(Operations):
    """A client of the Payments and Payouts API. Each operation of the contract is a method
    (``create_payment``, ``get_payout``, ``list_services``...) answering the envelope's ``data``
    as the contract's TypedDict; list operations also have an auto-paging ``iter_*`` method;
    ``client.with_response`` has the same methods answering an ``ApiResponse`` (``data``,
    ``status``, ``headers``, ``request_id``). A failed call raises its ``APIError`` subclass.

    On every call the client sends ``Authorization: Bearer <api_key>`` and ``X-API-User``, adds
    ``test=true`` in sandbox mode, gives each ``POST`` an ``Idempotency-Key`` (reused by that
    call's retries), times each attempt out after ``timeout`` seconds, and retries network
    errors, timeouts, 429 (after ``Retry-After``, up to a minute) and 5xx with backoff and jitter.

    ``base_url`` defaults to the ``PAYMENTS_BASE_URL`` environment variable, then to
    ``http://127.0.0.1:3000/v1``. Raises ``PaymentsConfigError`` for a missing or invalid option,
    or a live key (``sk_live_...``) with ``sandbox=True``.

    >>> client = PaymentsClient(api_key="sk_test_x", api_user="u", base_url="https://api.example.com/v1", sandbox=True)
    >>> client.base_url
    'https://api.example.com/v1'
    """

    def __init__(
        self,
        *,
        api_key: str,
        api_user: str,
        base_url: str | None = None,
        sandbox: bool = False,
        retry: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not isinstance(api_key, str) or not api_key.strip():
            raise PaymentsConfigError("invalid_option", "api_key is required: your secret key, sk_test_... or sk_live_...")
        if not isinstance(api_user, str) or not api_user.strip():
            raise PaymentsConfigError("invalid_option", "api_user is required: the UUID of your account's API user")
        if api_key.startswith("sk_live_") and sandbox:
            raise PaymentsConfigError(
                "live_key_in_sandbox",
                "sandbox=True was given with a live key (sk_live_...): use your test key (sk_test_...) in the "
                "sandbox, or drop sandbox to move real money.",
            )
        url = base_url or os.environ.get(BASE_URL_VARIABLE) or DEFAULT_BASE_URL
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise PaymentsConfigError("invalid_option", f"base_url is not an absolute http(s) URL: {url!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise PaymentsConfigError("invalid_option", f"timeout must be a positive number of seconds, not {timeout!r}")
        self._transport = Transport(
            base_url=url,
            api_key=api_key,
            api_user=api_user,
            sandbox=sandbox,
            retry=retry or RetryPolicy(),
            timeout=float(timeout),
            sleep=sleep,
        )
        self.with_response = OperationsWithResponse(self._transport)
        """The same operations, each answering an ``ApiResponse`` with the status and headers."""

    @property
    def base_url(self) -> str:
        """The API's address the client calls, ``/v1`` included."""
        return self._transport.base_url

    @property
    def sandbox(self) -> bool:
        """Whether every call carries ``test=true``."""
        return self._transport.sandbox

    def __repr__(self) -> str:
        # Never the key: a client printed in a log must not leak it.
        return f"PaymentsClient(base_url={self.base_url!r}, sandbox={self.sandbox})"
