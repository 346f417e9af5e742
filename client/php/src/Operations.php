<?php

declare(strict_types=1);

namespace MomoPayments;

/**
 * One method per operation of the contract, named by its `operationId`. Bodies and queries are
 * arrays spelled as the contract spells them (`customer_msisdn`, `service_id`); answers are
 * the models of `MomoPayments\Model`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
trait Operations
{
    /**
     * @param array<string, scalar> $query
     * @param array<string, mixed>|null $body
     */
    abstract protected function send(string $method, string $path, array $query = [], ?array $body = null, ?string $idempotencyKey = null): Http\Response;

    /** @return array<string, mixed> The `data` of a success envelope. */
    abstract protected function data(Http\Response $response): array;

    /**
     * @param array<string, scalar> $query
     * @param callable(array<string, mixed>): object $build
     */
    abstract protected function page(string $method, string $path, array $query, callable $build): Page;

    /**
     * List payments: `GET /payments`.
     *
     * Lists the payments of this account and mode, newest first, with optional filters.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`, `status`, `service_id`, `flow`, `reference`, `created_gte`, `created_lt`.
     * @return Page<Model\Payment> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listPayments(array $query = []): Page
    {
        return $this->page('GET', '/payments', $query, Model\Payment::fromArray(...));
    }

    /**
     * Collect a payment: `POST /payments`.
     *
     * Asks the customer's Mobile Money operator to charge `customer_msisdn`; the customer approves
     * the charge on their phone. The call answers `202 Accepted` as soon as the charge is
     * initiated. The outcome follows by webhook (`payment.completed`, `payment.failed` or
     * `payment.expired`) and can be read with `GET /payments/{id}`. This is the direct flow; `POST
     * /payments/direct` is the same operation under its explicit name. `service_id` must name an
     * active service of your account.
     *
     * @param array<string, mixed> $body The JSON body (PaymentCreate): `amount`, `currency`, `customer_msisdn`, `payment_method`, `service_id`, `reference`?, `metadata`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\Payment
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\ValidationException 422 (service_not_found, service_inactive, unsupported_network, network_mismatch, currency_not_accepted)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createPayment(array $body, ?string $idempotencyKey = null): Model\Payment
    {
        return Model\Payment::fromArray($this->data($this->send('POST', '/payments', [], $body, $idempotencyKey)));
    }

    /**
     * Collect a payment through the direct flow: `POST /payments/direct`.
     *
     * The direct flow under its explicit name: pushes an approval request to the customer's phone.
     * Same request, response and lifecycle as `POST /payments`.
     *
     * @param array<string, mixed> $body The JSON body (PaymentCreate): `amount`, `currency`, `customer_msisdn`, `payment_method`, `service_id`, `reference`?, `metadata`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\Payment
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\ValidationException 422 (service_not_found, service_inactive, unsupported_network, network_mismatch, currency_not_accepted)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createDirectPayment(array $body, ?string $idempotencyKey = null): Model\Payment
    {
        return Model\Payment::fromArray($this->data($this->send('POST', '/payments/direct', [], $body, $idempotencyKey)));
    }

    /**
     * Collect a payment through the hosted checkout page: `POST /payments/initiate`.
     *
     * Creates a payment and a hosted checkout page for it. Send the returned `checkout_url` to
     * your customer: the page shows the amount and your service's name, asks for their phone
     * number and operator, and follows the payment to its outcome. The link can be paid once and
     * stops working at `expires_at`, when an unpaid payment becomes `expired`. `customer_msisdn`
     * and `payment_method` are optional here: when given, they pre-fill the page.
     *
     * @param array<string, mixed> $body The JSON body (HostedPaymentCreate): `amount`, `currency`, `service_id`, `customer_msisdn`?, `payment_method`?, `reference`?, `metadata`?, `expires_in_seconds`?, `return_url`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\Payment
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\ValidationException 422 (service_not_found, service_inactive, unsupported_network, network_mismatch, currency_not_accepted)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function initiateHostedPayment(array $body, ?string $idempotencyKey = null): Model\Payment
    {
        return Model\Payment::fromArray($this->data($this->send('POST', '/payments/initiate', [], $body, $idempotencyKey)));
    }

    /**
     * Read a payment: `GET /payments/{id}`.
     *
     * Reads one payment, with its current status and, once final, its outcome.
     *
     * @param string $id The payment's `transaction_id`.
     * @return Model\Payment
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getPayment(string $id): Model\Payment
    {
        return Model\Payment::fromArray($this->data($this->send('GET', '/payments/' . rawurlencode($id))));
    }

    /**
     * List payouts: `GET /payouts`.
     *
     * Lists payouts (refunds included) of this account and mode, newest first.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`, `status`, `payout_type`, `bulk_id`, `payment_id`, `reference`, `created_gte`, `created_lt`.
     * @return Page<Model\Payout> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listPayouts(array $query = []): Page
    {
        return $this->page('GET', '/payouts', $query, Model\Payout::fromArray(...));
    }

    /**
     * Send a payout: `POST /payouts`.
     *
     * Sends `amount` from your Main Balance to exactly one recipient: a Mobile Money number
     * (`recipient_msisdn`) or the wallet of another user of the service (`recipient_wallet_id`),
     * or a bank account in the CEMAC zone (`recipient_bank_account`). A `withdrawal` goes to a
     * Mobile Money number or a bank account; a `transfer` goes to any of them. A bank payout's RIB
     * key and IBAN check digits are verified first (`422 invalid_rib_key`, `422
     * invalid_iban_check_digits`, nothing debited). It is debited at once and stays `pending`
     * until it is batched into an ISO 20022 pain.001 file (`POST /bank-batches`) and the bank's
     * camt.054 statement for that file is uploaded (`POST /bank-batches/{id}/statements`): then
     * `success`, or `failed` with the bank's reason and its amount returned. The amount is debited
     * when the payout is accepted; if the balance cannot fund it the call is refused with `403
     * insufficient_balance` and nothing moves. A payout to a number is `pending` until the
     * operator settles it (`payout.completed`) or refuses it (`payout.failed`, and the amount is
     * returned to your balance). A transfer to a wallet is internal and is `success` at once. A
     * payout to a number goes through the operator of the number's network, found by its prefix,
     * unless `payment_method` names one; a `payment_method` that is not the number's network is
     * refused with `422 network_mismatch`. In live mode a number (or a `payment_method`) that no
     * connected operator serves is refused with `422 unsupported_network` before anything is
     * debited.
     *
     * @param array<string, mixed> $body The JSON body (PayoutCreate): `amount`, `currency`?, `recipient_msisdn`?, `recipient_wallet_id`?, `recipient_bank_account`?, `payout_type`, `reference`?, `metadata`?, `payment_method`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\Payout
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (insufficient_balance, permission_denied)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\ValidationException 422 (wallet_not_found, self_transfer, unsupported_network, network_mismatch, currency_not_accepted, invalid_iban_check_digits, invalid_rib_key)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createPayout(array $body, ?string $idempotencyKey = null): Model\Payout
    {
        return Model\Payout::fromArray($this->data($this->send('POST', '/payouts', [], $body, $idempotencyKey)));
    }

    /**
     * Send many payouts at once: `POST /payouts/bulk`.
     *
     * Sends up to 100 payouts in one call, all in one currency. The batch is all or nothing: every
     * item is validated, and the Main Balance must fund the total, or the call is refused and
     * nothing moves. Each item then becomes an ordinary payout with its own lifecycle and events,
     * tagged with the returned `bulk_id` (`GET /payouts?bulk_id=...` lists them).
     *
     * @param array<string, mixed> $body The JSON body (BulkPayoutCreate): `currency`?, `items`.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\BulkPayout
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (insufficient_balance, permission_denied)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\ValidationException 422 (wallet_not_found, self_transfer, unsupported_network, network_mismatch, currency_not_accepted, invalid_iban_check_digits, invalid_rib_key)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createBulkPayout(array $body, ?string $idempotencyKey = null): Model\BulkPayout
    {
        return Model\BulkPayout::fromArray($this->data($this->send('POST', '/payouts/bulk', [], $body, $idempotencyKey)));
    }

    /**
     * Read a payout: `GET /payouts/{id}`.
     *
     * Reads one payout (or refund), with its current status.
     *
     * @param string $id The payout's `transaction_id`.
     * @return Model\Payout
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getPayout(string $id): Model\Payout
    {
        return Model\Payout::fromArray($this->data($this->send('GET', '/payouts/' . rawurlencode($id))));
    }

    /**
     * List bank batches: `GET /bank-batches`.
     *
     * Lists this account's bank batches in this mode, newest first (at most `limit`).
     *
     * @param array<string, scalar> $query Filters and paging: `limit`.
     * @return Model\BankBatchList
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listBankBatches(array $query = []): Model\BankBatchList
    {
        return Model\BankBatchList::fromArray($this->data($this->send('GET', '/bank-batches', $query)));
    }

    /**
     * Batch the pending bank payouts now: `POST /bank-batches`.
     *
     * Collects your pending bank payouts that are in no batch yet (in this mode, in XAF) into one
     * batch and produces its ISO 20022 `pain.001.001.03` credit-transfer file at once: the batch's
     * `control_sum` and `payout_count` are the file's. The file never changes afterwards, and each
     * payout belongs to exactly one batch. The batch worker does the same on a schedule
     * (`BANK_BATCH_INTERVAL_MS`); this call is for when you want the file now. With no payout
     * waiting the call is refused with `422 nothing_to_batch`. The whole flow, with curl, is in
     * the repository's docs/bank-payouts.md.
     *
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\BankBatch
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ValidationException 422 (nothing_to_batch)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createBankBatch(?string $idempotencyKey = null): Model\BankBatch
    {
        return Model\BankBatch::fromArray($this->data($this->send('POST', '/bank-batches', [], null, $idempotencyKey)));
    }

    /**
     * Read a bank batch: `GET /bank-batches/{id}`.
     *
     * One batch, with how many of its payouts are still pending and the statements applied to it.
     *
     * @param string $id The batch's `batch_id`.
     * @return Model\BankBatch
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getBankBatch(string $id): Model\BankBatch
    {
        return Model\BankBatch::fromArray($this->data($this->send('GET', '/bank-batches/' . rawurlencode($id))));
    }

    /**
     * Download a batch's pain.001 file: `GET /bank-batches/{id}/file`.
     *
     * The batch's ISO 20022 `pain.001.001.03` customer credit-transfer initiation, as produced
     * when the batch was made (the same bytes every time): one `CdtTrfTxInf` per payout, whose
     * `EndToEndId` is the payout's `transaction_id`. Hand it to your bank.
     *
     * @param string $id The batch's `batch_id`.
     * @return string The application/xml body, as sent.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getBankBatchFile(string $id): string
    {
        return $this->send('GET', '/bank-batches/' . rawurlencode($id) . '/file')->body;
    }

    /**
     * Upload the bank's camt.054 for a batch: `POST /bank-batches/{id}/statements`.
     *
     * Applies your bank's ISO 20022 `camt.054.001.02` debit notification (the body, as
     * `application/xml`, at most 1 MiB) to the batch's payouts. Each transaction is matched to its
     * payout by `EndToEndId`: a booked (`BOOK`) debit of the payout's amount makes it `success`;
     * one with return information (`RtrInf`) makes it `failed` with the bank's reason (`AC04` →
     * `bank_account_closed`, `BE01` → `bank_name_mismatch`, any other → `bank_rejected`), and its
     * amount returns to your balance, once. Events and webhooks follow as for every payout.
     * Nothing is applied twice: the answer reports each entry as `applied`, `already_applied` (the
     * payout already has this outcome: uploading a statement again changes nothing), `conflicting`
     * (the payout already has another outcome, or the amount differs), `unknown` (no payout of
     * this batch has that `EndToEndId`), `duplicate` (the same `EndToEndId` earlier in the file)
     * or `pending` (not booked yet). A body that is not a camt.054 document is refused with `422
     * invalid_statement`.
     *
     * @param string $id The batch's `batch_id`.
     * @param string $xml The XML document, sent as `application/xml`.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\BankStatement
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\ValidationException 422 (invalid_statement)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createBankStatement(string $id, string $xml, ?string $idempotencyKey = null): Model\BankStatement
    {
        return Model\BankStatement::fromArray($this->data($this->send('POST', '/bank-batches/' . rawurlencode($id) . '/statements', [], $xml, $idempotencyKey)));
    }

    /**
     * The sandbox bank's camt.054 for a batch: `GET /bank-batches/{id}/sandbox-statement`.
     *
     * Test mode only: the `camt.054.001.02` the sandbox bank sends for this batch, to upload with
     * `POST /bank-batches/{id}/statements`. The sandbox bank books every transfer except to an
     * account number ending in `1` (returned `AC04`: `bank_account_closed`) or `2` (returned
     * `BE01`: `bank_name_mismatch`). In live mode it is `404`.
     *
     * @param string $id The batch's `batch_id`.
     * @return string The application/xml body, as sent.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getBankBatchSandboxStatement(string $id): string
    {
        return $this->send('GET', '/bank-batches/' . rawurlencode($id) . '/sandbox-statement')->body;
    }

    /**
     * Refund a payment: `POST /refunds`.
     *
     * Returns money from a successful payment to the customer who paid it, as a payout of type
     * `refund` to the payment's `customer_msisdn`, funded from your Main Balance. Omit `amount` to
     * refund all that remains; several partial refunds may together reach the payment's amount,
     * never more (`422 refund_exceeds_payment`). Only a `success` payment can be refunded (`409
     * payment_not_refundable`). A failed refund returns its amount to your balance and to the
     * payment's refundable amount.
     *
     * @param array<string, mixed> $body The JSON body (RefundCreate): `payment_id`, `amount`?, `reference`?, `metadata`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\Payout
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (insufficient_balance, permission_denied)
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\ConflictException 409 (payment_not_refundable, idempotency_key_reused)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\ValidationException 422 (refund_exceeds_payment)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createRefund(array $body, ?string $idempotencyKey = null): Model\Payout
    {
        return Model\Payout::fromArray($this->data($this->send('POST', '/refunds', [], $body, $idempotencyKey)));
    }

    /**
     * List top-ups: `GET /topups`.
     *
     * Lists the top-ups of this account and mode, newest first.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`, `status`, `reference`, `created_gte`, `created_lt`.
     * @return Page<Model\Topup> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listTopups(array $query = []): Page
    {
        return $this->page('GET', '/topups', $query, Model\Topup::fromArray(...));
    }

    /**
     * Top up the Main Balance: `POST /topups`.
     *
     * Pulls `amount` from a Mobile Money account you own (`payer_msisdn`) into your Main Balance,
     * which funds payouts. Like a payment it answers `202` once initiated, and ends `success` (the
     * balance is credited, `topup.completed`), `failed` (`topup.failed`) or `expired`
     * (`topup.expired`).
     *
     * @param array<string, mixed> $body The JSON body (TopupCreate): `amount`, `currency`, `payer_msisdn`, `payment_method`, `reference`?, `metadata`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\Topup
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\ValidationException 422 (unsupported_network, network_mismatch, currency_not_accepted)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createTopup(array $body, ?string $idempotencyKey = null): Model\Topup
    {
        return Model\Topup::fromArray($this->data($this->send('POST', '/topups', [], $body, $idempotencyKey)));
    }

    /**
     * Read a top-up: `GET /topups/{id}`.
     *
     * Reads one top-up with its current status.
     *
     * @param string $id The top-up's `transaction_id`.
     * @return Model\Topup
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getTopup(string $id): Model\Topup
    {
        return Model\Topup::fromArray($this->data($this->send('GET', '/topups/' . rawurlencode($id))));
    }

    /**
     * Read the Main Balance: `GET /balance`.
     *
     * Reads the Main Balance of this account and mode: the wallet id other users send transfers
     * to, and the available amount in each currency. Payouts are debited when accepted, so
     * `available` is what can still be paid out.
     *
     * @return Model\Balance
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getBalance(): Model\Balance
    {
        return Model\Balance::fromArray($this->data($this->send('GET', '/balance')));
    }

    /**
     * List the ledger: `GET /balance/transactions`.
     *
     * Lists the append-only ledger behind the Main Balance, newest first. Every movement of money
     * is one entry: a successful payment or top-up (credit), an accepted payout or refund (debit),
     * a failed payout's reversal (credit) and an incoming wallet transfer (credit).
     * `balance_after` is the balance in that currency right after the entry.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`, `type`, `currency`, `created_gte`, `created_lt`.
     * @return Page<Model\BalanceTransaction> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listBalanceTransactions(array $query = []): Page
    {
        return $this->page('GET', '/balance/transactions', $query, Model\BalanceTransaction::fromArray(...));
    }

    /**
     * Export the ledger as CSV: `GET /reports/balance-transactions`.
     *
     * Streams every ledger entry created in `[created_gte, created_lt)` as CSV, oldest first, for
     * accounting and compliance. The first line names the columns:
     * `id,created_at,type,amount,currency,balance_after,source_id,description`. Amounts are
     * integers in minor units; negative amounts are debits.
     *
     * @param array<string, scalar> $query Filters and paging: `created_gte`, `created_lt`, `currency`.
     * @return string The text/csv body, as sent.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function exportBalanceTransactions(array $query = []): string
    {
        return $this->send('GET', '/reports/balance-transactions', $query)->body;
    }

    /**
     * List services: `GET /services`.
     *
     * Lists the services of this account and mode, newest first. Deleted services are left out
     * unless `status=deleted` asks for them.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`, `status`.
     * @return Page<Model\Service> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listServices(array $query = []): Page
    {
        return $this->page('GET', '/services', $query, Model\Service::fromArray(...));
    }

    /**
     * Register a service: `POST /services`.
     *
     * Registers an integration (a plugin, an SDK, a website, an app) that payments will name in
     * `service_id`. Its `name` is shown to customers on the hosted checkout page. A service is
     * created `active`.
     *
     * @param array<string, mixed> $body The JSON body (ServiceCreate): `name`, `description`?, `type`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\Service
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createService(array $body, ?string $idempotencyKey = null): Model\Service
    {
        return Model\Service::fromArray($this->data($this->send('POST', '/services', [], $body, $idempotencyKey)));
    }

    /**
     * Read a service: `GET /services/{id}`.
     *
     * Reads one service, deleted ones included.
     *
     * @param string $id The service's `service_id`.
     * @return Model\Service
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getService(string $id): Model\Service
    {
        return Model\Service::fromArray($this->data($this->send('GET', '/services/' . rawurlencode($id))));
    }

    /**
     * Update a service: `PUT /services/{id}`.
     *
     * Changes the fields given and leaves the others as they are. Setting `status` to `inactive`
     * makes new payments naming the service fail with `422 service_inactive`; `active` allows them
     * again. A deleted service cannot change (`409 service_deleted`).
     *
     * @param string $id The service's `service_id`.
     * @param array<string, mixed> $body The JSON body (ServiceUpdate): `name`?, `description`?, `type`?, `status`?.
     * @return Model\Service
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\ConflictException 409 (service_deleted)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function updateService(string $id, array $body): Model\Service
    {
        return Model\Service::fromArray($this->data($this->send('PUT', '/services/' . rawurlencode($id), [], $body)));
    }

    /**
     * Delete a service: `DELETE /services/{id}`.
     *
     * Deletes a service: it can no longer receive payments or change, but it stays readable and
     * its payments keep naming it. Deleting a deleted service changes nothing and answers the
     * same.
     *
     * @param string $id The service's `service_id`.
     * @return Model\Service
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function deleteService(string $id): Model\Service
    {
        return Model\Service::fromArray($this->data($this->send('DELETE', '/services/' . rawurlencode($id))));
    }

    /**
     * List webhook endpoints: `GET /webhook-endpoints`.
     *
     * Lists the webhook endpoints of this account and mode, newest first. Secrets are not shown.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`.
     * @return Page<Model\WebhookEndpoint> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listWebhookEndpoints(array $query = []): Page
    {
        return $this->page('GET', '/webhook-endpoints', $query, Model\WebhookEndpoint::fromArray(...));
    }

    /**
     * Register a webhook endpoint: `POST /webhook-endpoints`.
     *
     * Registers a URL that receives the events of this account and mode (all of them, or the ones
     * listed in `events`). The response holds the endpoint's signing `secret`: it is shown only
     * here and when rotated, so store it. URLs must be public `http` or `https` URLs (no loopback,
     * private, link-local or metadata addresses), and `https` in live mode. An account may have a
     * limited number of endpoints per mode (16 by default; `409 too_many_webhook_endpoints` past
     * it). The secret is not kept in a readable form for replays: a retry with the same
     * `Idempotency-Key` is answered `409 secret_not_replayed` with the endpoint's id in the
     * message, never the secret again.
     *
     * @param array<string, mixed> $body The JSON body (WebhookEndpointCreate): `url`, `events`?, `description`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\WebhookEndpointWithSecret
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\ConflictException 409 (too_many_webhook_endpoints, secret_not_replayed, idempotency_key_reused)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createWebhookEndpoint(array $body, ?string $idempotencyKey = null): Model\WebhookEndpointWithSecret
    {
        return Model\WebhookEndpointWithSecret::fromArray($this->data($this->send('POST', '/webhook-endpoints', [], $body, $idempotencyKey)));
    }

    /**
     * Read a webhook endpoint: `GET /webhook-endpoints/{id}`.
     *
     * Reads one webhook endpoint. Its secret is not shown.
     *
     * @param string $id The webhook endpoint's `id`.
     * @return Model\WebhookEndpoint
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getWebhookEndpoint(string $id): Model\WebhookEndpoint
    {
        return Model\WebhookEndpoint::fromArray($this->data($this->send('GET', '/webhook-endpoints/' . rawurlencode($id))));
    }

    /**
     * Update a webhook endpoint: `PUT /webhook-endpoints/{id}`.
     *
     * Changes the fields given and leaves the others as they are. A `disabled` endpoint receives
     * nothing until it is `enabled` again; events that happen meanwhile are not queued for it.
     *
     * @param string $id The webhook endpoint's `id`.
     * @param array<string, mixed> $body The JSON body (WebhookEndpointUpdate): `url`?, `events`?, `description`?, `status`?.
     * @return Model\WebhookEndpoint
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function updateWebhookEndpoint(string $id, array $body): Model\WebhookEndpoint
    {
        return Model\WebhookEndpoint::fromArray($this->data($this->send('PUT', '/webhook-endpoints/' . rawurlencode($id), [], $body)));
    }

    /**
     * Delete a webhook endpoint: `DELETE /webhook-endpoints/{id}`.
     *
     * Deletes the endpoint; its pending deliveries are cancelled.
     *
     * @param string $id The webhook endpoint's `id`.
     * @return Model\Deleted
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function deleteWebhookEndpoint(string $id): Model\Deleted
    {
        return Model\Deleted::fromArray($this->data($this->send('DELETE', '/webhook-endpoints/' . rawurlencode($id))));
    }

    /**
     * Rotate a webhook endpoint's secret: `POST /webhook-endpoints/{id}/rotate-secret`.
     *
     * Gives the endpoint a new signing secret, shown only in this response. Deliveries are signed
     * with the new secret from now on. With `overlap_seconds`, the previous secret also keeps
     * signing them for that long (two `v1` signatures in `X-Webhook-Signature`), so receivers can
     * switch to the new secret without rejecting a delivery; without it, the previous secret stops
     * at once. A retry with the same `Idempotency-Key` is answered `409 secret_not_replayed`: the
     * secret is never shown twice.
     *
     * @param string $id The webhook endpoint's `id`.
     * @param array<string, mixed> $body The JSON body (WebhookSecretRotation): `overlap_seconds`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\WebhookEndpointWithSecret
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function rotateWebhookEndpointSecret(string $id, array $body = [], ?string $idempotencyKey = null): Model\WebhookEndpointWithSecret
    {
        return Model\WebhookEndpointWithSecret::fromArray($this->data($this->send('POST', '/webhook-endpoints/' . rawurlencode($id) . '/rotate-secret', [], $body, $idempotencyKey)));
    }

    /**
     * List events: `GET /events`.
     *
     * Lists the events of this account and mode, newest first.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`, `event`, `transaction_id`, `created_gte`, `created_lt`.
     * @return Page<Model\Event> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listEvents(array $query = []): Page
    {
        return $this->page('GET', '/events', $query, Model\Event::fromArray(...));
    }

    /**
     * Read an event: `GET /events/{id}`.
     *
     * Reads one event, exactly as it is sent to webhook endpoints.
     *
     * @param string $id The event's `id`.
     * @return Model\Event
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getEvent(string $id): Model\Event
    {
        return Model\Event::fromArray($this->data($this->send('GET', '/events/' . rawurlencode($id))));
    }

    /**
     * List an event's deliveries: `GET /events/{id}/deliveries`.
     *
     * Lists the deliveries of one event, one per endpoint it was (or will be) sent to, newest
     * first, each with its attempt count, next attempt and the outcome of its last attempt.
     *
     * @param string $id The event's `id`.
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`.
     * @return Page<Model\Delivery> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listEventDeliveries(string $id, array $query = []): Page
    {
        return $this->page('GET', '/events/' . rawurlencode($id) . '/deliveries', $query, Model\Delivery::fromArray(...));
    }

    /**
     * Re-send an event: `POST /events/{id}/resend`.
     *
     * Queues a new delivery of the event to every enabled endpoint that subscribes to it, or only
     * to `endpoint_id` when given, whatever happened to earlier deliveries.
     *
     * @param string $id The event's `id`.
     * @param array<string, mixed> $body The JSON body (EventResend): `endpoint_id`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Page<Model\Delivery> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\ConflictException 409 (idempotency_key_reused, secret_not_replayed)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function resendEvent(string $id, array $body = [], ?string $idempotencyKey = null): Page
    {
        return $this->page('POST', '/events/' . rawurlencode($id) . '/resend', [], Model\Delivery::fromArray(...));
    }

    /**
     * Query the API call history: `GET /logs`.
     *
     * Lists the API calls made with this account's keys in this mode, newest first, rejected ones
     * included. Keys, secrets and bodies are never recorded. Logs are kept for 30 days.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`, `method`, `path`, `status`, `status_class`, `error_code`, `request_id`, `created_gte`, `created_lt`.
     * @return Page<Model\Log> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listLogs(array $query = []): Page
    {
        return $this->page('GET', '/logs', $query, Model\Log::fromArray(...));
    }

    /**
     * List API keys: `GET /api-keys`.
     *
     * Lists the secret keys of this account in the caller's mode, newest first, with their state.
     * Only the last four characters of each key are shown.
     *
     * @param array<string, scalar> $query Filters and paging: `limit`, `cursor`.
     * @return Page<Model\ApiKey> One page; `autoPagingIterator()` walks every page after it.
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (permission_denied)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function listApiKeys(array $query = []): Page
    {
        return $this->page('GET', '/api-keys', $query, Model\ApiKey::fromArray(...));
    }

    /**
     * Create a key: `POST /api-keys`.
     *
     * Creates a new secret key of the caller's mode with the role you choose: `full` (every
     * operation), `collect` (payments and reading; no payouts, refunds, top-ups, services,
     * webhooks or keys) or `read_only` (reading only). Give each system the least it needs: a till
     * or a checkout server a `collect` key, a reporting job a `read_only` key. The key is shown
     * only in this response; a retry with the same `Idempotency-Key` is answered `409
     * secret_not_replayed`. A mode has at most two working `full` keys and ten working keys of
     * each restricted role (`409 too_many_active_keys`).
     *
     * @param array<string, mixed> $body The JSON body (ApiKeyCreate): `role`.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\ApiKeyCreation
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (key_not_active, permission_denied)
     * @throws Exception\ConflictException 409 (too_many_active_keys, last_active_key, secret_not_replayed, idempotency_key_reused)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function createApiKey(array $body, ?string $idempotencyKey = null): Model\ApiKeyCreation
    {
        return Model\ApiKeyCreation::fromArray($this->data($this->send('POST', '/api-keys', [], $body, $idempotencyKey)));
    }

    /**
     * Rotate the secret key: `POST /api-keys/rotate`.
     *
     * Creates a new secret key for the caller's mode (a test key rotates the test key, a live key
     * the live key) and retires the key that made the call: at once when `grace_period_seconds` is
     * 0 (the default), or at the end of the grace period, during which both keys work. The new key
     * is shown only in this response. The rotation is recorded in the call logs. Only an `active`
     * key may rotate (`403 key_not_active` for a key in its grace period), and a mode has at most
     * two working keys (`409 too_many_active_keys`: revoke the other one, or rotate with
     * `grace_period_seconds: 0`). A retry with the same `Idempotency-Key` is answered `409
     * secret_not_replayed`, naming the new key's id; the key itself is never shown twice. Lost it?
     * Revoke it by id and rotate again from a key that still works, or ask the operator for a new
     * key (`npm run admin -- reset-keys`).
     *
     * @param array<string, mixed> $body The JSON body (ApiKeyRotate): `grace_period_seconds`?.
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\ApiKeyRotation
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (key_not_active, permission_denied)
     * @throws Exception\ConflictException 409 (too_many_active_keys, last_active_key, secret_not_replayed, idempotency_key_reused)
     * @throws Exception\ApiException 413
     * @throws Exception\ApiException 415
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function rotateApiKey(array $body = [], ?string $idempotencyKey = null): Model\ApiKeyRotation
    {
        return Model\ApiKeyRotation::fromArray($this->data($this->send('POST', '/api-keys/rotate', [], $body, $idempotencyKey)));
    }

    /**
     * Revoke a key by id: `POST /api-keys/{id}/revoke`.
     *
     * Revokes one secret key of the caller's account and mode at once, whether it is `active` or
     * in its grace period: from then on it is refused with `401 invalid_api_key`. Revoking a key
     * that is already revoked changes nothing and answers it again. Only an `active` key may
     * revoke (`403 key_not_active`), and the last working key of a mode cannot be revoked (`409
     * last_active_key`), so this call never leaves the account without a key. A key may revoke
     * itself when another key still works.
     *
     * @param string $id The key's `id` (never the key itself).
     * @param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.
     * @return Model\ApiKey
     * @throws Exception\ValidationException 400
     * @throws Exception\AuthenticationException 401
     * @throws Exception\PermissionException 403 (key_not_active, permission_denied)
     * @throws Exception\NotFoundException 404 (resource_not_found)
     * @throws Exception\ConflictException 409 (too_many_active_keys, last_active_key, secret_not_replayed, idempotency_key_reused)
     * @throws Exception\RateLimitException 429
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function revokeApiKey(string $id, ?string $idempotencyKey = null): Model\ApiKey
    {
        return Model\ApiKey::fromArray($this->data($this->send('POST', '/api-keys/' . rawurlencode($id) . '/revoke', [], null, $idempotencyKey)));
    }

    /**
     * Check the service's health: `GET /healthz`.
     *
     * Answers `200` when the service runs and its database answers, `503` otherwise. Needs no key,
     * so load balancers and uptime checks can call it. `operators` says, for each live operator
     * product, whether this instance reaches it; a failing operator leaves the answer `200` (the
     * service is up), as a status page shows each component apart.
     *
     * @return Model\Health
     * @throws Exception\ValidationException 400
     * @throws Exception\ServerException 500
     * @throws Exception\ServerException 503
     * @throws Exception\ConnectionException when no answer came after the retries
     */
    public function getHealth(): Model\Health
    {
        return Model\Health::fromArray($this->data($this->send('GET', '/healthz')));
    }
}
