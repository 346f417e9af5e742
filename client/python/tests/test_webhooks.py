"""Webhook signature verification: what a handler accepts and what it refuses."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import unittest

from momo_payments import WebhookVerificationError, generate_test_header, verify_webhook

SECRET = "whsec_" + "a" * 32
BODY = json.dumps(
    {
        "id": "evt_test",
        "event": "payment.completed",
        "mode": "test",
        "timestamp": "2026-11-20T09:00:00.000Z",
        "data": {"transaction_id": "pay_test", "amount": 2500, "currency": "XAF", "status": "success",
                 "reference": "order-1042", "failure_code": None},
    }
)


def signed(body: str, secret: str, timestamp: int) -> str:
    """The signature computed here independently of the library, as the server computes it."""
    return hmac.new(secret.encode(), f"{timestamp}.{body}".encode(), hashlib.sha256).hexdigest()


class VerifyWebhookTest(unittest.TestCase):
    def reason(self, body: str | bytes, header: str, secret: str = SECRET, now: float | None = None) -> str:
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_webhook(body, header, secret, now=now)
        return caught.exception.reason

    def test_a_genuine_recent_delivery_returns_its_event(self) -> None:
        now = int(time.time())
        event = verify_webhook(BODY.encode(), f"t={now},v1={signed(BODY, SECRET, now)}", SECRET)
        self.assertEqual(event["id"], "evt_test")
        self.assertEqual(event["data"]["amount"], 2500)

    def test_a_body_changed_by_one_byte_is_refused(self) -> None:
        now = int(time.time())
        header = f"t={now},v1={signed(BODY, SECRET, now)}"
        self.assertEqual(self.reason(BODY.replace("2500", "2501"), header), "signature_mismatch")

    def test_a_re_serialised_body_is_refused(self) -> None:
        now = int(time.time())
        header = f"t={now},v1={signed(BODY, SECRET, now)}"
        self.assertEqual(self.reason(json.dumps(json.loads(BODY), indent=2), header), "signature_mismatch")

    def test_another_secret_is_refused(self) -> None:
        now = int(time.time())
        header = f"t={now},v1={signed(BODY, 'whsec_other', now)}"
        self.assertEqual(self.reason(BODY, header), "signature_mismatch")

    def test_a_changed_timestamp_breaks_the_signature(self) -> None:
        now = int(time.time())
        header = f"t={now - 1},v1={signed(BODY, SECRET, now)}"
        self.assertEqual(self.reason(BODY, header), "signature_mismatch")

    def test_an_old_delivery_is_refused_beyond_the_tolerance_only(self) -> None:
        now = int(time.time())
        old = now - 301
        self.assertEqual(self.reason(BODY, f"t={old},v1={signed(BODY, SECRET, old)}", now=now), "timestamp_out_of_tolerance")
        at_limit = now - 300
        verify_webhook(BODY, f"t={at_limit},v1={signed(BODY, SECRET, at_limit)}", SECRET, now=now)
        # A wider window accepts the older one.
        verify_webhook(BODY, f"t={old},v1={signed(BODY, SECRET, old)}", SECRET, now=now, tolerance=600)

    def test_a_delivery_from_the_future_is_refused_too(self) -> None:
        now = int(time.time())
        ahead = now + 301
        self.assertEqual(self.reason(BODY, f"t={ahead},v1={signed(BODY, SECRET, ahead)}", now=now), "timestamp_out_of_tolerance")

    def test_during_a_rotation_any_v1_may_match(self) -> None:
        now = int(time.time())
        old_secret, new_secret = SECRET, "whsec_" + "b" * 32
        header = f"t={now},v1={signed(BODY, new_secret, now)},v1={signed(BODY, old_secret, now)}"
        self.assertEqual(verify_webhook(BODY, header, old_secret)["id"], "evt_test")
        self.assertEqual(verify_webhook(BODY, header, new_secret)["id"], "evt_test")
        self.assertEqual(self.reason(BODY, header, secret="whsec_" + "c" * 32), "signature_mismatch")

    def test_unknown_schemes_are_ignored(self) -> None:
        now = int(time.time())
        header = f"t={now},v0=abc,v1={signed(BODY, SECRET, now)},v2=zzz"
        self.assertEqual(verify_webhook(BODY, header, SECRET)["event"], "payment.completed")

    def test_malformed_headers_are_refused_before_any_comparison(self) -> None:
        now = int(time.time())
        good = signed(BODY, SECRET, now)
        for header in [
            "",
            f"v1={good}",
            f"t={now}",
            f"t={now},v1={good[:-2]}",
            f"t=yesterday,v1={good}",
            f"t={now},t={now},v1={good}",
            f"t={now},v1={good}=",
            f"t={now};v1={good}",
        ]:
            with self.subTest(header=header):
                self.assertEqual(self.reason(BODY, header), "malformed_header")

    def test_a_signed_body_that_is_not_an_event_is_refused(self) -> None:
        for body in ["not json", "[1, 2]", '{"id": "evt_1", "event": "payment.completed"}']:
            with self.subTest(body=body):
                self.assertEqual(self.reason(body, generate_test_header(body, SECRET)), "malformed_payload")


class GenerateTestHeaderTest(unittest.TestCase):
    def test_it_signs_as_the_api_does(self) -> None:
        self.assertEqual(
            generate_test_header(BODY, SECRET, timestamp=1700000000),
            f"t=1700000000,v1={signed(BODY, SECRET, 1700000000)}",
        )

    def test_its_header_is_accepted_now_and_refused_when_old(self) -> None:
        self.assertEqual(verify_webhook(BODY, generate_test_header(BODY, SECRET), SECRET)["id"], "evt_test")
        old = generate_test_header(BODY, SECRET, timestamp=int(time.time()) - 3600)
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_webhook(BODY, old, SECRET)
        self.assertEqual(caught.exception.reason, "timestamp_out_of_tolerance")

    def test_a_negative_timestamp_is_refused(self) -> None:
        with self.assertRaises(ValueError):
            generate_test_header(BODY, SECRET, timestamp=-1)


if __name__ == "__main__":
    unittest.main()
