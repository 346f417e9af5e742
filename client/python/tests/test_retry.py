"""The retry policy: when a call is retried, how long it waits, and that its retries are the same
call (one Idempotency-Key)."""

from __future__ import annotations

import time
import unittest
from email.utils import formatdate

from momo_payments import (
    APIConnectionError,
    PaymentsClient,
    RateLimitError,
    RetryPolicy,
    ServerError,
    ValidationError,
    backoff_delay,
    parse_retry_after,
)
from momo_payments.models import ServiceCreate
from momo_payments.retry import MAX_RETRY_AFTER, is_retryable_status

from .local_server import Answer, LocalServer, closed_port_url, failure, success

FAST = RetryPolicy(max_retries=2, base_delay=0.01, max_delay=0.05)
SERVICE: ServiceCreate = {"name": "Boutique Akwa"}


class RecordingSleep:
    """time.sleep that also records how long each wait was."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        time.sleep(seconds)


def client_of(url: str, retry: RetryPolicy = FAST, **options: object) -> PaymentsClient:
    return PaymentsClient(api_key="sk_test_abc", api_user="user-1", base_url=url, retry=retry, **options)  # type: ignore[arg-type]


class ParseRetryAfterTest(unittest.TestCase):
    def test_delta_seconds(self) -> None:
        self.assertEqual(parse_retry_after("0"), 0.0)
        self.assertEqual(parse_retry_after(" 7 "), 7.0)

    def test_an_http_date_is_read_from_now(self) -> None:
        now = 1_800_000_000.0
        self.assertEqual(parse_retry_after(formatdate(now + 12, usegmt=True), now=now), 12.0)
        self.assertEqual(parse_retry_after(formatdate(now - 30, usegmt=True), now=now), 0.0)

    def test_absent_or_unreadable_is_none(self) -> None:
        for header in [None, "", "soon", "-1", "1.5", "Someday, 99 Foo 2026"]:
            with self.subTest(header=header):
                self.assertIsNone(parse_retry_after(header))


class BackoffTest(unittest.TestCase):
    def test_full_jitter_between_zero_and_the_doubling_ceiling(self) -> None:
        policy = RetryPolicy(base_delay=0.5, max_delay=8.0)
        for retry, ceiling in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 8.0), (20, 8.0)]:
            with self.subTest(retry=retry):
                self.assertEqual(backoff_delay(retry, policy, random=lambda: 0.0), 0.0)
                self.assertAlmostEqual(backoff_delay(retry, policy, random=lambda: 0.999999), ceiling, places=4)
                for _ in range(50):
                    self.assertTrue(0.0 <= backoff_delay(retry, policy) <= ceiling)

    def test_invalid_policies_are_refused(self) -> None:
        for options in [{"max_retries": -1}, {"max_retries": 1.5}, {"base_delay": -0.1}, {"max_delay": True}]:
            with self.subTest(options=options), self.assertRaises(ValueError):
                RetryPolicy(**options)  # type: ignore[arg-type]

    def test_what_is_retried(self) -> None:
        self.assertEqual([s for s in (400, 401, 403, 404, 409, 422, 429, 500, 502, 503) if is_retryable_status(s)], [429, 500, 502, 503])


class RetriesOverHttpTest(unittest.TestCase):
    def test_a_post_retried_after_503_resends_the_same_idempotency_key(self) -> None:
        with LocalServer(failure(503, "service_unavailable"), Answer(502, b"bad gateway"), success({"service_id": "svc_1"}, 201)) as server:
            service = client_of(server.url).create_service(SERVICE)
        self.assertEqual(service["service_id"], "svc_1")
        keys = [r.headers.get("Idempotency-Key") for r in server.received]
        self.assertEqual(len(keys), 3)
        self.assertIsNotNone(keys[0])
        self.assertEqual(set(keys), {keys[0]})
        self.assertEqual({r.body for r in server.received}, {b'{"name":"Boutique Akwa"}'})

    def test_each_call_has_its_own_key_and_a_given_key_is_sent_as_is(self) -> None:
        with LocalServer(*[success({"service_id": "svc_1"}, 201)] * 3) as server:
            client = client_of(server.url)
            client.create_service(SERVICE)
            client.create_service(SERVICE)
            client.create_service(SERVICE, idempotency_key="order-1042-service")
        keys = [r.headers.get("Idempotency-Key") for r in server.received]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "order-1042-service")

    def test_gets_carry_no_idempotency_key(self) -> None:
        with LocalServer(success({"service_id": "svc_1"})) as server:
            client_of(server.url).get_service("svc_1")
        self.assertNotIn("Idempotency-Key", server.received[0].headers)

    def test_retry_after_is_waited_for_then_jittered(self) -> None:
        sleep = RecordingSleep()
        limited = Answer(429, {"status": "error", "error": {"code": "rate_limited", "message": "slow down", "request_id": "r"}}, {"Retry-After": "1"})
        with LocalServer(limited, success({"service_id": "svc_1"})) as server:
            started = time.monotonic()
            client_of(server.url, sleep=sleep).get_service("svc_1")
            elapsed = time.monotonic() - started
        self.assertEqual(len(server.received), 2)
        self.assertEqual(len(sleep.waits), 1)
        self.assertTrue(1.0 <= sleep.waits[0] <= 1.0 + FAST.base_delay, sleep.waits)
        self.assertGreaterEqual(elapsed, 1.0)

    def test_a_retry_after_beyond_a_minute_is_raised_at_once(self) -> None:
        too_long = str(int(MAX_RETRY_AFTER) + 1)
        limited = Answer(429, {"status": "error", "error": {"code": "rate_limited", "message": "slow down", "request_id": "r"}}, {"Retry-After": too_long})
        with LocalServer(limited) as server, self.assertRaises(RateLimitError) as caught:
            client_of(server.url).get_service("svc_1")
        self.assertEqual(len(server.received), 1)
        self.assertEqual(caught.exception.retry_after, float(too_long))

    def test_other_4xx_are_answers_never_retried(self) -> None:
        with LocalServer(failure(422, "service_not_found")) as server, self.assertRaises(ValidationError):
            client_of(server.url).create_service(SERVICE)
        self.assertEqual(len(server.received), 1)

    def test_retries_are_bounded_then_the_last_error_is_raised(self) -> None:
        sleep = RecordingSleep()
        with LocalServer(*[failure(503, "service_unavailable")] * 4) as server, self.assertRaises(ServerError) as caught:
            client_of(server.url, sleep=sleep).get_balance()
        self.assertEqual(len(server.received), 3)
        self.assertEqual(caught.exception.code, "service_unavailable")
        self.assertEqual(len(sleep.waits), 2)
        self.assertTrue(0 <= sleep.waits[0] <= 0.01 and 0 <= sleep.waits[1] <= 0.02, sleep.waits)

    def test_no_retry_when_disabled(self) -> None:
        with LocalServer(failure(503, "service_unavailable"), success({})) as server, self.assertRaises(ServerError):
            client_of(server.url, retry=RetryPolicy(max_retries=0)).get_balance()
        self.assertEqual(len(server.received), 1)

    def test_a_refused_connection_is_retried_then_raised(self) -> None:
        sleep = RecordingSleep()
        with self.assertRaises(APIConnectionError) as caught:
            client_of(closed_port_url(), sleep=sleep).get_balance()
        self.assertEqual(caught.exception.attempts, 3)
        self.assertFalse(caught.exception.timed_out)
        self.assertEqual(len(sleep.waits), 2)
        self.assertIn("failed after 3 attempts", str(caught.exception))

    def test_a_slow_answer_times_out_and_is_retried(self) -> None:
        with LocalServer(Answer(200, {"status": "success", "data": {}}, delay=3.0), success({"service_id": "svc_1"})) as server:
            service = client_of(server.url, timeout=1.0).get_service("svc_1")
        self.assertEqual(service["service_id"], "svc_1")
        self.assertEqual(len(server.received), 2)

    def test_a_call_that_always_times_out_says_so(self) -> None:
        slow = [Answer(200, {}, delay=2.0)] * 2
        with LocalServer(*slow) as server, self.assertRaises(APIConnectionError) as caught:
            client_of(server.url, retry=RetryPolicy(max_retries=1, base_delay=0.01), timeout=0.5).get_balance()
        self.assertTrue(caught.exception.timed_out)
        self.assertEqual(caught.exception.attempts, 2)


if __name__ == "__main__":
    unittest.main()
