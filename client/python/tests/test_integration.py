"""The scenarios every client library runs (test/clients/scenarios.json) against a real server.

The server is started by test/clients/python-library.test.ts, which runs this suite with:
PAYMENTS_BASE_URL, PAYMENTS_API_USER and PAYMENTS_API_KEY (a sandbox account);
PAYMENTS_TEST_CONTROL_URL, a helper of that test harness (never of the product) that runs the
server's settlement and webhook passes at once, and creates fresh accounts; and
PAYMENTS_RATE_LIMITED_BASE_URL / _API_USER / _API_KEY, a second server with a small rate limit.
"""

from __future__ import annotations

import json
import os
import threading
import time
import unittest
import urllib.request
import uuid
from dataclasses import dataclass
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from momo_payments import (
    AuthenticationError,
    ConflictError,
    NotFoundError,
    PaymentsClient,
    PermissionDeniedError,
    RateLimitError,
    RetryPolicy,
    ValidationError,
    WebhookVerificationError,
    verify_webhook,
)
from momo_payments.models import PaymentCreate

SUCCESS_NUMBER = "237670000000"
FAST = RetryPolicy(max_retries=2, base_delay=0.05, max_delay=0.2)


def environment(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(
            f"{name} is not set: the integration suite runs against the real server that "
            "test/clients/python-library.test.ts starts (npx vitest run --config test/vitest.config.ts "
            "test/clients/python-library.test.ts)"
        )
    return value


def control(action: str) -> Any:
    """Asks the test harness to run a server pass now (settle, deliver-webhooks) or to create an account."""
    request = urllib.request.Request(f"{environment('PAYMENTS_TEST_CONTROL_URL')}/{action}", data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def fresh_client() -> PaymentsClient:
    """A client of a new sandbox account, so that a test sees only what it created."""
    account = control("accounts")
    return PaymentsClient(api_key=account["api_key"], api_user=account["api_user"], sandbox=True, retry=FAST)


def xaf_available(client: PaymentsClient) -> int:
    return next((b["available"] for b in client.get_balance()["balances"] if b["currency"] == "XAF"), 0)


def payment_of(service_id: str, amount: int = 2500) -> PaymentCreate:
    return {
        "amount": amount,
        "currency": "XAF",
        "customer_msisdn": SUCCESS_NUMBER,
        "payment_method": "mtn_momo",
        "service_id": service_id,
        "reference": f"order-{uuid.uuid4().hex[:8]}",
    }


class IntegrationTest(unittest.TestCase):
    def test_payment_to_settlement(self) -> None:
        # The account npm start prints, through the same variables the README uses.
        client = PaymentsClient(
            api_key=environment("PAYMENTS_API_KEY"), api_user=environment("PAYMENTS_API_USER"), sandbox=True, retry=FAST
        )
        service = client.create_service({"name": "Boutique Akwa", "type": "website"})
        before = xaf_available(client)
        created = client.with_response.create_payment(payment_of(service["service_id"], 2500))
        self.assertEqual(created.status, 202)
        self.assertEqual(created.data["status"], "initiated")
        self.assertIsNotNone(created.request_id)

        control("settle")

        payment = client.get_payment(created.data["transaction_id"])
        self.assertEqual(payment["status"], "success")
        self.assertIsNone(payment["failure_code"])
        self.assertEqual(xaf_available(client), before + 2500)

    def test_metadata_and_reference(self) -> None:
        client = fresh_client()
        service = client.create_service({"name": "References"})
        body = payment_of(service["service_id"], 1500)
        body["metadata"] = {"cart_id": "cart-5531", "note": "two\nlines"}
        client.create_payment(payment_of(service["service_id"], 1000))

        payment = client.create_payment(body)

        self.assertEqual(payment["metadata"], body["metadata"])
        self.assertEqual(client.get_payment(payment["transaction_id"])["metadata"], body["metadata"])
        found = client.list_payments(reference=body["reference"])
        self.assertEqual([p["transaction_id"] for p in found["items"]], [payment["transaction_id"]])
        self.assertEqual(found["items"][0]["metadata"], body["metadata"])

    def test_payout_refused_for_balance(self) -> None:
        client = fresh_client()
        service = client.create_service({"name": "Payouts"})
        client.create_payment(payment_of(service["service_id"], 5000))
        control("settle")
        available = xaf_available(client)
        self.assertEqual(available, 5000)

        with self.assertRaises(PermissionDeniedError) as caught:
            client.create_payout(
                {"amount": available + 1, "currency": "XAF", "recipient_msisdn": "237690000000", "payout_type": "withdrawal"}
            )
        error = caught.exception
        self.assertEqual((error.status, error.code), (403, "insufficient_balance"))
        self.assertRegex(error.request_id or "", r"\S")
        self.assertEqual(error.request_id, error.headers.get("X-Request-Id"))
        self.assertEqual(xaf_available(client), available)
        self.assertEqual(list(client.iter_payouts()), [])

    def test_idempotent_replay(self) -> None:
        client = fresh_client()
        service = client.create_service({"name": "Replays"})
        key = f"order-{uuid.uuid4()}"
        body = payment_of(service["service_id"], 1200)

        first = client.with_response.create_payment(body, idempotency_key=key)
        second = client.with_response.create_payment(body, idempotency_key=key)

        self.assertEqual(second.data["transaction_id"], first.data["transaction_id"])
        self.assertEqual(second.status, first.status)
        self.assertNotIn("Idempotent-Replayed", first.headers)
        self.assertEqual(second.headers.get("Idempotent-Replayed"), "true")
        self.assertEqual([p["transaction_id"] for p in client.iter_payments()], [first.data["transaction_id"]])

        with self.assertRaises(ConflictError) as caught:
            client.create_payment(payment_of(service["service_id"], 1300), idempotency_key=key)
        self.assertEqual(caught.exception.code, "idempotency_key_reused")
        self.assertIsNotNone(caught.exception.request_id)
        self.assertEqual(len(list(client.iter_payments())), 1)

    def test_paging_45_items(self) -> None:
        client = fresh_client()
        created = [client.create_service({"name": f"Service {n:02d}"})["service_id"] for n in range(45)]

        listed = [s["service_id"] for s in client.iter_services(limit=20)]

        self.assertEqual(len(set(listed)), 45)
        self.assertEqual(listed, list(reversed(created)))
        # Three pages of at most 20, as the iterator fetched them.
        first = client.list_services(limit=20)
        second = client.list_services(limit=20, cursor=first["next_cursor"])
        third = client.list_services(limit=20, cursor=second["next_cursor"])
        self.assertEqual([len(p["items"]) for p in (first, second, third)], [20, 20, 5])
        self.assertEqual([p["has_more"] for p in (first, second, third)], [True, True, False])

    def test_error_classes(self) -> None:
        client = fresh_client()
        service = client.create_service({"name": "Errors"})

        with self.subTest("401 authentication"), self.assertRaises(AuthenticationError) as unauthenticated:
            PaymentsClient(api_key="sk_test_" + "x" * 32, api_user=environment("PAYMENTS_API_USER"), sandbox=True).get_balance()
        self.assert_contract_error(unauthenticated.exception, 401)

        with self.subTest("400 validation"), self.assertRaises(ValidationError) as invalid:
            client.create_payment(payment_of(service["service_id"], 0))
        self.assert_contract_error(invalid.exception, 400, "invalid_amount")
        self.assertEqual(invalid.exception.param, "amount")

        with self.subTest("404 not found"), self.assertRaises(NotFoundError) as missing:
            client.get_payment("pay_" + "0" * 24)
        self.assert_contract_error(missing.exception, 404, "resource_not_found")

        with self.subTest("409 conflict"), self.assertRaises(ConflictError) as conflict:
            client.create_service({"name": "One"}, idempotency_key="same-key")
            client.create_service({"name": "Two"}, idempotency_key="same-key")
        self.assert_contract_error(conflict.exception, 409, "idempotency_key_reused")

        with self.subTest("429 rate limited"):
            limited = PaymentsClient(
                api_key=environment("PAYMENTS_RATE_LIMITED_API_KEY"),
                api_user=environment("PAYMENTS_RATE_LIMITED_API_USER"),
                base_url=environment("PAYMENTS_RATE_LIMITED_BASE_URL"),
                sandbox=True,
                retry=RetryPolicy(max_retries=0),
            )
            with self.assertRaises(RateLimitError) as too_many:
                for _ in range(20):
                    limited.get_balance()
            self.assert_contract_error(too_many.exception, 429, "rate_limited")
            self.assertIsNotNone(too_many.exception.retry_after)
            self.assertGreater(too_many.exception.retry_after or 0, 0)

    def assert_contract_error(self, error: Any, status: int, code: str | None = None) -> None:
        self.assertEqual(error.status, status)
        if code is not None:
            self.assertEqual(error.code, code)
        self.assertIsNotNone(error.code)
        self.assertTrue(error.request_id)
        self.assertEqual(error.request_id, error.headers.get("X-Request-Id"))

    def test_webhook_verification(self) -> None:
        client = fresh_client()
        with Receiver() as receiver:
            endpoint = client.create_webhook_endpoint({"url": receiver.url, "events": ["payment.completed"]})
            service = client.create_service({"name": "Webhooks"})
            payment = client.create_payment(payment_of(service["service_id"], 3100))
            control("settle")
            control("deliver-webhooks")
            delivery = receiver.wait_for_one()

        header = delivery.headers["X-Webhook-Signature"]
        event = verify_webhook(delivery.body, header, endpoint["secret"])
        self.assertEqual(event["event"], "payment.completed")
        self.assertEqual(event["data"]["transaction_id"], payment["transaction_id"])
        self.assertEqual(event["data"]["amount"], 3100)

        tampered = delivery.body.replace(b"3100", b"3101", 1)
        self.assertEqual(len(tampered), len(delivery.body))
        self.assertNotEqual(tampered, delivery.body)
        self.assertEqual(self.refusal(tampered, header, endpoint["secret"]), "signature_mismatch")

        signed_at = int(header.split(",")[0].removeprefix("t="))
        self.assertEqual(
            self.refusal(delivery.body, header, endpoint["secret"], now=signed_at + 301), "timestamp_out_of_tolerance"
        )
        self.assertEqual(self.refusal(delivery.body, header, "whsec_" + "0" * 32), "signature_mismatch")

    def refusal(self, body: bytes, header: str, secret: str, now: float | None = None) -> str:
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_webhook(body, header, secret, now=now)
        return caught.exception.reason


@dataclass
class Delivery:
    headers: Message
    body: bytes


class Receiver:
    """A webhook endpoint on 127.0.0.1 that keeps each delivery's raw body and headers."""

    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []
        self._arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver._arrived:
                    receiver.deliveries.append(Delivery(self.headers, body))
                    receiver._arrived.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/webhooks/payments"

    def wait_for_one(self, timeout: float = 10.0) -> Delivery:
        deadline = time.monotonic() + timeout
        with self._arrived:
            while not self.deliveries:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no webhook delivery arrived")
                self._arrived.wait(left)
            return self.deliveries[0]

    def __enter__(self) -> Receiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


if __name__ == "__main__":
    unittest.main()
