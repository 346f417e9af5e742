<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * Money pulled from your own Mobile Money account into your Main Balance.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class Topup
{
    public function __construct(
        /** @var string A top-up's id. */
        public readonly string $transaction_id,
        /** @var int An amount in the currency's minor unit (whole francs for XAF and XOF), greater than 0 and at most 1,000,000,000. */
        public readonly int $amount,
        /** @var string An ISO 4217 currency code served by MTN or Orange Mobile Money. In live mode the operator environment that serves a request decides which it takes: MTN's sandbox only `EUR` (so `EUR` is here for it), MTN MoMo and Orange Money in Cameroon `XAF`; another is refused with `422 currency_not_accepted`, whose message names those it takes. The sandbox (test mode) takes them all. One of the values of {@see \MomoPayments\Enum\Currency}. */
        public readonly string $currency,
        /** @var string `initiated` until the customer acts, then `success`, `failed` or `expired`, which are final. One of the values of {@see \MomoPayments\Enum\PaymentStatus}. */
        public readonly string $status,
        /** @var string A Mobile Money phone number in international format: country code first, digits only, no `+` (for example `237670000000`). */
        public readonly string $payer_msisdn,
        /** @var string The Mobile Money operator (`MTN/Orange MoMo`). One of the values of {@see \MomoPayments\Enum\PaymentMethod}. */
        public readonly string $payment_method,
        /** @var string|null Your reference, or `null`. */
        public readonly ?string $reference,
        /** @var array<string, string> Your own key-value pairs (a cart id, a customer number), stored as given and returned in every response and in the data of every event about the object. At most 50 keys; each key at most 40 characters; each value a string of at most 500 characters (no numbers, booleans, nulls or nested objects: send `"3"`, not `3`). A request past a limit is refused with `400 invalid_field` naming `metadata` (or the offending `metadata.<key>`), and nothing is recorded. Given at creation only: metadata cannot be changed afterwards. `{}` when none was given. Not searchable: filter lists by `reference`. */
        public readonly array $metadata,
        /** @var string|null Why a payment, top-up or payout failed: `payer_declined` (the customer refused or could not pay), `recipient_rejected` (the operator refused the recipient), `operator_timeout` (the operator never answered) or `operator_error`. `null` unless failed. A bank payout fails with the bank's reason: `bank_account_closed`, `bank_name_mismatch` or `bank_rejected`. One of the values of {@see \MomoPayments\Enum\FailureCode}. */
        public readonly ?string $failure_code,
        /** @var string `live` for real money, `test` for the sandbox. One of the values of {@see \MomoPayments\Enum\Mode}. */
        public readonly string $mode,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $expires_at,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $created_at,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $updated_at,
        /** @var string|null When the top-up reached its final state, or `null`. */
        public readonly ?string $completed_at,
    ) {
    }

    /**
     * Builds the model from the API's JSON, decoded as an associative array. Fields the contract
     * does not (yet) know are ignored.
     *
     * @param array<string, mixed> $data
     */
    public static function fromArray(array $data): self
    {
        return new self(
            transaction_id: $data['transaction_id'],
            amount: $data['amount'],
            currency: $data['currency'],
            status: $data['status'],
            payer_msisdn: $data['payer_msisdn'],
            payment_method: $data['payment_method'],
            reference: $data['reference'] ?? null,
            metadata: $data['metadata'],
            failure_code: $data['failure_code'] ?? null,
            mode: $data['mode'],
            expires_at: $data['expires_at'],
            created_at: $data['created_at'],
            updated_at: $data['updated_at'],
            completed_at: $data['completed_at'] ?? null,
        );
    }
}
