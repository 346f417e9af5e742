"""The Python library of the Payments and Payouts API: collect Mobile Money payments, send
payouts and verify webhooks, with every schema typed from the API's contract.

>>> from momo_payments import PaymentsClient
"""

from ._headers import Headers
from ._transport import ApiResponse
from .client import BASE_URL_VARIABLE, DEFAULT_BASE_URL, PaymentsClient
from .errors import (
    APIConnectionError,
    APIError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    PaymentsConfigError,
    PaymentsError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ValidationError,
    WebhookVerificationError,
)
from .models import ERROR_CODES, EVENT_NAME_VALUES, ErrorCode, Event, EventName
from .retry import RetryPolicy, backoff_delay, parse_retry_after
from .webhooks import generate_test_header, verify_webhook

__version__ = "0.1.0"

__all__ = [
    "APIConnectionError",
    "APIError",
    "ApiResponse",
    "AuthenticationError",
    "BASE_URL_VARIABLE",
    "ConflictError",
    "DEFAULT_BASE_URL",
    "ERROR_CODES",
    "EVENT_NAME_VALUES",
    "ErrorCode",
    "Event",
    "EventName",
    "Headers",
    "NotFoundError",
    "PaymentsClient",
    "PaymentsConfigError",
    "PaymentsError",
    "PermissionDeniedError",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "ValidationError",
    "WebhookVerificationError",
    "backoff_delay",
    "generate_test_header",
    "parse_retry_after",
    "verify_webhook",
]
