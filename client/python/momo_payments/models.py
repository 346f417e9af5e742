# Generated from openapi.yaml by scripts/clients/generate-python.ts (npm run generate:python):
# do not edit. The schemas of the contract: objects as TypedDicts (plain dicts at run time,
# fields spelled as the API spells them), the others as type aliases, enums as Literal
# aliases with their values as tuples.

"""The Payments and Payouts API's schemas, generated from its contract (openapi.yaml 1.0.0)."""

from __future__ import annotations

from typing import Literal, TypeAlias, TypedDict

SuccessStatus: TypeAlias = Literal["success"]
"""Always `success` on a 2xx response."""
SUCCESS_STATUS_VALUES: tuple[SuccessStatus, ...] = ("success",)

RequestId: TypeAlias = str
"""The id of one API request."""

PaymentId: TypeAlias = str
"""A payment's id."""

PayoutId: TypeAlias = str
"""A payout's (or refund's) id."""

TopupId: TypeAlias = str
"""A top-up's id."""

TransactionId: TypeAlias = str
"""The id of a payment (`pay_`), payout (`po_`) or top-up (`tu_`)."""

ServiceId: TypeAlias = str
"""A service's id."""

WalletId: TypeAlias = str
"""The id of an account's wallet (its Main Balance) in one mode."""

BulkId: TypeAlias = str
"""A bulk payout's id."""

EventId: TypeAlias = str
"""An event's id, stable across deliveries; de-duplicate on it."""

WebhookEndpointId: TypeAlias = str
"""A webhook endpoint's id."""

ApiKeyId: TypeAlias = str
"""A secret key's public id (never the key itself)."""

Cursor: TypeAlias = str
"""An opaque position in a list."""

NextCursor: TypeAlias = str | None
"""Pass it as `cursor` to get the next page; `null` on the last page."""

HasMore: TypeAlias = bool
"""Whether another page follows."""

Timestamp: TypeAlias = str
"""An ISO 8601 UTC date-time."""

Mode: TypeAlias = Literal["live", "test"]
"""`live` for real money, `test` for the sandbox."""
MODE_VALUES: tuple[Mode, ...] = ("live", "test")

Amount: TypeAlias = int
"""An amount in the currency's minor unit (whole francs for XAF and XOF), greater than 0
and at most 1,000,000,000.
"""

MinorUnits: TypeAlias = int
"""A non-negative sum in the currency's minor unit: a balance, a total, or what has been
refunded.
"""

SignedMinorUnits: TypeAlias = int
"""A signed movement in the currency's minor unit; negative for debits."""

Currency: TypeAlias = Literal["XAF", "XOF", "GHS", "UGX", "RWF", "ZMW", "GNF", "EUR"]
"""An ISO 4217 currency code served by MTN or Orange Mobile Money. In live mode the
operator environment that serves a request decides which it takes: MTN's sandbox only
`EUR` (so `EUR` is here for it), MTN MoMo and Orange Money in Cameroon `XAF`; another is
refused with `422 currency_not_accepted`, whose message names those it takes. The
sandbox (test mode) takes them all.
"""
CURRENCY_VALUES: tuple[Currency, ...] = ("XAF", "XOF", "GHS", "UGX", "RWF", "ZMW", "GNF", "EUR")

Msisdn: TypeAlias = str
"""A Mobile Money phone number in international format: country code first, digits
only, no `+` (for example `237670000000`).
"""

MsisdnInput: TypeAlias = str
"""A Mobile Money phone number, stored and answered in international format, country
code first, digits only (`237670000000`). Accepted as people write it: `+` or `00`
before the country code, spaces, dots, dashes and brackets (`+237 6 70 00 00 00`,
`00237670000000`), or a Cameroonian national number of nine digits (`670000000`). A
Cameroonian number has nine digits after `237`. Anything else is refused with
`400 invalid_msisdn`, whose message names the expected form.
"""

PaymentMethod: TypeAlias = Literal["mtn_momo", "orange_money"]
"""The Mobile Money operator (`MTN/Orange MoMo`)."""
PAYMENT_METHOD_VALUES: tuple[PaymentMethod, ...] = ("mtn_momo", "orange_money")

PayoutPaymentMethod: TypeAlias = Literal["mtn_momo", "orange_money"]
"""The operator to send a payout to a number through. Optional: by default the payout
goes to the network the number belongs to (by its prefix; Cameroon: 67x and 650-654
MTN, 69x and 655-659 Orange). Not allowed with `recipient_wallet_id`.
"""
PAYOUT_PAYMENT_METHOD_VALUES: tuple[PayoutPaymentMethod, ...] = ("mtn_momo", "orange_money")

Reference: TypeAlias = str
"""Your own reference (an order number, say), returned in events and reports. Lists find
the objects that carry it with `?reference=` (the whole reference, exactly).
"""

Metadata: TypeAlias = dict[str, str]
"""Your own key-value pairs (a cart id, a customer number), stored as given and returned
in every response and in the data of every event about the object. At most 50 keys;
each key at most 40 characters; each value a string of at most 500 characters (no
numbers, booleans, nulls or nested objects: send `"3"`, not `3`). A request past a limit
is refused with `400 invalid_field` naming `metadata` (or the offending
`metadata.<key>`), and nothing is recorded. Given at creation only: metadata cannot be
changed afterwards. `{}` when none was given. Not searchable: filter lists by
`reference`.
"""

FailureCode: TypeAlias = Literal["payer_declined", "recipient_rejected", "operator_timeout", "operator_error", "bank_account_closed", "bank_name_mismatch", "bank_rejected"] | None
"""Why a payment, top-up or payout failed: `payer_declined` (the customer refused or
could not pay), `recipient_rejected` (the operator refused the recipient),
`operator_timeout` (the operator never answered) or `operator_error`. `null` unless
failed. A bank payout fails with the bank's reason: `bank_account_closed`,
`bank_name_mismatch` or `bank_rejected`.
"""
FAILURE_CODE_VALUES: tuple[FailureCode, ...] = ("payer_declined", "recipient_rejected", "operator_timeout", "operator_error", "bank_account_closed", "bank_name_mismatch", "bank_rejected")

PaymentStatus: TypeAlias = Literal["initiated", "success", "failed", "expired"]
"""`initiated` until the customer acts, then `success`, `failed` or `expired`, which are final."""
PAYMENT_STATUS_VALUES: tuple[PaymentStatus, ...] = ("initiated", "success", "failed", "expired")

PaymentFlow: TypeAlias = Literal["direct", "hosted"]
"""`direct` (a push to the phone) or `hosted` (the checkout page)."""
PAYMENT_FLOW_VALUES: tuple[PaymentFlow, ...] = ("direct", "hosted")

PayoutStatus: TypeAlias = Literal["pending", "success", "failed"]
"""`pending` until the operator settles it, then `success` or `failed` (reversed), which are final."""
PAYOUT_STATUS_VALUES: tuple[PayoutStatus, ...] = ("pending", "success", "failed")

PayoutType: TypeAlias = Literal["withdrawal", "transfer", "refund"]
"""`withdrawal` to a Mobile Money number, `transfer` to a number or a wallet, `refund` of a payment."""
PAYOUT_TYPE_VALUES: tuple[PayoutType, ...] = ("withdrawal", "transfer", "refund")

BankBatchId: TypeAlias = str
"""A bank batch's id (the `MsgId` of its file)."""

BalanceTransactionType: TypeAlias = Literal["payment", "topup", "payout", "payout_reversal", "transfer_in"]
"""`payment` and `topup` (credits when they succeed), `payout` (a debit when a payout or
refund is accepted), `payout_reversal` (a credit when it fails), `transfer_in` (a
credit from another user's wallet transfer).
"""
BALANCE_TRANSACTION_TYPE_VALUES: tuple[BalanceTransactionType, ...] = ("payment", "topup", "payout", "payout_reversal", "transfer_in")

ServiceStatus: TypeAlias = Literal["active", "inactive", "deleted"]
"""`active` services take payments; `inactive` ones do not until reactivated; `deleted` ones never again."""
SERVICE_STATUS_VALUES: tuple[ServiceStatus, ...] = ("active", "inactive", "deleted")

ServiceType: TypeAlias = Literal["plugin", "sdk", "website", "mobile_app", "pos", "other"]
"""What kind of integration the service is."""
SERVICE_TYPE_VALUES: tuple[ServiceType, ...] = ("plugin", "sdk", "website", "mobile_app", "pos", "other")

EventName: TypeAlias = Literal["payment.completed", "payment.failed", "payment.expired", "payout.completed", "payout.failed", "refund.completed", "refund.failed", "topup.completed", "topup.failed", "topup.expired"]
"""The kind of an event."""
EVENT_NAME_VALUES: tuple[EventName, ...] = ("payment.completed", "payment.failed", "payment.expired", "payout.completed", "payout.failed", "refund.completed", "refund.failed", "topup.completed", "topup.failed", "topup.expired")

WebhookUrl: TypeAlias = str
"""An `http` or `https` URL; in live mode it must be public."""

ApiKeyRole: TypeAlias = Literal["full", "collect", "read_only"]
"""What a key may do, chosen when it is created: `full`, every operation; `collect`,
`read` and `payments:write`; `read_only`, `read`. Keys created before roles existed are
`full`.
"""
API_KEY_ROLE_VALUES: tuple[ApiKeyRole, ...] = ("full", "collect", "read_only")

ApiPermission: TypeAlias = Literal["read", "payments:write", "payouts:write", "refunds:write", "topups:write", "services:write", "webhooks:write", "keys:manage"]
"""A permission an operation needs (its `x-permission`) and a key's role grants: `read`
(every GET but the keys'), `payments:write`, `payouts:write`, `refunds:write`,
`topups:write`, `services:write`, `webhooks:write` (endpoints and resending events),
`keys:manage` (listing, creating, rotating and revoking keys).
"""
API_PERMISSION_VALUES: tuple[ApiPermission, ...] = ("read", "payments:write", "payouts:write", "refunds:write", "topups:write", "services:write", "webhooks:write", "keys:manage")

OperatorCallErrorCode: TypeAlias = Literal["auth", "timeout", "network", "http_4xx", "http_5xx", "bad_response"]
"""`auth`: the operator refused our credentials (a 401 or 403). `timeout`: no answer
within `OPERATOR_TIMEOUT_MS`. `network`: it could not be reached. `http_5xx`: it
failed. `http_4xx`: it refused one request (the connection is fine). `bad_response`:
its answer could not be read.
"""
OPERATOR_CALL_ERROR_CODE_VALUES: tuple[OperatorCallErrorCode, ...] = ("auth", "timeout", "network", "http_4xx", "http_5xx", "bad_response")

ErrorCode: TypeAlias = Literal["missing_field", "invalid_amount", "invalid_field", "invalid_msisdn", "unknown_field", "invalid_recipient", "too_many_items", "invalid_parameter", "malformed_json", "live_key_in_test_mode", "missing_api_key", "invalid_api_key", "missing_api_user", "invalid_api_user", "insufficient_balance", "resource_not_found", "route_not_found", "method_not_allowed", "idempotency_key_reused", "payment_not_refundable", "service_deleted", "too_many_webhook_endpoints", "payload_too_large", "unsupported_media_type", "service_not_found", "service_inactive", "wallet_not_found", "self_transfer", "refund_exceeds_payment", "unsupported_network", "network_mismatch", "currency_not_accepted", "rate_limited", "internal_error", "service_unavailable", "secret_not_replayed", "key_not_active", "permission_denied", "too_many_active_keys", "last_active_key", "invalid_text", "too_many_failed_authentications", "headers_too_large", "malformed_request", "too_deeply_nested", "invalid_iban_check_digits", "invalid_rib_key", "nothing_to_batch", "invalid_statement"]
"""A stable, machine-readable error code (see *Errors* in the introduction)."""
ERROR_CODE_VALUES: tuple[ErrorCode, ...] = ("missing_field", "invalid_amount", "invalid_field", "invalid_msisdn", "unknown_field", "invalid_recipient", "too_many_items", "invalid_parameter", "malformed_json", "live_key_in_test_mode", "missing_api_key", "invalid_api_key", "missing_api_user", "invalid_api_user", "insufficient_balance", "resource_not_found", "route_not_found", "method_not_allowed", "idempotency_key_reused", "payment_not_refundable", "service_deleted", "too_many_webhook_endpoints", "payload_too_large", "unsupported_media_type", "service_not_found", "service_inactive", "wallet_not_found", "self_transfer", "refund_exceeds_payment", "unsupported_network", "network_mismatch", "currency_not_accepted", "rate_limited", "internal_error", "service_unavailable", "secret_not_replayed", "key_not_active", "permission_denied", "too_many_active_keys", "last_active_key", "invalid_text", "too_many_failed_authentications", "headers_too_large", "malformed_request", "too_deeply_nested", "invalid_iban_check_digits", "invalid_rib_key", "nothing_to_batch", "invalid_statement")

class _PaymentCreateRequired(TypedDict):
    amount: Amount
    currency: Currency
    customer_msisdn: MsisdnInput
    payment_method: PaymentMethod
    service_id: ServiceId


class PaymentCreate(_PaymentCreateRequired, total=False):
    """A payment to collect from a customer's Mobile Money account. All fields but `reference` and `metadata` are required."""
    reference: Reference
    metadata: Metadata


class _HostedPaymentCreateRequired(TypedDict):
    amount: Amount
    currency: Currency
    service_id: ServiceId


class HostedPaymentCreate(_HostedPaymentCreateRequired, total=False):
    """A payment to collect through the hosted checkout page."""
    customer_msisdn: MsisdnInput
    payment_method: PaymentMethod
    reference: Reference
    metadata: Metadata
    # How long the checkout link stays payable, 60 seconds to 24 hours.
    expires_in_seconds: int
    # Where the checkout page sends the customer back once the payment reached its final
    # state (a "Back to the shop" link). `https` only in live mode (`400 invalid_field`
    # otherwise); `http` is accepted in the sandbox for local shops.
    return_url: str


class _PaymentRequired(TypedDict):
    transaction_id: PaymentId
    amount: Amount
    currency: Currency
    status: PaymentStatus
    flow: PaymentFlow
    # The operator; `null` on a hosted payment until the customer chooses.
    payment_method: Literal["mtn_momo", "orange_money"] | None
    # The paying number; `null` on a hosted payment until the customer enters it.
    customer_msisdn: str | None
    service_id: ServiceId
    # Your reference, or `null`.
    reference: str | None
    metadata: Metadata
    failure_code: FailureCode
    refunded_amount: MinorUnits
    # The hosted checkout page (hosted flow only), or `null`.
    checkout_url: str | None
    mode: Mode
    expires_at: Timestamp
    created_at: Timestamp
    updated_at: Timestamp
    # When the payment reached its final state, or `null`.
    completed_at: str | None


class Payment(_PaymentRequired, total=False):
    """A payment collected from a customer's Mobile Money account."""
    # Where the checkout page sends the customer back once the payment is final, or `null`.
    return_url: str | None


class PaymentResponse(TypedDict):
    status: SuccessStatus
    data: Payment


class PaymentListResponseData(TypedDict):
    items: list[Payment]
    has_more: HasMore
    next_cursor: NextCursor


class PaymentListResponse(TypedDict):
    status: SuccessStatus
    data: PaymentListResponseData


class _PayoutCreateRequired(TypedDict):
    amount: Amount
    # `withdrawal` (to a Mobile Money number or a bank account) or `transfer` (to a number, a wallet or a bank account).
    payout_type: Literal["withdrawal", "transfer"]


class PayoutCreate(_PayoutCreateRequired, total=False):
    """A payout from your Main Balance to exactly one of `recipient_msisdn`,
    `recipient_wallet_id` or `recipient_bank_account`. `currency` defaults to your
    account's default currency (a bank payout is in XAF).
    """
    currency: Currency
    recipient_msisdn: MsisdnInput
    recipient_wallet_id: WalletId
    recipient_bank_account: BankAccountRecipient
    reference: Reference
    metadata: Metadata
    payment_method: PayoutPaymentMethod


class _BulkPayoutItemRequired(TypedDict):
    amount: Amount
    # `withdrawal` (to a Mobile Money number or a bank account) or `transfer` (to a number, a wallet or a bank account).
    payout_type: Literal["withdrawal", "transfer"]


class BulkPayoutItem(_BulkPayoutItemRequired, total=False):
    """One payout of a bulk payout; the currency is the batch's."""
    recipient_msisdn: MsisdnInput
    recipient_wallet_id: WalletId
    recipient_bank_account: BankAccountRecipient
    reference: Reference
    metadata: Metadata
    payment_method: PayoutPaymentMethod


class _BankAccountRecipientRequired(TypedDict):
    # The account holder's full name, as the bank knows it.
    holder_name: str


class BankAccountRecipient(_BankAccountRecipientRequired, total=False):
    """A bank account in the CEMAC zone (Cameroon, Central African Republic, Chad, Congo,
    Equatorial Guinea, Gabon): its `iban` (27 characters, no spaces: the country, 2 check
    digits, then the 23-character RIB), or its `rib` with the `country`; the account
    holder's full name; and the bank's `bic` when your bank asks for it. The IBAN's check
    digits (ISO 13616, mod 97) and the RIB key are verified before anything is debited:
    `422 invalid_iban_check_digits` or `422 invalid_rib_key` says which is wrong.
    """
    # The IBAN, for example `CM2110005000010123456789091`.
    iban: str
    # The RIB (bank code 5, branch code 5, account number 11, key 2), without spaces.
    rib: str
    # The country of a `rib`.
    country: Literal["CM", "CF", "TD", "CG", "GQ", "GA"]
    # The bank's BIC (8 or 11 characters).
    bic: str


class BankAccount(TypedDict):
    """The bank account a payout goes to (a RIB given with its country is shown as its IBAN),
    or `null` for a payout to a number or a wallet.
    """
    # The IBAN.
    iban: str
    # The account holder's name.
    holder_name: str
    # The bank's BIC, or `null`.
    bic: str | None
    # The RIB's bank code (5 characters).
    bank_code: str
    # The RIB's branch code (5 characters).
    branch_code: str
    # The RIB's account number (11 characters).
    account_number: str


class BankBatch(TypedDict):
    """Bank payouts gathered into one ISO 20022 pain.001 file."""
    batch_id: BankBatchId
    currency: Currency
    # How many payouts the file holds (its `NbOfTxs`).
    payout_count: int
    # The sum of their amounts (its `CtrlSum`).
    control_sum: int
    # How many of its payouts still wait for the bank's outcome.
    pending_count: int
    # The file's ISO 20022 message.
    file_format: Literal["pain.001.001.03"]
    mode: Mode
    created_at: Timestamp
    # The statements applied to it, oldest first.
    statements: list[BankStatementSummary]


class BankStatementSummary(TypedDict):
    """A statement applied to a batch."""
    # The statement's `MsgId`.
    message_id: str
    # How many payouts it settled.
    applied: int
    received_at: Timestamp


class BankBatchResponse(TypedDict):
    status: SuccessStatus
    data: BankBatch


class BankBatchListResponseData(TypedDict):
    items: list[BankBatch]


class BankBatchListResponse(TypedDict):
    status: SuccessStatus
    data: BankBatchListResponseData


class BankStatementEntry(TypedDict):
    """What one transaction of a statement did."""
    # The entry's `EndToEndId`.
    end_to_end_id: str
    # `applied`, `already_applied`, `conflicting`, `unknown`, `duplicate` or `pending`
    # (see `POST /bank-batches/{id}/statements`).
    outcome: Literal["applied", "already_applied", "conflicting", "unknown", "duplicate", "pending"]
    # The payout it names, or `null` when unknown.
    transaction_id: str | None
    # The payout's status after the statement, or `null` when unknown.
    payout_status: Literal["pending", "success", "failed"] | None
    failure_code: FailureCode


class BankStatementResponseData(TypedDict):
    batch_id: BankBatchId
    # The statement's `MsgId`.
    message_id: str
    # How many payouts this upload settled.
    applied: int
    entries: list[BankStatementEntry]


class BankStatementResponse(TypedDict):
    status: SuccessStatus
    data: BankStatementResponseData


class _BulkPayoutCreateRequired(TypedDict):
    items: list[BulkPayoutItem]


class BulkPayoutCreate(_BulkPayoutCreateRequired, total=False):
    """Up to 100 payouts in one currency, accepted all together or not at all."""
    currency: Currency


class _RefundCreateRequired(TypedDict):
    payment_id: PaymentId


class RefundCreate(_RefundCreateRequired, total=False):
    """A refund of a successful payment; omit `amount` to refund all that remains."""
    amount: Amount
    reference: Reference
    metadata: Metadata


class _PayoutRequired(TypedDict):
    transaction_id: PayoutId
    amount: Amount
    currency: Currency
    status: PayoutStatus
    payout_type: PayoutType
    # The receiving number, or `null` for a wallet transfer.
    recipient_msisdn: str | None
    # The receiving wallet, or `null` for a payout to a number.
    recipient_wallet_id: str | None
    recipient_bank_account: BankAccount
    # The bank batch (pain.001 file) this bank payout is in, or `null` until it is batched (and for every other payout).
    bank_batch_id: str | None
    # The refunded payment (refunds only), or `null`.
    payment_id: str | None
    # The bulk payout this payout belongs to, or `null`.
    bulk_id: str | None
    # Your reference, or `null`.
    reference: str | None
    metadata: Metadata
    failure_code: FailureCode
    mode: Mode
    created_at: Timestamp
    updated_at: Timestamp
    # When the payout reached its final state, or `null`.
    completed_at: str | None


class Payout(_PayoutRequired, total=False):
    """Money sent from the Main Balance (a withdrawal, transfer or refund)."""
    # The operator a payout to a number goes through, or `null` (wallet transfers, and payouts whose number no listed network holds in the sandbox).
    payment_method: Literal["mtn_momo", "orange_money"] | None


class PayoutResponse(TypedDict):
    status: SuccessStatus
    data: Payout


class PayoutListResponseData(TypedDict):
    items: list[Payout]
    has_more: HasMore
    next_cursor: NextCursor


class PayoutListResponse(TypedDict):
    status: SuccessStatus
    data: PayoutListResponseData


class BulkPayoutResponseData(TypedDict):
    bulk_id: BulkId
    currency: Currency
    # How many payouts the batch created.
    count: int
    total_amount: MinorUnits
    # The payouts, in the order of the request's items.
    items: list[Payout]


class BulkPayoutResponse(TypedDict):
    status: SuccessStatus
    data: BulkPayoutResponseData


class _TopupCreateRequired(TypedDict):
    amount: Amount
    currency: Currency
    payer_msisdn: MsisdnInput
    payment_method: PaymentMethod


class TopupCreate(_TopupCreateRequired, total=False):
    """A top-up of the Main Balance from a Mobile Money account you own."""
    reference: Reference
    metadata: Metadata


class Topup(TypedDict):
    """Money pulled from your own Mobile Money account into your Main Balance."""
    transaction_id: TopupId
    amount: Amount
    currency: Currency
    status: PaymentStatus
    payer_msisdn: Msisdn
    payment_method: PaymentMethod
    # Your reference, or `null`.
    reference: str | None
    metadata: Metadata
    failure_code: FailureCode
    mode: Mode
    expires_at: Timestamp
    created_at: Timestamp
    updated_at: Timestamp
    # When the top-up reached its final state, or `null`.
    completed_at: str | None


class TopupResponse(TypedDict):
    status: SuccessStatus
    data: Topup


class TopupListResponseData(TypedDict):
    items: list[Topup]
    has_more: HasMore
    next_cursor: NextCursor


class TopupListResponse(TypedDict):
    status: SuccessStatus
    data: TopupListResponseData


class BalanceBalancesItem(TypedDict):
    currency: Currency
    available: MinorUnits


class Balance(TypedDict):
    """The Main Balance of one account in one mode."""
    wallet_id: WalletId
    mode: Mode
    default_currency: Currency
    # One entry per currency that has ever moved, and always the default currency.
    balances: list[BalanceBalancesItem]


class BalanceResponse(TypedDict):
    status: SuccessStatus
    data: Balance


class BalanceTransaction(TypedDict):
    """One entry of the append-only ledger behind the Main Balance."""
    # The entry's id.
    id: str
    type: BalanceTransactionType
    amount: SignedMinorUnits
    currency: Currency
    balance_after: MinorUnits
    source_id: TransactionId
    # A human-readable line for statements.
    description: str
    created_at: Timestamp


class BalanceTransactionListResponseData(TypedDict):
    items: list[BalanceTransaction]
    has_more: HasMore
    next_cursor: NextCursor


class BalanceTransactionListResponse(TypedDict):
    status: SuccessStatus
    data: BalanceTransactionListResponseData


class _ServiceCreateRequired(TypedDict):
    # Shown to customers on the hosted checkout page.
    name: str


class ServiceCreate(_ServiceCreateRequired, total=False):
    """A new integration registration."""
    # A note for your team.
    description: str
    type: ServiceType


class ServiceUpdate(TypedDict, total=False):
    """The fields to change; those omitted stay as they are."""
    # Shown to customers on the hosted checkout page.
    name: str
    # A note for your team; `null` clears it.
    description: str | None
    type: ServiceType
    # `inactive` stops new payments; `active` allows them again.
    status: Literal["active", "inactive"]


class Service(TypedDict):
    """An integration registration that payments belong to."""
    service_id: ServiceId
    # Shown to customers on the hosted checkout page.
    name: str
    # A note for your team, or `null`.
    description: str | None
    type: ServiceType
    status: ServiceStatus
    mode: Mode
    created_at: Timestamp
    updated_at: Timestamp
    # When the service was deleted, or `null`.
    deleted_at: str | None


class ServiceResponse(TypedDict):
    status: SuccessStatus
    data: Service


class ServiceListResponseData(TypedDict):
    items: list[Service]
    has_more: HasMore
    next_cursor: NextCursor


class ServiceListResponse(TypedDict):
    status: SuccessStatus
    data: ServiceListResponseData


class _WebhookEndpointCreateRequired(TypedDict):
    url: WebhookUrl


class WebhookEndpointCreate(_WebhookEndpointCreateRequired, total=False):
    """A URL to receive events, and which events."""
    # The events to receive; omit for all of them.
    events: list[EventName]
    # A note for your team.
    description: str


class WebhookEndpointUpdate(TypedDict, total=False):
    """The fields to change; those omitted stay as they are."""
    url: WebhookUrl
    # The events to receive.
    events: list[EventName]
    # A note for your team; `null` clears it.
    description: str | None
    # `disabled` stops deliveries until `enabled` again.
    status: Literal["enabled", "disabled"]


class WebhookSecretRotation(TypedDict, total=False):
    """How a secret rotation treats the previous secret."""
    # How long, in seconds (at most 7 days), the previous secret keeps signing
    # deliveries beside the new one. 0 or omitted: it stops at once.
    overlap_seconds: int


class _WebhookEndpointRequired(TypedDict):
    id: WebhookEndpointId
    # Where events are sent.
    url: str
    # The events it receives.
    events: list[EventName]
    # A note for your team, or `null`.
    description: str | None
    # Whether it receives events.
    status: Literal["enabled", "disabled"]
    mode: Mode
    created_at: Timestamp
    updated_at: Timestamp


class WebhookEndpoint(_WebhookEndpointRequired, total=False):
    """A URL that receives events."""
    # Until when the secret before the last rotation still signs deliveries, or `null`.
    previous_secret_expires_at: str | None
    # While deliveries are paused after repeated failures (circuit breaker), when the
    # next probe is allowed; `null` when deliveries flow normally.
    paused_until: str | None


class _WebhookEndpointWithSecretRequired(TypedDict):
    id: WebhookEndpointId
    # Where events are sent.
    url: str
    # The events it receives.
    events: list[EventName]
    # A note for your team, or `null`.
    description: str | None
    # Whether it receives events.
    status: Literal["enabled", "disabled"]
    mode: Mode
    created_at: Timestamp
    updated_at: Timestamp
    # The key that signs deliveries (`X-Webhook-Signature`). Store it now.
    secret: str


class WebhookEndpointWithSecret(_WebhookEndpointWithSecretRequired, total=False):
    """A webhook endpoint with its signing secret, shown only at creation and rotation."""
    # Until when the secret before the last rotation still signs deliveries, or `null`.
    previous_secret_expires_at: str | None
    # While deliveries are paused after repeated failures (circuit breaker), when the
    # next probe is allowed; `null` when deliveries flow normally.
    paused_until: str | None


class WebhookEndpointResponse(TypedDict):
    status: SuccessStatus
    data: WebhookEndpoint


class WebhookEndpointWithSecretResponse(TypedDict):
    status: SuccessStatus
    data: WebhookEndpointWithSecret


class WebhookEndpointListResponseData(TypedDict):
    items: list[WebhookEndpoint]
    has_more: HasMore
    next_cursor: NextCursor


class WebhookEndpointListResponse(TypedDict):
    status: SuccessStatus
    data: WebhookEndpointListResponseData


class _EventDataRequired(TypedDict):
    transaction_id: TransactionId
    amount: Amount
    currency: Currency
    # The transaction's status (`success`, `failed` or `expired`).
    status: Literal["success", "failed", "expired"]
    # Your reference, or `null`.
    reference: str | None
    failure_code: FailureCode


class EventData(_EventDataRequired, total=False):
    """The transaction the event is about, as it stood when the event happened. Its
    `metadata` is the object's, as given when it was created (`{}` when none was): present in
    every event sent since metadata was added.
    """
    metadata: Metadata
    # The service of a payment, or of the payment a refund returns; `null` for top-ups
    # and other payouts. Present in every event sent since it was added.
    service_id: str | None
    # For a refund, the payment it returns; otherwise `null`.
    payment_id: str | None


class Event(TypedDict):
    """Something that happened, as sent to webhook endpoints."""
    id: EventId
    event: EventName
    data: EventData
    timestamp: Timestamp
    mode: Mode


class EventResponse(TypedDict):
    status: SuccessStatus
    data: Event


class EventListResponseData(TypedDict):
    items: list[Event]
    has_more: HasMore
    next_cursor: NextCursor


class EventListResponse(TypedDict):
    status: SuccessStatus
    data: EventListResponseData


class EventResend(TypedDict, total=False):
    """Where to re-send; omit `endpoint_id` for every subscribed, enabled endpoint."""
    endpoint_id: WebhookEndpointId


class Delivery(TypedDict):
    """The sending of one event to one endpoint, with its attempts."""
    # The delivery's id.
    id: str
    event_id: EventId
    endpoint_id: WebhookEndpointId
    # `pending` while attempts remain, `succeeded` after a 2xx, `failed` once retries are exhausted or the endpoint is gone.
    status: Literal["pending", "succeeded", "failed"]
    # How many attempts were made.
    attempts: int
    # When the next attempt is due, or `null` when none is.
    next_attempt_at: str | None
    # When the last attempt was made, or `null`.
    last_attempt_at: str | None
    # The HTTP status the endpoint answered last, or `null`.
    last_response_status: int | None
    # Why the last attempt failed, or `null`. Every attempt that got no HTTP answer
    # (refused, reset, timed out, not HTTP) reads the same.
    last_error: str | None
    # How long the last attempt took, or `null` (none yet, or no HTTP answer came).
    last_duration_ms: int | None
    created_at: Timestamp


class DeliveryListResponseData(TypedDict):
    items: list[Delivery]
    has_more: HasMore
    next_cursor: NextCursor


class DeliveryListResponse(TypedDict):
    status: SuccessStatus
    data: DeliveryListResponseData


class Log(TypedDict):
    """One API call. Keys, secrets and bodies are never recorded."""
    # The record's id.
    id: str
    request_id: RequestId
    # The HTTP method.
    method: str
    # The path, without the query string.
    path: str
    # The HTTP status answered.
    status: int
    # How long the server took to answer, in milliseconds.
    duration_ms: float
    mode: Mode
    # The public id of the key used, or `null`.
    key_id: str | None
    # The error code answered, or `null` on success.
    error_code: str | None
    created_at: Timestamp


class LogListResponseData(TypedDict):
    items: list[Log]
    has_more: HasMore
    next_cursor: NextCursor


class LogListResponse(TypedDict):
    status: SuccessStatus
    data: LogListResponseData


class ApiKey(TypedDict):
    """A secret key, described without the key itself."""
    id: ApiKeyId
    mode: Mode
    role: ApiKeyRole
    # The permissions the role grants.
    permissions: list[ApiPermission]
    # The last four characters of the key.
    last4: str
    # `active`; `expiring` during a rotation grace period; `revoked` once retired.
    status: Literal["active", "expiring", "revoked"]
    created_at: Timestamp
    # When an expiring key stops working, or `null`.
    expires_at: str | None


class ApiKeyListResponseData(TypedDict):
    items: list[ApiKey]
    has_more: HasMore
    next_cursor: NextCursor


class ApiKeyListResponse(TypedDict):
    status: SuccessStatus
    data: ApiKeyListResponseData


class ApiKeyResponse(TypedDict):
    status: SuccessStatus
    data: ApiKey


class ApiKeyRotate(TypedDict, total=False):
    """How long the key being replaced keeps working."""
    # 0 (the default) retires the old key at once; at most 7 days.
    grace_period_seconds: int


class ApiKeyCreate(TypedDict):
    """The role of the new key."""
    role: ApiKeyRole


class ApiKeyCreationResponseData(TypedDict):
    # The new secret key. It is shown only here.
    secret_key: str
    api_key: ApiKey


class ApiKeyCreationResponse(TypedDict):
    status: SuccessStatus
    data: ApiKeyCreationResponseData


class ApiKeyRotationResponseData(TypedDict):
    # The new secret key. It is shown only here.
    secret_key: str
    api_key: ApiKey
    previous_key: ApiKey


class ApiKeyRotationResponse(TypedDict):
    status: SuccessStatus
    data: ApiKeyRotationResponseData


class _HealthResponseDataRequired(TypedDict):
    # `ok` when the process runs.
    service: Literal["ok"]
    # `ok` when the database answers.
    database: Literal["ok"]


class HealthResponseData(_HealthResponseDataRequired, total=False):
    # Each Mobile Money operator product of live mode and whether this instance
    # reaches it, as its last call found. An operator that fails does not make the
    # service unhealthy (the answer stays `200`: test mode, the sandbox and the other
    # operators still work); watch `state` to alert on it.
    operators: list[OperatorConnection]


class HealthResponse(TypedDict):
    status: SuccessStatus
    data: HealthResponseData


class OperatorConnection(TypedDict):
    """One operator product (MTN MoMo Collection, MTN MoMo Disbursement, Orange Money's
    merchant payment and cash-in) as this instance last found it: checked at start-up by
    asking for an access token, then updated by every call to the operator (tokens,
    requests, status checks). Never holds a credential.
    """
    # The operator.
    name: Literal["mtn_momo", "orange_money"]
    # `collection` takes payments and top-ups; `disbursement` sends payouts.
    product: Literal["collection", "disbursement"]
    # The operator's environment (MTN's `X-Target-Environment`, such as `sandbox` or
    # `mtncameroon`); `null` for Orange Money, which has none, and when not configured.
    environment: str | None
    # `connected`: its last call succeeded. `failing`: its last call could not reach the
    # operator or was refused (see `last_error`). `checking`: configured, and no call has
    # answered yet since the start. `not_configured`: its variables are not set, so live
    # payments through it fail with `operator_error`.
    state: Literal["checking", "connected", "failing", "not_configured"]
    # When a call to it last succeeded, since this instance started.
    last_success_at: str | None
    last_error: OperatorCallError


class OperatorCallError(TypedDict):
    """The last call to an operator product that failed, since this instance started, or `null`."""
    code: OperatorCallErrorCode
    # What happened, in words; never a credential.
    message: str
    at: Timestamp


class DeletedResponseData(TypedDict):
    # The id of the deleted object.
    id: str
    # Always `true`.
    deleted: Literal[True]


class DeletedResponse(TypedDict):
    status: SuccessStatus
    data: DeletedResponseData


class _ErrorResponseErrorDetailsItemRequired(TypedDict):
    # The field or parameter at fault.
    param: str
    code: ErrorCode
    # What is wrong with it.
    message: str


class ErrorResponseErrorDetailsItem(_ErrorResponseErrorDetailsItemRequired, total=False):
    permission: ApiPermission


class _ErrorResponseErrorRequired(TypedDict):
    code: ErrorCode
    # A human-readable explanation, suitable for display. It may change; branch on `code`.
    message: str
    request_id: RequestId


class ErrorResponseError(_ErrorResponseErrorRequired, total=False):
    # The field or parameter at fault, when there is one (for example `amount`,
    # `items[2].recipient_msisdn`, or a header as this contract spells it:
    # `Idempotency-Key`).
    param: str
    # Every problem found, when there are several, the most important first, at most
    # the first 50 (`details_total` says how many there were); `code`, `message` and
    # `param` above repeat the first of them.
    details: list[ErrorResponseErrorDetailsItem]
    # How many problems the request had, sent with `details`: more than 50 means
    # `details` lists only the first 50.
    details_total: int


class ErrorResponse(TypedDict):
    """The envelope of every error response."""
    # Always `error`.
    status: Literal["error"]
    error: ErrorResponseError


ERROR_CODES: frozenset[str] = frozenset(ERROR_CODE_VALUES)
"""Every error code of the contract's catalogue (`error.code` of an error answer)."""

__all__ = [
    "SuccessStatus",
    "SUCCESS_STATUS_VALUES",
    "RequestId",
    "PaymentId",
    "PayoutId",
    "TopupId",
    "TransactionId",
    "ServiceId",
    "WalletId",
    "BulkId",
    "EventId",
    "WebhookEndpointId",
    "ApiKeyId",
    "Cursor",
    "NextCursor",
    "HasMore",
    "Timestamp",
    "Mode",
    "MODE_VALUES",
    "Amount",
    "MinorUnits",
    "SignedMinorUnits",
    "Currency",
    "CURRENCY_VALUES",
    "Msisdn",
    "MsisdnInput",
    "PaymentMethod",
    "PAYMENT_METHOD_VALUES",
    "PayoutPaymentMethod",
    "PAYOUT_PAYMENT_METHOD_VALUES",
    "Reference",
    "Metadata",
    "FailureCode",
    "FAILURE_CODE_VALUES",
    "PaymentStatus",
    "PAYMENT_STATUS_VALUES",
    "PaymentFlow",
    "PAYMENT_FLOW_VALUES",
    "PaymentCreate",
    "HostedPaymentCreate",
    "Payment",
    "PaymentResponse",
    "PaymentListResponse",
    "PayoutStatus",
    "PAYOUT_STATUS_VALUES",
    "PayoutType",
    "PAYOUT_TYPE_VALUES",
    "PayoutCreate",
    "BulkPayoutItem",
    "BankAccountRecipient",
    "BankAccount",
    "BankBatchId",
    "BankBatch",
    "BankStatementSummary",
    "BankBatchResponse",
    "BankBatchListResponse",
    "BankStatementEntry",
    "BankStatementResponse",
    "BulkPayoutCreate",
    "RefundCreate",
    "Payout",
    "PayoutResponse",
    "PayoutListResponse",
    "BulkPayoutResponse",
    "TopupCreate",
    "Topup",
    "TopupResponse",
    "TopupListResponse",
    "Balance",
    "BalanceResponse",
    "BalanceTransactionType",
    "BALANCE_TRANSACTION_TYPE_VALUES",
    "BalanceTransaction",
    "BalanceTransactionListResponse",
    "ServiceStatus",
    "SERVICE_STATUS_VALUES",
    "ServiceType",
    "SERVICE_TYPE_VALUES",
    "ServiceCreate",
    "ServiceUpdate",
    "Service",
    "ServiceResponse",
    "ServiceListResponse",
    "EventName",
    "EVENT_NAME_VALUES",
    "WebhookUrl",
    "WebhookEndpointCreate",
    "WebhookEndpointUpdate",
    "WebhookSecretRotation",
    "WebhookEndpoint",
    "WebhookEndpointWithSecret",
    "WebhookEndpointResponse",
    "WebhookEndpointWithSecretResponse",
    "WebhookEndpointListResponse",
    "EventData",
    "Event",
    "EventResponse",
    "EventListResponse",
    "EventResend",
    "Delivery",
    "DeliveryListResponse",
    "Log",
    "LogListResponse",
    "ApiKey",
    "ApiKeyListResponse",
    "ApiKeyResponse",
    "ApiKeyRotate",
    "ApiKeyRole",
    "API_KEY_ROLE_VALUES",
    "ApiPermission",
    "API_PERMISSION_VALUES",
    "ApiKeyCreate",
    "ApiKeyCreationResponse",
    "ApiKeyRotationResponse",
    "HealthResponse",
    "OperatorConnection",
    "OperatorCallError",
    "OperatorCallErrorCode",
    "OPERATOR_CALL_ERROR_CODE_VALUES",
    "DeletedResponse",
    "ErrorCode",
    "ERROR_CODE_VALUES",
    "ErrorResponse",
    "ERROR_CODES",
]
