<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The `data` of an answer of the API.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class BulkPayout
{
    public function __construct(
        /** @var string A bulk payout's id. */
        public readonly string $bulk_id,
        /** @var string An ISO 4217 currency code served by MTN or Orange Mobile Money. In live mode the operator environment that serves a request decides which it takes: MTN's sandbox only `EUR` (so `EUR` is here for it), MTN MoMo and Orange Money in Cameroon `XAF`; another is refused with `422 currency_not_accepted`, whose message names those it takes. The sandbox (test mode) takes them all. One of the values of {@see \MomoPayments\Enum\Currency}. */
        public readonly string $currency,
        /** @var int How many payouts the batch created. */
        public readonly int $count,
        /** @var int A non-negative sum in the currency's minor unit: a balance, a total, or what has been refunded. */
        public readonly int $total_amount,
        /** @var list<Payout> The payouts, in the order of the request's items. */
        public readonly array $items,
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
            bulk_id: $data['bulk_id'],
            currency: $data['currency'],
            count: $data['count'],
            total_amount: $data['total_amount'],
            items: array_map(static fn (array $item) => Payout::fromArray($item), $data['items']),
        );
    }
}
