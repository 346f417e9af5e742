"""The exceptions the library raises: one class per kind of failure, each API error carrying the
contract's error code and the request id."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from .models import ErrorResponseErrorDetailsItem
from .retry import parse_retry_after

ConfigErrorCode = Literal["invalid_option", "live_key_in_sandbox"]
WebhookVerificationFailure = Literal[
    "malformed_header", "timestamp_out_of_tolerance", "signature_mismatch", "malformed_payload"
]


class PaymentsError(Exception):
    """The base class of every exception of this library."""


class PaymentsConfigError(PaymentsError):
    """Raised by ``PaymentsClient(...)`` when an option is unusable or unsafe, before any call."""

    def __init__(self, code: ConfigErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ConfigErrorCode = code


class APIConnectionError(PaymentsError):
    """No HTTP answer arrived (connection refused or reset, DNS failure, timeout) after every
    retry was spent."""

    def __init__(self, message: str, *, attempts: int, timed_out: bool) -> None:
        super().__init__(message)
        self.attempts = attempts
        """How many attempts were made, the first one included."""
        self.timed_out = timed_out
        """Whether the last attempt ended because it took longer than ``timeout``."""


class APIError(PaymentsError):
    """The API answered with an error (any non-2xx). Subclasses name the kind; ``code`` is the
    contract's stable error code (one of ``ERROR_CODES``), ``request_id`` the id to quote to
    support."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        error = _error_of(body)
        self.code: str | None = _str(error.get("code")) if error is not None else None
        self.param: str | None = _str(error.get("param")) if error is not None else None
        self.details: list[ErrorResponseErrorDetailsItem] = (
            error["details"] if error is not None and isinstance(error.get("details"), list) else []
        )
        total = error.get("details_total") if error is not None else None
        # How many problems the request had: more than len(details) when only the first 50 are listed.
        self.details_total: int = total if isinstance(total, int) else len(self.details)
        message = _str(error.get("message")) if error is not None else None
        self.message = message or f"HTTP {status} with no error envelope"
        request_id = _str(error.get("request_id")) if error is not None else None
        self.request_id: str | None = request_id or headers.get("X-Request-Id")
        super().__init__(
            f"{status} {self.code or 'error'}: {self.message}"
            + (f" (request {self.request_id})" if self.request_id else "")
        )


class ValidationError(APIError):
    """400 or 422: the request is invalid (``param`` names the field at fault)."""


class AuthenticationError(APIError):
    """401: the key or the API user is missing, wrong, revoked or expired."""


class PermissionDeniedError(APIError):
    """403: the call is not allowed, e.g. ``insufficient_balance`` on a payout."""


class NotFoundError(APIError):
    """404: no such resource in this account and mode."""


class ConflictError(APIError):
    """409: e.g. ``idempotency_key_reused`` with another body."""


class RateLimitError(APIError):
    """429: too many calls; ``retry_after`` says how many seconds to wait (when the API said)."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        super().__init__(status, headers, body)
        self.retry_after: float | None = parse_retry_after(headers.get("Retry-After"))


class ServerError(APIError):
    """5xx: the API failed, or is unavailable for a moment; nothing was done twice."""


class WebhookVerificationError(PaymentsError):
    """Raised by ``verify_webhook`` when a delivery cannot be trusted; ``reason`` says why."""

    def __init__(self, reason: WebhookVerificationFailure, message: str) -> None:
        super().__init__(message)
        self.reason: WebhookVerificationFailure = reason


_by_status: dict[int, type[APIError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitError,
}


def error_for(status: int, headers: Mapping[str, str], body: bytes) -> APIError:
    """The exception for an error answer: its class follows the status."""
    kind = _by_status.get(status, ServerError if status >= 500 else APIError)
    return kind(status, headers, body)


def _error_of(body: bytes) -> dict[str, Any] | None:
    try:
        parsed = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    return error if isinstance(error, dict) and isinstance(error.get("code"), str) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None
