"""Webhook signatures: verify a delivery from the API, or sign one for your own tests."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from typing import NoReturn, cast

from .errors import WebhookVerificationError
from .models import Event

DEFAULT_TOLERANCE = 300
"""Seconds the signature's timestamp may be from now, either way."""

_HEX_SIGNATURE = re.compile(r"^[0-9a-fA-F]{64}$")
_TIMESTAMP = re.compile(r"^[0-9]{1,12}$")


def verify_webhook(
    raw_body: bytes | str,
    signature_header: str,
    secret: str,
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> Event:
    """Checks that a delivery comes from the API and is recent, then returns its event.

    ``X-Webhook-Signature`` is ``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">``,
    with several ``v1`` during a secret rotation; one must match, compared in constant time.
    Pass the raw body exactly as received, before any JSON parsing. Delivery is at least once:
    de-duplicate on the event's ``id``.

    Raises ``WebhookVerificationError`` whose ``reason`` is ``malformed_header``,
    ``signature_mismatch``, ``timestamp_out_of_tolerance`` or ``malformed_payload``.

    >>> body = '{"id":"evt_1","event":"payment.completed","data":{}}'
    >>> header = generate_test_header(body, "whsec_test")
    >>> verify_webhook(body, header, "whsec_test")["event"]
    'payment.completed'
    """
    timestamp, signatures = _parse_header(signature_header)
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    expected = _sign(timestamp, body, secret)
    # The signature first: a timestamp error then always means a genuine but stale delivery.
    # Every candidate is compared, so the time taken does not say which one matched.
    matches = [hmac.compare_digest(candidate, expected) for candidate in signatures]
    if not any(matches):
        raise WebhookVerificationError(
            "signature_mismatch",
            "No v1 signature matches the body: check the endpoint's secret, and pass the raw body, unparsed.",
        )
    current = time.time() if now is None else now
    age = abs(int(current) - timestamp)
    if age > tolerance:
        raise WebhookVerificationError(
            "timestamp_out_of_tolerance",
            f"The signature is valid but its timestamp is {age} s from now, more than the {tolerance} s "
            "allowed: a replayed delivery, or a clock out of sync.",
        )
    return _parse_event(body)


def generate_test_header(payload: bytes | str, secret: str, *, timestamp: int | None = None) -> str:
    """The ``X-Webhook-Signature`` the API would send with ``payload``, for your own tests of your
    webhook handler. Sign exactly the bytes you post; an old ``timestamp`` (Unix seconds) tests
    your handling of ``timestamp_out_of_tolerance``.

    >>> generate_test_header("{}", "whsec_test", timestamp=1700000000)[:13]
    't=1700000000,'
    """
    at = int(time.time()) if timestamp is None else timestamp
    if isinstance(at, bool) or not isinstance(at, int) or at < 0:
        raise ValueError(f"timestamp must be whole Unix seconds, not {timestamp!r}")
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    return f"t={at},v1={_sign(at, body, secret).hex()}"


def _sign(timestamp: int, body: bytes, secret: str) -> bytes:
    return hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + body, hashlib.sha256).digest()


def _parse_header(header: str) -> tuple[int, list[bytes]]:
    timestamp: int | None = None
    signatures: list[bytes] = []
    for part in header.split(","):
        key, separator, value = part.strip().partition("=")
        if not separator or "=" in value:
            _malformed(header)
        if key == "t":
            if timestamp is not None or not _TIMESTAMP.match(value):
                _malformed(header)
            timestamp = int(value)
        elif key == "v1":
            if not _HEX_SIGNATURE.match(value):
                _malformed(header)
            signatures.append(bytes.fromhex(value))
        # Other schemes (v0, v2, ...) are ignored, so that new ones can be added without breaking you.
    if timestamp is None or not signatures:
        _malformed(header)
    return timestamp, signatures


def _malformed(header: str) -> NoReturn:
    shown = header if len(header) <= 120 else f"{header[:120]}..."
    raise WebhookVerificationError(
        "malformed_header", f'X-Webhook-Signature is not "t=<unix seconds>,v1=<64 hex digits>": {shown!r}'
    )


def _parse_event(body: bytes) -> Event:
    try:
        event = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise WebhookVerificationError("malformed_payload", "The signed body is not JSON.") from None
    if (
        not isinstance(event, dict)
        or not isinstance(event.get("id"), str)
        or not isinstance(event.get("event"), str)
        or not isinstance(event.get("data"), dict)
    ):
        raise WebhookVerificationError("malformed_payload", "The signed body is not an event (id, event, data).")
    return cast(Event, event)
