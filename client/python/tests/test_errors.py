"""Error answers raised as one exception class per kind, with the contract's code and the request id."""

from __future__ import annotations

import unittest

from momo_payments import (
    ERROR_CODES,
    APIError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    PaymentsClient,
    PermissionDeniedError,
    RateLimitError,
    RetryPolicy,
    ServerError,
    ValidationError,
)

from .local_server import Answer, LocalServer, failure


def client_of(url: str) -> PaymentsClient:
    return PaymentsClient(api_key="sk_test_abc", api_user="u", base_url=url, retry=RetryPolicy(max_retries=0))


class ErrorMappingTest(unittest.TestCase):
    def raised(self, answer: Answer) -> APIError:
        with LocalServer(answer) as server, self.assertRaises(APIError) as caught:
            client_of(server.url).get_payment("pay_1")
        return caught.exception

    def test_each_status_has_its_class(self) -> None:
        cases: list[tuple[int, str, type[APIError]]] = [
            (400, "invalid_amount", ValidationError),
            (422, "service_not_found", ValidationError),
            (401, "invalid_api_key", AuthenticationError),
            (403, "insufficient_balance", PermissionDeniedError),
            (404, "resource_not_found", NotFoundError),
            (409, "idempotency_key_reused", ConflictError),
            (429, "rate_limited", RateLimitError),
            (500, "internal_error", ServerError),
            (503, "service_unavailable", ServerError),
        ]
        for status, code, kind in cases:
            with self.subTest(status=status):
                self.assertIn(code, ERROR_CODES)
                error = self.raised(failure(status, code, "why", request_id=f"req_{status}"))
                self.assertIs(type(error), kind)
                self.assertEqual((error.status, error.code, error.message), (status, code, "why"))
                self.assertEqual(error.request_id, f"req_{status}")
                self.assertIn(f"req_{status}", str(error))

    def test_other_statuses_are_the_base_class(self) -> None:
        error = self.raised(failure(413, "payload_too_large"))
        self.assertIs(type(error), APIError)
        self.assertEqual(error.code, "payload_too_large")

    def test_the_field_at_fault_and_every_problem(self) -> None:
        details = [{"param": "amount", "code": "invalid_amount", "message": "must be greater than 0"}]
        error = self.raised(failure(400, "invalid_amount", "The amount must be greater than 0", param="amount", details=details))
        self.assertEqual(error.param, "amount")
        self.assertEqual(error.details, details)
        self.assertEqual(error.details_total, 1)

    def test_how_many_problems_when_only_the_first_50_are_listed(self) -> None:
        details = [{"param": f"f{i}", "code": "unknown_field", "message": "not accepted"} for i in range(50)]
        error = self.raised(failure(400, "unknown_field", "The field f0 is not accepted here.", details=details, details_total=3000))
        self.assertEqual(len(error.details), 50)
        self.assertEqual(error.details_total, 3000)

    def test_the_request_id_from_the_header_when_the_body_is_not_the_envelope(self) -> None:
        error = self.raised(Answer(502, b"<html>bad gateway</html>", {"Content-Type": "text/html", "X-Request-Id": "req_proxy"}))
        self.assertIs(type(error), ServerError)
        self.assertIsNone(error.code)
        self.assertEqual(error.request_id, "req_proxy")
        self.assertEqual(error.body, b"<html>bad gateway</html>")

    def test_rate_limit_says_when_to_come_back(self) -> None:
        answer = failure(429, "rate_limited")
        answer.headers["Retry-After"] = "3"
        error = self.raised(answer)
        assert isinstance(error, RateLimitError)
        self.assertEqual(error.retry_after, 3.0)


if __name__ == "__main__":
    unittest.main()
