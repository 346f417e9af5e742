<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * One entry of the append-only ledger behind the Main Balance.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class BalanceTransaction
{
    public function __construct(
        /** @var string The entry's id. */
        public readonly string $id,
        /** @var string `payment` and `topup` (credits when they succeed), `payout` (a debit when a payout or refund is accepted), `payout_reversal` (a credit when it fails), `transfer_in` (a credit from another user's wallet transfer). One of the values of {@see \MomoPayments\Enum\BalanceTransactionType}. */
        public readonly string $type,
        /** @var int A signed movement in the currency's minor unit; negative for debits. */
        public readonly int $amount,
        /** @var string An ISO 4217 currency code served by MTN or Orange Mobile Money. In live mode the operator environment that serves a request decides which it takes: MTN's sandbox only `EUR` (so `EUR` is here for it), MTN MoMo and Orange Money in Cameroon `XAF`; another is refused with `422 currency_not_accepted`, whose message names those it takes. The sandbox (test mode) takes them all. One of the values of {@see \MomoPayments\Enum\Currency}. */
        public readonly string $currency,
        /** @var int A non-negative sum in the currency's minor unit: a balance, a total, or what has been refunded. */
        public readonly int $balance_after,
        /** @var string The id of a payment (`pay_`), payout (`po_`) or top-up (`tu_`). */
        public readonly string $source_id,
        /** @var string A human-readable line for statements. */
        public readonly string $description,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $created_at,
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
            id: $data['id'],
            type: $data['type'],
            amount: $data['amount'],
            currency: $data['currency'],
            balance_after: $data['balance_after'],
            source_id: $data['source_id'],
            description: $data['description'],
            created_at: $data['created_at'],
        );
    }
}
