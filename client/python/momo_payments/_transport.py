"""Sends one call: credentials, sandbox switch, idempotency key, retries with backoff, the error
mapping, and paging over cursor lists."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from http.client import HTTPException
from typing import Any, Generic, TypeVar

from ._headers import Headers
from .errors import APIConnectionError, error_for
from .retry import MAX_RETRY_AFTER, RetryPolicy, backoff_delay, is_retryable_status, parse_retry_after

T = TypeVar("T")

USER_AGENT = "momo-payments-python/0.1.0"


@dataclass(frozen=True)
class ApiResponse(Generic[T]):
    """A successful answer: the envelope's ``data``, with the status and headers it came with."""

    data: T
    status: int
    headers: Headers

    @property
    def request_id(self) -> str | None:
        """The ``X-Request-Id`` the API gave the call; quote it to support."""
        return self.headers.get("X-Request-Id")


@dataclass(frozen=True)
class _Answer:
    status: int
    headers: Headers
    body: bytes


class Transport:
    """What every operation method calls. Not used directly: ``PaymentsClient`` builds one."""

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        api_user: str,
        sandbox: bool,
        retry: RetryPolicy,
        timeout: float,
        sleep: Callable[[float], None] = time.sleep,
        new_idempotency_key: Callable[[], str] = lambda: str(uuid.uuid4()),
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key
        self._api_user = api_user
        self.sandbox = sandbox
        self.retry = retry
        self.timeout = timeout
        self._sleep = sleep
        self._new_idempotency_key = new_idempotency_key

    def request(
        self,
        method: str,
        path: str,
        *,
        path_params: Mapping[str, str] | None = None,
        query: Mapping[str, object] | None = None,
        body: object = None,
        idempotency_key: str | None = None,
        text: bool = False,
        accept: str = "text/csv",
        xml: bool = False,
    ) -> ApiResponse[Any]:
        """Sends the call (retrying it as the policy says) and answers its ``data``, or raises the
        ``APIError`` of its status, or ``APIConnectionError`` when no answer came."""
        url = self._url(path, path_params or {}, query or {})
        headers = {
            "Authorization": f"Bearer {self._api_key}",
            "X-API-User": self._api_user,
            "Accept": accept if text else "application/json",
            "User-Agent": USER_AGENT,
        }
        data: bytes | None = None
        if body is not None and xml:
            # An XML document (a bank statement), sent as it is.
            data = str(body).encode("utf-8")
            headers["Content-Type"] = "application/xml"
        elif body is not None:
            data = json.dumps(body, separators=(",", ":")).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if method == "POST":
            # One key per call, set before the first attempt: every retry of this call resends it,
            # so the API replays the first answer instead of moving money twice.
            headers["Idempotency-Key"] = idempotency_key or self._new_idempotency_key()
        answer = self._send_with_retries(method, url, headers, data)
        if not 200 <= answer.status < 300:
            raise error_for(answer.status, answer.headers, answer.body)
        if text:
            return ApiResponse(answer.body.decode("utf-8"), answer.status, answer.headers)
        envelope = json.loads(answer.body) if answer.body else None
        payload = envelope.get("data") if isinstance(envelope, dict) else None
        return ApiResponse(payload, answer.status, answer.headers)

    def paginate(
        self,
        method: str,
        path: str,
        *,
        path_params: Mapping[str, str] | None = None,
        query: Mapping[str, object] | None = None,
    ) -> Iterator[Any]:
        """Every item of a list operation, fetching the next page while ``has_more`` is true."""
        cursor: str | None = None
        while True:
            page = self.request(method, path, path_params=path_params, query={**(query or {}), "cursor": cursor})
            yield from page.data["items"]
            cursor = page.data["next_cursor"]
            if not page.data["has_more"] or cursor is None:
                return

    def _url(self, path: str, path_params: Mapping[str, str], query: Mapping[str, object]) -> str:
        for name, value in path_params.items():
            path = path.replace(f"{{{name}}}", urllib.parse.quote(str(value), safe=""))
        pairs = [(name, _query_value(value)) for name, value in query.items() if value is not None]
        if self.sandbox:
            pairs.append(("test", "true"))
        return f"{self.base_url}{path}" + (f"?{urllib.parse.urlencode(pairs)}" if pairs else "")

    def _send_with_retries(self, method: str, url: str, headers: dict[str, str], data: bytes | None) -> _Answer:
        attempt = 0
        while True:
            attempt += 1
            retries_left = attempt <= self.retry.max_retries
            try:
                answer = self._send_once(method, url, headers, data)
            except (urllib.error.URLError, HTTPException, OSError) as error:
                timed_out = _is_timeout(error)
                if not retries_left:
                    what = f"timed out after {self.timeout} s" if timed_out else _describe(error)
                    plural = "s" if attempt > 1 else ""
                    raise APIConnectionError(
                        f"{method} {url} failed after {attempt} attempt{plural}: {what}",
                        attempts=attempt,
                        timed_out=timed_out,
                    ) from error
                self._sleep(backoff_delay(attempt - 1, self.retry))
                continue
            if not retries_left or not is_retryable_status(answer.status):
                return answer
            asked = parse_retry_after(answer.headers.get("Retry-After"))
            if asked is not None and asked > MAX_RETRY_AFTER:
                return answer
            # After Retry-After, a jittered extra wait spreads the clients refused together.
            wait = backoff_delay(attempt - 1, self.retry) if asked is None else asked + backoff_delay(0, self.retry)
            self._sleep(wait)

    def _send_once(self, method: str, url: str, headers: dict[str, str], data: bytes | None) -> _Answer:
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return _Answer(response.status, Headers(response.headers.items()), response.read())
        except urllib.error.HTTPError as error:
            # urllib raises non-2xx answers; they are answers all the same.
            with error:
                return _Answer(error.code, Headers(error.headers.items()), error.read())


def _query_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _is_timeout(error: BaseException) -> bool:
    reason = getattr(error, "reason", None)
    return isinstance(error, TimeoutError) or isinstance(reason, TimeoutError)


def _describe(error: BaseException) -> str:
    reason = getattr(error, "reason", None)
    return f"{type(error).__name__}: {reason if reason is not None else error}"
