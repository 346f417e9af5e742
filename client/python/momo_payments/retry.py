"""How calls are retried: which answers are worth another attempt, and how long to wait."""

from __future__ import annotations

import random as _random
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

MAX_RETRY_AFTER = 60.0
"""A ``Retry-After`` longer than this many seconds is not waited for: the error is raised."""


@dataclass(frozen=True)
class RetryPolicy:
    """Retries on network errors, timeouts, 429 and 5xx, with exponential backoff and full jitter.

    >>> RetryPolicy(max_retries=4, base_delay=0.2, max_delay=5.0)
    RetryPolicy(max_retries=4, base_delay=0.2, max_delay=5.0)
    """

    max_retries: int = 2
    """Retries after the first attempt; 0 disables retrying."""
    base_delay: float = 0.5
    """Seconds before the first retry, doubled at each retry, before jitter."""
    max_delay: float = 8.0
    """The longest wait between two attempts, in seconds, before jitter."""

    def __post_init__(self) -> None:
        if isinstance(self.max_retries, bool) or not isinstance(self.max_retries, int) or self.max_retries < 0:
            raise ValueError(f"max_retries must be an integer of 0 or more, not {self.max_retries!r}")
        for name in ("base_delay", "max_delay"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{name} must be a number of seconds of 0 or more, not {value!r}")


def is_retryable_status(status: int) -> bool:
    """Whether an HTTP status is worth another attempt: 429 and every 5xx, never another 4xx."""
    return status == 429 or status >= 500


def backoff_delay(retry: int, policy: RetryPolicy, random: Callable[[], float] = _random.random) -> float:
    """The wait before retry number ``retry`` (0 for the first): a random duration between 0 and
    ``min(max_delay, base_delay * 2 ** retry)`` (full jitter), so that clients that failed
    together do not retry together.

    >>> backoff_delay(3, RetryPolicy(base_delay=0.5, max_delay=8.0), random=lambda: 0.5)
    2.0
    """
    ceiling = min(policy.max_delay, policy.base_delay * 2.0**retry)
    return random() * ceiling


def parse_retry_after(header: str | None, now: float | None = None) -> float | None:
    """Reads ``Retry-After`` (delta seconds or an HTTP date) as seconds from ``now`` (Unix
    seconds, default the current time); ``None`` when absent or unreadable.

    >>> parse_retry_after("3")
    3.0
    >>> parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0)
    10.0
    """
    if header is None:
        return None
    value = header.strip()
    if value.isascii() and value.isdigit():
        return float(int(value))
    try:
        date = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if date.tzinfo is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, date.timestamp() - current)
