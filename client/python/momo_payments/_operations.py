# Generated from openapi.yaml by scripts/clients/generate-python.ts (npm run generate:python):
# do not edit. One method per operation of the contract.

"""The contract's operations as methods: `Operations` answers each call's `data`,
`OperationsWithResponse` the whole `ApiResponse` (status, headers, request id)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, cast

from ._transport import ApiResponse, Transport
from .models import (
    ApiKey,
    ApiKeyCreate,
    ApiKeyCreationResponseData,
    ApiKeyId,
    ApiKeyListResponseData,
    ApiKeyRotate,
    ApiKeyRotationResponseData,
    Balance,
    BalanceTransaction,
    BalanceTransactionListResponseData,
    BalanceTransactionType,
    BankBatch,
    BankBatchId,
    BankBatchListResponseData,
    BankStatementResponseData,
    BulkId,
    BulkPayoutCreate,
    BulkPayoutResponseData,
    Currency,
    Cursor,
    DeletedResponseData,
    Delivery,
    DeliveryListResponseData,
    ErrorCode,
    Event,
    EventId,
    EventListResponseData,
    EventName,
    EventResend,
    HealthResponseData,
    HostedPaymentCreate,
    Log,
    LogListResponseData,
    Payment,
    PaymentCreate,
    PaymentFlow,
    PaymentId,
    PaymentListResponseData,
    PaymentStatus,
    Payout,
    PayoutCreate,
    PayoutId,
    PayoutListResponseData,
    PayoutStatus,
    PayoutType,
    Reference,
    RefundCreate,
    RequestId,
    Service,
    ServiceCreate,
    ServiceId,
    ServiceListResponseData,
    ServiceStatus,
    ServiceUpdate,
    Topup,
    TopupCreate,
    TopupId,
    TopupListResponseData,
    TransactionId,
    WebhookEndpoint,
    WebhookEndpointCreate,
    WebhookEndpointId,
    WebhookEndpointListResponseData,
    WebhookEndpointUpdate,
    WebhookEndpointWithSecret,
    WebhookSecretRotation,
)


class Operations:
    """Every operation of the API; a failed call raises its `APIError` subclass."""

    _transport: Transport

    def list_payments(self, *, limit: int | None = None, cursor: Cursor | None = None, status: PaymentStatus | None = None, service_id: ServiceId | None = None, flow: PaymentFlow | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> PaymentListResponseData:
        """List payments (`GET /payments`).

        Lists the payments of this account and mode, newest first, with optional filters.
        """
        return cast("PaymentListResponseData", self._transport.request("GET", "/payments", query={"limit": limit, "cursor": cursor, "status": status, "service_id": service_id, "flow": flow, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}).data)

    def iter_payments(self, *, limit: int | None = None, status: PaymentStatus | None = None, service_id: ServiceId | None = None, flow: PaymentFlow | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> Iterator[Payment]:
        """List payments (`GET /payments`).

        Lists the payments of this account and mode, newest first, with optional filters.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[Payment]", self._transport.paginate("GET", "/payments", query={"limit": limit, "status": status, "service_id": service_id, "flow": flow, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}))

    def create_payment(self, body: PaymentCreate, *, idempotency_key: str | None = None) -> Payment:
        """Collect a payment (`POST /payments`).

        Asks the customer's Mobile Money operator to charge `customer_msisdn`; the customer
        approves the charge on their phone. The call answers `202 Accepted` as soon as the
        charge is initiated. The outcome follows by webhook (`payment.completed`,
        `payment.failed` or `payment.expired`) and can be read with `GET /payments/{id}`.

        This is the direct flow; `POST /payments/direct` is the same operation under its
        explicit name. `service_id` must name an active service of your account.
        """
        return cast("Payment", self._transport.request("POST", "/payments", body=body, idempotency_key=idempotency_key).data)

    def create_direct_payment(self, body: PaymentCreate, *, idempotency_key: str | None = None) -> Payment:
        """Collect a payment through the direct flow (`POST /payments/direct`).

        The direct flow under its explicit name: pushes an approval request to the
        customer's phone. Same request, response and lifecycle as `POST /payments`.
        """
        return cast("Payment", self._transport.request("POST", "/payments/direct", body=body, idempotency_key=idempotency_key).data)

    def initiate_hosted_payment(self, body: HostedPaymentCreate, *, idempotency_key: str | None = None) -> Payment:
        """Collect a payment through the hosted checkout page (`POST /payments/initiate`).

        Creates a payment and a hosted checkout page for it. Send the returned
        `checkout_url` to your customer: the page shows the amount and your service's name,
        asks for their phone number and operator, and follows the payment to its outcome.
        The link can be paid once and stops working at `expires_at`, when an unpaid payment
        becomes `expired`. `customer_msisdn` and `payment_method` are optional here: when
        given, they pre-fill the page.
        """
        return cast("Payment", self._transport.request("POST", "/payments/initiate", body=body, idempotency_key=idempotency_key).data)

    def get_payment(self, id: PaymentId) -> Payment:
        """Read a payment (`GET /payments/{id}`).

        Reads one payment, with its current status and, once final, its outcome.
        """
        return cast("Payment", self._transport.request("GET", "/payments/{id}", path_params={"id": id}).data)

    def list_payouts(self, *, limit: int | None = None, cursor: Cursor | None = None, status: PayoutStatus | None = None, payout_type: PayoutType | None = None, bulk_id: BulkId | None = None, payment_id: PaymentId | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> PayoutListResponseData:
        """List payouts (`GET /payouts`).

        Lists payouts (refunds included) of this account and mode, newest first.
        """
        return cast("PayoutListResponseData", self._transport.request("GET", "/payouts", query={"limit": limit, "cursor": cursor, "status": status, "payout_type": payout_type, "bulk_id": bulk_id, "payment_id": payment_id, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}).data)

    def iter_payouts(self, *, limit: int | None = None, status: PayoutStatus | None = None, payout_type: PayoutType | None = None, bulk_id: BulkId | None = None, payment_id: PaymentId | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> Iterator[Payout]:
        """List payouts (`GET /payouts`).

        Lists payouts (refunds included) of this account and mode, newest first.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[Payout]", self._transport.paginate("GET", "/payouts", query={"limit": limit, "status": status, "payout_type": payout_type, "bulk_id": bulk_id, "payment_id": payment_id, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}))

    def create_payout(self, body: PayoutCreate, *, idempotency_key: str | None = None) -> Payout:
        """Send a payout (`POST /payouts`).

        Sends `amount` from your Main Balance to exactly one recipient: a Mobile Money number
        (`recipient_msisdn`) or the wallet of another user of the service
        (`recipient_wallet_id`), or a bank account in the CEMAC zone
        (`recipient_bank_account`). A `withdrawal` goes to a Mobile Money number or a bank
        account; a `transfer` goes to any of them.

        A bank payout's RIB key and IBAN check digits are verified first (`422
        invalid_rib_key`, `422 invalid_iban_check_digits`, nothing debited). It is debited
        at once and stays `pending` until it is batched into an ISO 20022 pain.001 file
        (`POST /bank-batches`) and the bank's camt.054 statement for that file is uploaded
        (`POST /bank-batches/{id}/statements`): then `success`, or `failed` with the bank's
        reason and its amount returned.

        The amount is debited when the payout is accepted; if the balance cannot fund it the
        call is refused with `403 insufficient_balance` and nothing moves. A payout to a
        number is `pending` until the operator settles it (`payout.completed`) or refuses it
        (`payout.failed`, and the amount is returned to your balance). A transfer to a wallet
        is internal and is `success` at once.

        A payout to a number goes through the operator of the number's network, found by its
        prefix, unless `payment_method` names one; a `payment_method` that is not the number's
        network is refused with `422 network_mismatch`. In live mode a number (or a
        `payment_method`) that no connected operator serves is refused with
        `422 unsupported_network` before anything is debited.
        """
        return cast("Payout", self._transport.request("POST", "/payouts", body=body, idempotency_key=idempotency_key).data)

    def create_bulk_payout(self, body: BulkPayoutCreate, *, idempotency_key: str | None = None) -> BulkPayoutResponseData:
        """Send many payouts at once (`POST /payouts/bulk`).

        Sends up to 100 payouts in one call, all in one currency. The batch is all or
        nothing: every item is validated, and the Main Balance must fund the total, or the
        call is refused and nothing moves. Each item then becomes an ordinary payout with its
        own lifecycle and events, tagged with the returned `bulk_id`
        (`GET /payouts?bulk_id=...` lists them).
        """
        return cast("BulkPayoutResponseData", self._transport.request("POST", "/payouts/bulk", body=body, idempotency_key=idempotency_key).data)

    def get_payout(self, id: PayoutId) -> Payout:
        """Read a payout (`GET /payouts/{id}`).

        Reads one payout (or refund), with its current status.
        """
        return cast("Payout", self._transport.request("GET", "/payouts/{id}", path_params={"id": id}).data)

    def list_bank_batches(self, *, limit: int | None = None) -> BankBatchListResponseData:
        """List bank batches (`GET /bank-batches`).

        Lists this account's bank batches in this mode, newest first (at most `limit`).
        """
        return cast("BankBatchListResponseData", self._transport.request("GET", "/bank-batches", query={"limit": limit}).data)

    def create_bank_batch(self, *, idempotency_key: str | None = None) -> BankBatch:
        """Batch the pending bank payouts now (`POST /bank-batches`).

        Collects your pending bank payouts that are in no batch yet (in this mode, in XAF)
        into one batch and produces its ISO 20022 `pain.001.001.03` credit-transfer file at
        once: the batch's `control_sum` and `payout_count` are the file's. The file never
        changes afterwards, and each payout belongs to exactly one batch. The batch worker
        does the same on a schedule (`BANK_BATCH_INTERVAL_MS`); this call is for when you
        want the file now. With no payout waiting the call is refused with
        `422 nothing_to_batch`. The whole flow, with curl, is in the repository's
        docs/bank-payouts.md.
        """
        return cast("BankBatch", self._transport.request("POST", "/bank-batches", idempotency_key=idempotency_key).data)

    def get_bank_batch(self, id: BankBatchId) -> BankBatch:
        """Read a bank batch (`GET /bank-batches/{id}`).

        One batch, with how many of its payouts are still pending and the statements applied to it.
        """
        return cast("BankBatch", self._transport.request("GET", "/bank-batches/{id}", path_params={"id": id}).data)

    def get_bank_batch_file(self, id: BankBatchId) -> str:
        """Download a batch's pain.001 file (`GET /bank-batches/{id}/file`).

        The batch's ISO 20022 `pain.001.001.03` customer credit-transfer initiation, as
        produced when the batch was made (the same bytes every time): one `CdtTrfTxInf` per
        payout, whose `EndToEndId` is the payout's `transaction_id`. Hand it to your bank.
        """
        return cast("str", self._transport.request("GET", "/bank-batches/{id}/file", path_params={"id": id}, text=True, accept="application/xml").data)

    def create_bank_statement(self, id: BankBatchId, body: str, *, idempotency_key: str | None = None) -> BankStatementResponseData:
        """Upload the bank's camt.054 for a batch (`POST /bank-batches/{id}/statements`).

        Applies your bank's ISO 20022 `camt.054.001.02` debit notification (the body, as
        `application/xml`, at most 1 MiB) to the batch's payouts. Each transaction is matched
        to its payout by `EndToEndId`: a booked (`BOOK`) debit of the payout's amount makes it
        `success`; one with return information (`RtrInf`) makes it `failed` with the bank's
        reason (`AC04` → `bank_account_closed`, `BE01` → `bank_name_mismatch`, any other →
        `bank_rejected`), and its amount returns to your balance, once. Events and webhooks
        follow as for every payout.

        Nothing is applied twice: the answer reports each entry as `applied`,
        `already_applied` (the payout already has this outcome: uploading a statement again
        changes nothing), `conflicting` (the payout already has another outcome, or the
        amount differs), `unknown` (no payout of this batch has that `EndToEndId`),
        `duplicate` (the same `EndToEndId` earlier in the file) or `pending` (not booked yet).
        A body that is not a camt.054 document is refused with `422 invalid_statement`.
        """
        return cast("BankStatementResponseData", self._transport.request("POST", "/bank-batches/{id}/statements", path_params={"id": id}, body=body, idempotency_key=idempotency_key, xml=True).data)

    def get_bank_batch_sandbox_statement(self, id: BankBatchId) -> str:
        """The sandbox bank's camt.054 for a batch (`GET /bank-batches/{id}/sandbox-statement`).

        Test mode only: the `camt.054.001.02` the sandbox bank sends for this batch, to upload
        with `POST /bank-batches/{id}/statements`. The sandbox bank books every transfer
        except to an account number ending in `1` (returned `AC04`: `bank_account_closed`)
        or `2` (returned `BE01`: `bank_name_mismatch`). In live mode it is `404`.
        """
        return cast("str", self._transport.request("GET", "/bank-batches/{id}/sandbox-statement", path_params={"id": id}, text=True, accept="application/xml").data)

    def create_refund(self, body: RefundCreate, *, idempotency_key: str | None = None) -> Payout:
        """Refund a payment (`POST /refunds`).

        Returns money from a successful payment to the customer who paid it, as a payout of
        type `refund` to the payment's `customer_msisdn`, funded from your Main Balance.
        Omit `amount` to refund all that remains; several partial refunds may together reach
        the payment's amount, never more (`422 refund_exceeds_payment`). Only a `success`
        payment can be refunded (`409 payment_not_refundable`). A failed refund returns its
        amount to your balance and to the payment's refundable amount.
        """
        return cast("Payout", self._transport.request("POST", "/refunds", body=body, idempotency_key=idempotency_key).data)

    def list_topups(self, *, limit: int | None = None, cursor: Cursor | None = None, status: PaymentStatus | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> TopupListResponseData:
        """List top-ups (`GET /topups`).

        Lists the top-ups of this account and mode, newest first.
        """
        return cast("TopupListResponseData", self._transport.request("GET", "/topups", query={"limit": limit, "cursor": cursor, "status": status, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}).data)

    def iter_topups(self, *, limit: int | None = None, status: PaymentStatus | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> Iterator[Topup]:
        """List top-ups (`GET /topups`).

        Lists the top-ups of this account and mode, newest first.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[Topup]", self._transport.paginate("GET", "/topups", query={"limit": limit, "status": status, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}))

    def create_topup(self, body: TopupCreate, *, idempotency_key: str | None = None) -> Topup:
        """Top up the Main Balance (`POST /topups`).

        Pulls `amount` from a Mobile Money account you own (`payer_msisdn`) into your Main
        Balance, which funds payouts. Like a payment it answers `202` once initiated, and ends
        `success` (the balance is credited, `topup.completed`), `failed` (`topup.failed`) or
        `expired` (`topup.expired`).
        """
        return cast("Topup", self._transport.request("POST", "/topups", body=body, idempotency_key=idempotency_key).data)

    def get_topup(self, id: TopupId) -> Topup:
        """Read a top-up (`GET /topups/{id}`).

        Reads one top-up with its current status.
        """
        return cast("Topup", self._transport.request("GET", "/topups/{id}", path_params={"id": id}).data)

    def get_balance(self) -> Balance:
        """Read the Main Balance (`GET /balance`).

        Reads the Main Balance of this account and mode: the wallet id other users send
        transfers to, and the available amount in each currency. Payouts are debited when
        accepted, so `available` is what can still be paid out.
        """
        return cast("Balance", self._transport.request("GET", "/balance").data)

    def list_balance_transactions(self, *, limit: int | None = None, cursor: Cursor | None = None, type: BalanceTransactionType | None = None, currency: Currency | None = None, created_gte: str | None = None, created_lt: str | None = None) -> BalanceTransactionListResponseData:
        """List the ledger (`GET /balance/transactions`).

        Lists the append-only ledger behind the Main Balance, newest first. Every movement of
        money is one entry: a successful payment or top-up (credit), an accepted payout or
        refund (debit), a failed payout's reversal (credit) and an incoming wallet transfer
        (credit). `balance_after` is the balance in that currency right after the entry.
        """
        return cast("BalanceTransactionListResponseData", self._transport.request("GET", "/balance/transactions", query={"limit": limit, "cursor": cursor, "type": type, "currency": currency, "created_gte": created_gte, "created_lt": created_lt}).data)

    def iter_balance_transactions(self, *, limit: int | None = None, type: BalanceTransactionType | None = None, currency: Currency | None = None, created_gte: str | None = None, created_lt: str | None = None) -> Iterator[BalanceTransaction]:
        """List the ledger (`GET /balance/transactions`).

        Lists the append-only ledger behind the Main Balance, newest first. Every movement of
        money is one entry: a successful payment or top-up (credit), an accepted payout or
        refund (debit), a failed payout's reversal (credit) and an incoming wallet transfer
        (credit). `balance_after` is the balance in that currency right after the entry.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[BalanceTransaction]", self._transport.paginate("GET", "/balance/transactions", query={"limit": limit, "type": type, "currency": currency, "created_gte": created_gte, "created_lt": created_lt}))

    def export_balance_transactions(self, *, created_gte: str, created_lt: str, currency: Currency | None = None) -> str:
        """Export the ledger as CSV (`GET /reports/balance-transactions`).

        Streams every ledger entry created in `[created_gte, created_lt)` as CSV, oldest first,
        for accounting and compliance. The first line names the columns:
        `id,created_at,type,amount,currency,balance_after,source_id,description`. Amounts are
        integers in minor units; negative amounts are debits.
        """
        return cast("str", self._transport.request("GET", "/reports/balance-transactions", query={"created_gte": created_gte, "created_lt": created_lt, "currency": currency}, text=True).data)

    def list_services(self, *, limit: int | None = None, cursor: Cursor | None = None, status: ServiceStatus | None = None) -> ServiceListResponseData:
        """List services (`GET /services`).

        Lists the services of this account and mode, newest first. Deleted services are left
        out unless `status=deleted` asks for them.
        """
        return cast("ServiceListResponseData", self._transport.request("GET", "/services", query={"limit": limit, "cursor": cursor, "status": status}).data)

    def iter_services(self, *, limit: int | None = None, status: ServiceStatus | None = None) -> Iterator[Service]:
        """List services (`GET /services`).

        Lists the services of this account and mode, newest first. Deleted services are left
        out unless `status=deleted` asks for them.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[Service]", self._transport.paginate("GET", "/services", query={"limit": limit, "status": status}))

    def create_service(self, body: ServiceCreate, *, idempotency_key: str | None = None) -> Service:
        """Register a service (`POST /services`).

        Registers an integration (a plugin, an SDK, a website, an app) that payments will
        name in `service_id`. Its `name` is shown to customers on the hosted checkout page.
        A service is created `active`.
        """
        return cast("Service", self._transport.request("POST", "/services", body=body, idempotency_key=idempotency_key).data)

    def get_service(self, id: ServiceId) -> Service:
        """Read a service (`GET /services/{id}`).

        Reads one service, deleted ones included.
        """
        return cast("Service", self._transport.request("GET", "/services/{id}", path_params={"id": id}).data)

    def update_service(self, id: ServiceId, body: ServiceUpdate) -> Service:
        """Update a service (`PUT /services/{id}`).

        Changes the fields given and leaves the others as they are. Setting `status` to
        `inactive` makes new payments naming the service fail with `422 service_inactive`;
        `active` allows them again. A deleted service cannot change (`409 service_deleted`).
        """
        return cast("Service", self._transport.request("PUT", "/services/{id}", path_params={"id": id}, body=body).data)

    def delete_service(self, id: ServiceId) -> Service:
        """Delete a service (`DELETE /services/{id}`).

        Deletes a service: it can no longer receive payments or change, but it stays readable
        and its payments keep naming it. Deleting a deleted service changes nothing and
        answers the same.
        """
        return cast("Service", self._transport.request("DELETE", "/services/{id}", path_params={"id": id}).data)

    def list_webhook_endpoints(self, *, limit: int | None = None, cursor: Cursor | None = None) -> WebhookEndpointListResponseData:
        """List webhook endpoints (`GET /webhook-endpoints`).

        Lists the webhook endpoints of this account and mode, newest first. Secrets are not shown.
        """
        return cast("WebhookEndpointListResponseData", self._transport.request("GET", "/webhook-endpoints", query={"limit": limit, "cursor": cursor}).data)

    def iter_webhook_endpoints(self, *, limit: int | None = None) -> Iterator[WebhookEndpoint]:
        """List webhook endpoints (`GET /webhook-endpoints`).

        Lists the webhook endpoints of this account and mode, newest first. Secrets are not shown.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[WebhookEndpoint]", self._transport.paginate("GET", "/webhook-endpoints", query={"limit": limit}))

    def create_webhook_endpoint(self, body: WebhookEndpointCreate, *, idempotency_key: str | None = None) -> WebhookEndpointWithSecret:
        """Register a webhook endpoint (`POST /webhook-endpoints`).

        Registers a URL that receives the events of this account and mode (all of them, or
        the ones listed in `events`). The response holds the endpoint's signing `secret`:
        it is shown only here and when rotated, so store it. URLs must be public `http` or
        `https` URLs (no loopback, private, link-local or metadata addresses), and `https` in
        live mode. An account may have a limited number of endpoints per mode (16 by default;
        `409 too_many_webhook_endpoints` past it).

        The secret is not kept in a readable form for replays: a retry with the same
        `Idempotency-Key` is answered `409 secret_not_replayed` with the endpoint's id in the
        message, never the secret again.
        """
        return cast("WebhookEndpointWithSecret", self._transport.request("POST", "/webhook-endpoints", body=body, idempotency_key=idempotency_key).data)

    def get_webhook_endpoint(self, id: WebhookEndpointId) -> WebhookEndpoint:
        """Read a webhook endpoint (`GET /webhook-endpoints/{id}`).

        Reads one webhook endpoint. Its secret is not shown.
        """
        return cast("WebhookEndpoint", self._transport.request("GET", "/webhook-endpoints/{id}", path_params={"id": id}).data)

    def update_webhook_endpoint(self, id: WebhookEndpointId, body: WebhookEndpointUpdate) -> WebhookEndpoint:
        """Update a webhook endpoint (`PUT /webhook-endpoints/{id}`).

        Changes the fields given and leaves the others as they are. A `disabled` endpoint
        receives nothing until it is `enabled` again; events that happen meanwhile are not
        queued for it.
        """
        return cast("WebhookEndpoint", self._transport.request("PUT", "/webhook-endpoints/{id}", path_params={"id": id}, body=body).data)

    def delete_webhook_endpoint(self, id: WebhookEndpointId) -> DeletedResponseData:
        """Delete a webhook endpoint (`DELETE /webhook-endpoints/{id}`).

        Deletes the endpoint; its pending deliveries are cancelled.
        """
        return cast("DeletedResponseData", self._transport.request("DELETE", "/webhook-endpoints/{id}", path_params={"id": id}).data)

    def rotate_webhook_endpoint_secret(self, id: WebhookEndpointId, body: WebhookSecretRotation | None = None, *, idempotency_key: str | None = None) -> WebhookEndpointWithSecret:
        """Rotate a webhook endpoint's secret (`POST /webhook-endpoints/{id}/rotate-secret`).

        Gives the endpoint a new signing secret, shown only in this response. Deliveries are
        signed with the new secret from now on. With `overlap_seconds`, the previous secret
        also keeps signing them for that long (two `v1` signatures in `X-Webhook-Signature`),
        so receivers can switch to the new secret without rejecting a delivery; without it,
        the previous secret stops at once.
        A retry with the same `Idempotency-Key` is answered `409 secret_not_replayed`: the
        secret is never shown twice.
        """
        return cast("WebhookEndpointWithSecret", self._transport.request("POST", "/webhook-endpoints/{id}/rotate-secret", path_params={"id": id}, body=body, idempotency_key=idempotency_key).data)

    def list_events(self, *, limit: int | None = None, cursor: Cursor | None = None, event: EventName | None = None, transaction_id: TransactionId | None = None, created_gte: str | None = None, created_lt: str | None = None) -> EventListResponseData:
        """List events (`GET /events`).

        Lists the events of this account and mode, newest first.
        """
        return cast("EventListResponseData", self._transport.request("GET", "/events", query={"limit": limit, "cursor": cursor, "event": event, "transaction_id": transaction_id, "created_gte": created_gte, "created_lt": created_lt}).data)

    def iter_events(self, *, limit: int | None = None, event: EventName | None = None, transaction_id: TransactionId | None = None, created_gte: str | None = None, created_lt: str | None = None) -> Iterator[Event]:
        """List events (`GET /events`).

        Lists the events of this account and mode, newest first.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[Event]", self._transport.paginate("GET", "/events", query={"limit": limit, "event": event, "transaction_id": transaction_id, "created_gte": created_gte, "created_lt": created_lt}))

    def get_event(self, id: EventId) -> Event:
        """Read an event (`GET /events/{id}`).

        Reads one event, exactly as it is sent to webhook endpoints.
        """
        return cast("Event", self._transport.request("GET", "/events/{id}", path_params={"id": id}).data)

    def list_event_deliveries(self, id: EventId, *, limit: int | None = None, cursor: Cursor | None = None) -> DeliveryListResponseData:
        """List an event's deliveries (`GET /events/{id}/deliveries`).

        Lists the deliveries of one event, one per endpoint it was (or will be) sent to,
        newest first, each with its attempt count, next attempt and the outcome of its last
        attempt.
        """
        return cast("DeliveryListResponseData", self._transport.request("GET", "/events/{id}/deliveries", path_params={"id": id}, query={"limit": limit, "cursor": cursor}).data)

    def iter_event_deliveries(self, id: EventId, *, limit: int | None = None) -> Iterator[Delivery]:
        """List an event's deliveries (`GET /events/{id}/deliveries`).

        Lists the deliveries of one event, one per endpoint it was (or will be) sent to,
        newest first, each with its attempt count, next attempt and the outcome of its last
        attempt.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[Delivery]", self._transport.paginate("GET", "/events/{id}/deliveries", path_params={"id": id}, query={"limit": limit}))

    def resend_event(self, id: EventId, body: EventResend | None = None, *, idempotency_key: str | None = None) -> DeliveryListResponseData:
        """Re-send an event (`POST /events/{id}/resend`).

        Queues a new delivery of the event to every enabled endpoint that subscribes to it,
        or only to `endpoint_id` when given, whatever happened to earlier deliveries.
        """
        return cast("DeliveryListResponseData", self._transport.request("POST", "/events/{id}/resend", path_params={"id": id}, body=body, idempotency_key=idempotency_key).data)

    def list_logs(self, *, limit: int | None = None, cursor: Cursor | None = None, method: Literal["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] | None = None, path: str | None = None, status: int | None = None, status_class: Literal["2xx", "3xx", "4xx", "5xx"] | None = None, error_code: ErrorCode | None = None, request_id: RequestId | None = None, created_gte: str | None = None, created_lt: str | None = None) -> LogListResponseData:
        """Query the API call history (`GET /logs`).

        Lists the API calls made with this account's keys in this mode, newest first,
        rejected ones included. Keys, secrets and bodies are never recorded. Logs are kept
        for 30 days.
        """
        return cast("LogListResponseData", self._transport.request("GET", "/logs", query={"limit": limit, "cursor": cursor, "method": method, "path": path, "status": status, "status_class": status_class, "error_code": error_code, "request_id": request_id, "created_gte": created_gte, "created_lt": created_lt}).data)

    def iter_logs(self, *, limit: int | None = None, method: Literal["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] | None = None, path: str | None = None, status: int | None = None, status_class: Literal["2xx", "3xx", "4xx", "5xx"] | None = None, error_code: ErrorCode | None = None, request_id: RequestId | None = None, created_gte: str | None = None, created_lt: str | None = None) -> Iterator[Log]:
        """Query the API call history (`GET /logs`).

        Lists the API calls made with this account's keys in this mode, newest first,
        rejected ones included. Keys, secrets and bodies are never recorded. Logs are kept
        for 30 days.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[Log]", self._transport.paginate("GET", "/logs", query={"limit": limit, "method": method, "path": path, "status": status, "status_class": status_class, "error_code": error_code, "request_id": request_id, "created_gte": created_gte, "created_lt": created_lt}))

    def list_api_keys(self, *, limit: int | None = None, cursor: Cursor | None = None) -> ApiKeyListResponseData:
        """List API keys (`GET /api-keys`).

        Lists the secret keys of this account in the caller's mode, newest first, with their
        state. Only the last four characters of each key are shown.
        """
        return cast("ApiKeyListResponseData", self._transport.request("GET", "/api-keys", query={"limit": limit, "cursor": cursor}).data)

    def iter_api_keys(self, *, limit: int | None = None) -> Iterator[ApiKey]:
        """List API keys (`GET /api-keys`).

        Lists the secret keys of this account in the caller's mode, newest first, with their
        state. Only the last four characters of each key are shown.

        Every item, page after page: each page's `next_cursor` is sent as `cursor` while
        `has_more` is true. Stop early with `break`; a failed page raises its `APIError`.
        """
        return cast("Iterator[ApiKey]", self._transport.paginate("GET", "/api-keys", query={"limit": limit}))

    def create_api_key(self, body: ApiKeyCreate, *, idempotency_key: str | None = None) -> ApiKeyCreationResponseData:
        """Create a key (`POST /api-keys`).

        Creates a new secret key of the caller's mode with the role you choose: `full` (every
        operation), `collect` (payments and reading; no payouts, refunds, top-ups, services,
        webhooks or keys) or `read_only` (reading only). Give each system the least it needs: a
        till or a checkout server a `collect` key, a reporting job a `read_only` key. The key is
        shown only in this response; a retry with the same `Idempotency-Key` is answered `409
        secret_not_replayed`. A mode has at most two working `full` keys and ten working keys of
        each restricted role (`409 too_many_active_keys`).
        """
        return cast("ApiKeyCreationResponseData", self._transport.request("POST", "/api-keys", body=body, idempotency_key=idempotency_key).data)

    def rotate_api_key(self, body: ApiKeyRotate | None = None, *, idempotency_key: str | None = None) -> ApiKeyRotationResponseData:
        """Rotate the secret key (`POST /api-keys/rotate`).

        Creates a new secret key for the caller's mode (a test key rotates the test key, a
        live key the live key) and retires the key that made the call: at once when
        `grace_period_seconds` is 0 (the default), or at the end of the grace period, during
        which both keys work. The new key is shown only in this response. The rotation is
        recorded in the call logs.

        Only an `active` key may rotate (`403 key_not_active` for a key in its grace period),
        and a mode has at most two working keys (`409 too_many_active_keys`: revoke the other
        one, or rotate with `grace_period_seconds: 0`). A retry with the same
        `Idempotency-Key` is answered `409 secret_not_replayed`, naming the new key's id; the
        key itself is never shown twice. Lost it? Revoke it by id and rotate again from a key
        that still works, or ask the operator for a new key (`npm run admin -- reset-keys`).
        """
        return cast("ApiKeyRotationResponseData", self._transport.request("POST", "/api-keys/rotate", body=body, idempotency_key=idempotency_key).data)

    def revoke_api_key(self, id: ApiKeyId, *, idempotency_key: str | None = None) -> ApiKey:
        """Revoke a key by id (`POST /api-keys/{id}/revoke`).

        Revokes one secret key of the caller's account and mode at once, whether it is
        `active` or in its grace period: from then on it is refused with `401
        invalid_api_key`. Revoking a key that is already revoked changes nothing and answers
        it again. Only an `active` key may revoke (`403 key_not_active`), and the last working
        key of a mode cannot be revoked (`409 last_active_key`), so this call never leaves the
        account without a key. A key may revoke itself when another key still works.
        """
        return cast("ApiKey", self._transport.request("POST", "/api-keys/{id}/revoke", path_params={"id": id}, idempotency_key=idempotency_key).data)

    def get_health(self) -> HealthResponseData:
        """Check the service's health (`GET /healthz`).

        Answers `200` when the service runs and its database answers, `503` otherwise. Needs
        no key, so load balancers and uptime checks can call it. `operators` says, for each
        live operator product, whether this instance reaches it; a failing operator leaves
        the answer `200` (the service is up), as a status page shows each component apart.
        """
        return cast("HealthResponseData", self._transport.request("GET", "/healthz").data)


class OperationsWithResponse:
    """The same operations, each answering an `ApiResponse`: `data`, `status`, `headers`, `request_id`."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def list_payments(self, *, limit: int | None = None, cursor: Cursor | None = None, status: PaymentStatus | None = None, service_id: ServiceId | None = None, flow: PaymentFlow | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> ApiResponse[PaymentListResponseData]:
        """`GET /payments`, answered with its status, headers and request id."""
        return cast("ApiResponse[PaymentListResponseData]", self._transport.request("GET", "/payments", query={"limit": limit, "cursor": cursor, "status": status, "service_id": service_id, "flow": flow, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}))

    def create_payment(self, body: PaymentCreate, *, idempotency_key: str | None = None) -> ApiResponse[Payment]:
        """`POST /payments`, answered with its status, headers and request id."""
        return cast("ApiResponse[Payment]", self._transport.request("POST", "/payments", body=body, idempotency_key=idempotency_key))

    def create_direct_payment(self, body: PaymentCreate, *, idempotency_key: str | None = None) -> ApiResponse[Payment]:
        """`POST /payments/direct`, answered with its status, headers and request id."""
        return cast("ApiResponse[Payment]", self._transport.request("POST", "/payments/direct", body=body, idempotency_key=idempotency_key))

    def initiate_hosted_payment(self, body: HostedPaymentCreate, *, idempotency_key: str | None = None) -> ApiResponse[Payment]:
        """`POST /payments/initiate`, answered with its status, headers and request id."""
        return cast("ApiResponse[Payment]", self._transport.request("POST", "/payments/initiate", body=body, idempotency_key=idempotency_key))

    def get_payment(self, id: PaymentId) -> ApiResponse[Payment]:
        """`GET /payments/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[Payment]", self._transport.request("GET", "/payments/{id}", path_params={"id": id}))

    def list_payouts(self, *, limit: int | None = None, cursor: Cursor | None = None, status: PayoutStatus | None = None, payout_type: PayoutType | None = None, bulk_id: BulkId | None = None, payment_id: PaymentId | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> ApiResponse[PayoutListResponseData]:
        """`GET /payouts`, answered with its status, headers and request id."""
        return cast("ApiResponse[PayoutListResponseData]", self._transport.request("GET", "/payouts", query={"limit": limit, "cursor": cursor, "status": status, "payout_type": payout_type, "bulk_id": bulk_id, "payment_id": payment_id, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}))

    def create_payout(self, body: PayoutCreate, *, idempotency_key: str | None = None) -> ApiResponse[Payout]:
        """`POST /payouts`, answered with its status, headers and request id."""
        return cast("ApiResponse[Payout]", self._transport.request("POST", "/payouts", body=body, idempotency_key=idempotency_key))

    def create_bulk_payout(self, body: BulkPayoutCreate, *, idempotency_key: str | None = None) -> ApiResponse[BulkPayoutResponseData]:
        """`POST /payouts/bulk`, answered with its status, headers and request id."""
        return cast("ApiResponse[BulkPayoutResponseData]", self._transport.request("POST", "/payouts/bulk", body=body, idempotency_key=idempotency_key))

    def get_payout(self, id: PayoutId) -> ApiResponse[Payout]:
        """`GET /payouts/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[Payout]", self._transport.request("GET", "/payouts/{id}", path_params={"id": id}))

    def list_bank_batches(self, *, limit: int | None = None) -> ApiResponse[BankBatchListResponseData]:
        """`GET /bank-batches`, answered with its status, headers and request id."""
        return cast("ApiResponse[BankBatchListResponseData]", self._transport.request("GET", "/bank-batches", query={"limit": limit}))

    def create_bank_batch(self, *, idempotency_key: str | None = None) -> ApiResponse[BankBatch]:
        """`POST /bank-batches`, answered with its status, headers and request id."""
        return cast("ApiResponse[BankBatch]", self._transport.request("POST", "/bank-batches", idempotency_key=idempotency_key))

    def get_bank_batch(self, id: BankBatchId) -> ApiResponse[BankBatch]:
        """`GET /bank-batches/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[BankBatch]", self._transport.request("GET", "/bank-batches/{id}", path_params={"id": id}))

    def get_bank_batch_file(self, id: BankBatchId) -> ApiResponse[str]:
        """`GET /bank-batches/{id}/file`, answered with its status, headers and request id."""
        return cast("ApiResponse[str]", self._transport.request("GET", "/bank-batches/{id}/file", path_params={"id": id}, text=True, accept="application/xml"))

    def create_bank_statement(self, id: BankBatchId, body: str, *, idempotency_key: str | None = None) -> ApiResponse[BankStatementResponseData]:
        """`POST /bank-batches/{id}/statements`, answered with its status, headers and request id."""
        return cast("ApiResponse[BankStatementResponseData]", self._transport.request("POST", "/bank-batches/{id}/statements", path_params={"id": id}, body=body, idempotency_key=idempotency_key, xml=True))

    def get_bank_batch_sandbox_statement(self, id: BankBatchId) -> ApiResponse[str]:
        """`GET /bank-batches/{id}/sandbox-statement`, answered with its status, headers and request id."""
        return cast("ApiResponse[str]", self._transport.request("GET", "/bank-batches/{id}/sandbox-statement", path_params={"id": id}, text=True, accept="application/xml"))

    def create_refund(self, body: RefundCreate, *, idempotency_key: str | None = None) -> ApiResponse[Payout]:
        """`POST /refunds`, answered with its status, headers and request id."""
        return cast("ApiResponse[Payout]", self._transport.request("POST", "/refunds", body=body, idempotency_key=idempotency_key))

    def list_topups(self, *, limit: int | None = None, cursor: Cursor | None = None, status: PaymentStatus | None = None, reference: Reference | None = None, created_gte: str | None = None, created_lt: str | None = None) -> ApiResponse[TopupListResponseData]:
        """`GET /topups`, answered with its status, headers and request id."""
        return cast("ApiResponse[TopupListResponseData]", self._transport.request("GET", "/topups", query={"limit": limit, "cursor": cursor, "status": status, "reference": reference, "created_gte": created_gte, "created_lt": created_lt}))

    def create_topup(self, body: TopupCreate, *, idempotency_key: str | None = None) -> ApiResponse[Topup]:
        """`POST /topups`, answered with its status, headers and request id."""
        return cast("ApiResponse[Topup]", self._transport.request("POST", "/topups", body=body, idempotency_key=idempotency_key))

    def get_topup(self, id: TopupId) -> ApiResponse[Topup]:
        """`GET /topups/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[Topup]", self._transport.request("GET", "/topups/{id}", path_params={"id": id}))

    def get_balance(self) -> ApiResponse[Balance]:
        """`GET /balance`, answered with its status, headers and request id."""
        return cast("ApiResponse[Balance]", self._transport.request("GET", "/balance"))

    def list_balance_transactions(self, *, limit: int | None = None, cursor: Cursor | None = None, type: BalanceTransactionType | None = None, currency: Currency | None = None, created_gte: str | None = None, created_lt: str | None = None) -> ApiResponse[BalanceTransactionListResponseData]:
        """`GET /balance/transactions`, answered with its status, headers and request id."""
        return cast("ApiResponse[BalanceTransactionListResponseData]", self._transport.request("GET", "/balance/transactions", query={"limit": limit, "cursor": cursor, "type": type, "currency": currency, "created_gte": created_gte, "created_lt": created_lt}))

    def export_balance_transactions(self, *, created_gte: str, created_lt: str, currency: Currency | None = None) -> ApiResponse[str]:
        """`GET /reports/balance-transactions`, answered with its status, headers and request id."""
        return cast("ApiResponse[str]", self._transport.request("GET", "/reports/balance-transactions", query={"created_gte": created_gte, "created_lt": created_lt, "currency": currency}, text=True))

    def list_services(self, *, limit: int | None = None, cursor: Cursor | None = None, status: ServiceStatus | None = None) -> ApiResponse[ServiceListResponseData]:
        """`GET /services`, answered with its status, headers and request id."""
        return cast("ApiResponse[ServiceListResponseData]", self._transport.request("GET", "/services", query={"limit": limit, "cursor": cursor, "status": status}))

    def create_service(self, body: ServiceCreate, *, idempotency_key: str | None = None) -> ApiResponse[Service]:
        """`POST /services`, answered with its status, headers and request id."""
        return cast("ApiResponse[Service]", self._transport.request("POST", "/services", body=body, idempotency_key=idempotency_key))

    def get_service(self, id: ServiceId) -> ApiResponse[Service]:
        """`GET /services/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[Service]", self._transport.request("GET", "/services/{id}", path_params={"id": id}))

    def update_service(self, id: ServiceId, body: ServiceUpdate) -> ApiResponse[Service]:
        """`PUT /services/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[Service]", self._transport.request("PUT", "/services/{id}", path_params={"id": id}, body=body))

    def delete_service(self, id: ServiceId) -> ApiResponse[Service]:
        """`DELETE /services/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[Service]", self._transport.request("DELETE", "/services/{id}", path_params={"id": id}))

    def list_webhook_endpoints(self, *, limit: int | None = None, cursor: Cursor | None = None) -> ApiResponse[WebhookEndpointListResponseData]:
        """`GET /webhook-endpoints`, answered with its status, headers and request id."""
        return cast("ApiResponse[WebhookEndpointListResponseData]", self._transport.request("GET", "/webhook-endpoints", query={"limit": limit, "cursor": cursor}))

    def create_webhook_endpoint(self, body: WebhookEndpointCreate, *, idempotency_key: str | None = None) -> ApiResponse[WebhookEndpointWithSecret]:
        """`POST /webhook-endpoints`, answered with its status, headers and request id."""
        return cast("ApiResponse[WebhookEndpointWithSecret]", self._transport.request("POST", "/webhook-endpoints", body=body, idempotency_key=idempotency_key))

    def get_webhook_endpoint(self, id: WebhookEndpointId) -> ApiResponse[WebhookEndpoint]:
        """`GET /webhook-endpoints/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[WebhookEndpoint]", self._transport.request("GET", "/webhook-endpoints/{id}", path_params={"id": id}))

    def update_webhook_endpoint(self, id: WebhookEndpointId, body: WebhookEndpointUpdate) -> ApiResponse[WebhookEndpoint]:
        """`PUT /webhook-endpoints/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[WebhookEndpoint]", self._transport.request("PUT", "/webhook-endpoints/{id}", path_params={"id": id}, body=body))

    def delete_webhook_endpoint(self, id: WebhookEndpointId) -> ApiResponse[DeletedResponseData]:
        """`DELETE /webhook-endpoints/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[DeletedResponseData]", self._transport.request("DELETE", "/webhook-endpoints/{id}", path_params={"id": id}))

    def rotate_webhook_endpoint_secret(self, id: WebhookEndpointId, body: WebhookSecretRotation | None = None, *, idempotency_key: str | None = None) -> ApiResponse[WebhookEndpointWithSecret]:
        """`POST /webhook-endpoints/{id}/rotate-secret`, answered with its status, headers and request id."""
        return cast("ApiResponse[WebhookEndpointWithSecret]", self._transport.request("POST", "/webhook-endpoints/{id}/rotate-secret", path_params={"id": id}, body=body, idempotency_key=idempotency_key))

    def list_events(self, *, limit: int | None = None, cursor: Cursor | None = None, event: EventName | None = None, transaction_id: TransactionId | None = None, created_gte: str | None = None, created_lt: str | None = None) -> ApiResponse[EventListResponseData]:
        """`GET /events`, answered with its status, headers and request id."""
        return cast("ApiResponse[EventListResponseData]", self._transport.request("GET", "/events", query={"limit": limit, "cursor": cursor, "event": event, "transaction_id": transaction_id, "created_gte": created_gte, "created_lt": created_lt}))

    def get_event(self, id: EventId) -> ApiResponse[Event]:
        """`GET /events/{id}`, answered with its status, headers and request id."""
        return cast("ApiResponse[Event]", self._transport.request("GET", "/events/{id}", path_params={"id": id}))

    def list_event_deliveries(self, id: EventId, *, limit: int | None = None, cursor: Cursor | None = None) -> ApiResponse[DeliveryListResponseData]:
        """`GET /events/{id}/deliveries`, answered with its status, headers and request id."""
        return cast("ApiResponse[DeliveryListResponseData]", self._transport.request("GET", "/events/{id}/deliveries", path_params={"id": id}, query={"limit": limit, "cursor": cursor}))

    def resend_event(self, id: EventId, body: EventResend | None = None, *, idempotency_key: str | None = None) -> ApiResponse[DeliveryListResponseData]:
        """`POST /events/{id}/resend`, answered with its status, headers and request id."""
        return cast("ApiResponse[DeliveryListResponseData]", self._transport.request("POST", "/events/{id}/resend", path_params={"id": id}, body=body, idempotency_key=idempotency_key))

    def list_logs(self, *, limit: int | None = None, cursor: Cursor | None = None, method: Literal["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] | None = None, path: str | None = None, status: int | None = None, status_class: Literal["2xx", "3xx", "4xx", "5xx"] | None = None, error_code: ErrorCode | None = None, request_id: RequestId | None = None, created_gte: str | None = None, created_lt: str | None = None) -> ApiResponse[LogListResponseData]:
        """`GET /logs`, answered with its status, headers and request id."""
        return cast("ApiResponse[LogListResponseData]", self._transport.request("GET", "/logs", query={"limit": limit, "cursor": cursor, "method": method, "path": path, "status": status, "status_class": status_class, "error_code": error_code, "request_id": request_id, "created_gte": created_gte, "created_lt": created_lt}))

    def list_api_keys(self, *, limit: int | None = None, cursor: Cursor | None = None) -> ApiResponse[ApiKeyListResponseData]:
        """`GET /api-keys`, answered with its status, headers and request id."""
        return cast("ApiResponse[ApiKeyListResponseData]", self._transport.request("GET", "/api-keys", query={"limit": limit, "cursor": cursor}))

    def create_api_key(self, body: ApiKeyCreate, *, idempotency_key: str | None = None) -> ApiResponse[ApiKeyCreationResponseData]:
        """`POST /api-keys`, answered with its status, headers and request id."""
        return cast("ApiResponse[ApiKeyCreationResponseData]", self._transport.request("POST", "/api-keys", body=body, idempotency_key=idempotency_key))

    def rotate_api_key(self, body: ApiKeyRotate | None = None, *, idempotency_key: str | None = None) -> ApiResponse[ApiKeyRotationResponseData]:
        """`POST /api-keys/rotate`, answered with its status, headers and request id."""
        return cast("ApiResponse[ApiKeyRotationResponseData]", self._transport.request("POST", "/api-keys/rotate", body=body, idempotency_key=idempotency_key))

    def revoke_api_key(self, id: ApiKeyId, *, idempotency_key: str | None = None) -> ApiResponse[ApiKey]:
        """`POST /api-keys/{id}/revoke`, answered with its status, headers and request id."""
        return cast("ApiResponse[ApiKey]", self._transport.request("POST", "/api-keys/{id}/revoke", path_params={"id": id}, idempotency_key=idempotency_key))

    def get_health(self) -> ApiResponse[HealthResponseData]:
        """`GET /healthz`, answered with its status, headers and request id."""
        return cast("ApiResponse[HealthResponseData]", self._transport.request("GET", "/healthz"))
