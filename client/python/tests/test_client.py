"""What every call carries (credentials, sandbox switch, base URL) and the options refused."""

from __future__ import annotations

import json
import os
import unittest
from unittest import mock

from momo_payments import DEFAULT_BASE_URL, PaymentsClient, PaymentsConfigError
from momo_payments.models import PaymentCreate

from .local_server import Answer, LocalServer, success

PAYMENT: PaymentCreate = {
    "amount": 2500,
    "currency": "XAF",
    "customer_msisdn": "237670000000",
    "payment_method": "mtn_momo",
    "service_id": "svc_1",
}


class CallsTest(unittest.TestCase):
    def test_credentials_and_json_on_every_call(self) -> None:
        with LocalServer(success({"transaction_id": "pay_1", "status": "initiated"}, 202)) as server:
            client = PaymentsClient(api_key="sk_test_abc", api_user="user-1", base_url=server.url)
            payment = client.create_payment(PAYMENT)
        self.assertEqual(payment["transaction_id"], "pay_1")
        request = server.received[0]
        self.assertEqual((request.method, request.path), ("POST", "/v1/payments"))
        self.assertEqual(request.headers["Authorization"], "Bearer sk_test_abc")
        self.assertEqual(request.headers["X-API-User"], "user-1")
        self.assertEqual(request.headers["Content-Type"], "application/json")
        self.assertEqual(json.loads(request.body), PAYMENT)
        self.assertEqual(request.query, {})

    def test_sandbox_adds_test_true_to_every_call(self) -> None:
        with LocalServer(success({"service_id": "svc_1"}), success({"items": [], "has_more": False, "next_cursor": None})) as server:
            client = PaymentsClient(api_key="sk_test_abc", api_user="user-1", base_url=server.url, sandbox=True)
            client.get_service("svc_1")
            client.list_payments(status="success", limit=5)
        self.assertEqual(server.received[0].query, {"test": ["true"]})
        self.assertEqual(server.received[1].query, {"status": ["success"], "limit": ["5"], "test": ["true"]})

    def test_path_parameters_are_escaped(self) -> None:
        with LocalServer(success({"service_id": "svc_1"})) as server:
            PaymentsClient(api_key="sk_test_abc", api_user="u", base_url=server.url).get_service("a/b?c")
        self.assertEqual(server.received[0].path, "/v1/services/a%2Fb%3Fc")

    def test_with_response_gives_the_status_headers_and_request_id(self) -> None:
        answer = success({"service_id": "svc_1"}, 201, {"X-Request-Id": "req_42", "Idempotent-Replayed": "true"})
        with LocalServer(answer) as server:
            client = PaymentsClient(api_key="sk_test_abc", api_user="u", base_url=server.url)
            response = client.with_response.create_service({"name": "Shop"})
        self.assertEqual(response.data["service_id"], "svc_1")
        self.assertEqual(response.status, 201)
        self.assertEqual(response.request_id, "req_42")
        self.assertEqual(response.headers["idempotent-replayed"], "true")

    def test_the_csv_export_is_text(self) -> None:
        csv = b"id,created_at,type,amount\n"
        with LocalServer(Answer(200, csv, {"Content-Type": "text/csv"})) as server:
            client = PaymentsClient(api_key="sk_test_abc", api_user="u", base_url=server.url)
            text = client.export_balance_transactions(created_gte="2026-11-01T00:00:00Z", created_lt="2026-12-01T00:00:00Z")
        self.assertEqual(text, csv.decode())
        self.assertEqual(server.received[0].headers["Accept"], "text/csv")

    def test_the_key_never_appears_in_the_repr(self) -> None:
        client = PaymentsClient(api_key="sk_test_secret", api_user="u", base_url="https://api.example.com/v1")
        self.assertNotIn("sk_test_secret", repr(client))


class BaseUrlTest(unittest.TestCase):
    def test_read_from_payments_base_url_when_not_given(self) -> None:
        with mock.patch.dict(os.environ, {"PAYMENTS_BASE_URL": "http://127.0.0.1:4321/v1"}):
            self.assertEqual(PaymentsClient(api_key="sk_test_a", api_user="u").base_url, "http://127.0.0.1:4321/v1")
            given = PaymentsClient(api_key="sk_test_a", api_user="u", base_url="https://api.example.com/v1")
            self.assertEqual(given.base_url, "https://api.example.com/v1")

    def test_the_default_is_where_npm_start_listens(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertEqual(PaymentsClient(api_key="sk_test_a", api_user="u").base_url, DEFAULT_BASE_URL)
        self.assertEqual(DEFAULT_BASE_URL, "http://127.0.0.1:3000/v1")

    def test_the_environment_variable_is_used_for_calls(self) -> None:
        with LocalServer(success({"service_id": "svc_1"})) as server:
            with mock.patch.dict(os.environ, {"PAYMENTS_BASE_URL": server.url}):
                PaymentsClient(api_key="sk_test_a", api_user="u").get_service("svc_1")
        self.assertEqual(server.received[0].path, "/v1/services/svc_1")


class OptionsTest(unittest.TestCase):
    def code(self, **options: object) -> str:
        with self.assertRaises(PaymentsConfigError) as caught:
            PaymentsClient(**options)  # type: ignore[arg-type]
        return caught.exception.code

    def test_a_live_key_is_refused_in_sandbox_mode(self) -> None:
        self.assertEqual(self.code(api_key="sk_live_abc", api_user="u", sandbox=True), "live_key_in_sandbox")
        self.assertFalse(PaymentsClient(api_key="sk_live_abc", api_user="u").sandbox)

    def test_missing_or_invalid_options(self) -> None:
        cases: list[dict[str, object]] = [
            {"api_key": "", "api_user": "u"},
            {"api_key": "sk_test_a", "api_user": " "},
            {"api_key": "sk_test_a", "api_user": "u", "base_url": "127.0.0.1:3000/v1"},
            {"api_key": "sk_test_a", "api_user": "u", "base_url": "ftp://example.com"},
            {"api_key": "sk_test_a", "api_user": "u", "timeout": 0},
        ]
        for options in cases:
            with self.subTest(options=options):
                self.assertEqual(self.code(**options), "invalid_option")


if __name__ == "__main__":
    unittest.main()
