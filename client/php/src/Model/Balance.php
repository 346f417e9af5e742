<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The Main Balance of one account in one mode.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class Balance
{
    public function __construct(
        /** @var string The id of an account's wallet (its Main Balance) in one mode. */
        public readonly string $wallet_id,
        /** @var string `live` for real money, `test` for the sandbox. One of the values of {@see \MomoPayments\Enum\Mode}. */
        public readonly string $mode,
        /** @var string An ISO 4217 currency code served by MTN or Orange Mobile Money. In live mode the operator environment that serves a request decides which it takes: MTN's sandbox only `EUR` (so `EUR` is here for it), MTN MoMo and Orange Money in Cameroon `XAF`; another is refused with `422 currency_not_accepted`, whose message names those it takes. The sandbox (test mode) takes them all. One of the values of {@see \MomoPayments\Enum\Currency}. */
        public readonly string $default_currency,
        /** @var list<array{currency: string, available: int}> One entry per currency that has ever moved, and always the default currency. */
        public readonly array $balances,
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
            wallet_id: $data['wallet_id'],
            mode: $data['mode'],
            default_currency: $data['default_currency'],
            balances: $data['balances'],
        );
    }
}
