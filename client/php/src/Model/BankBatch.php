<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * Bank payouts gathered into one ISO 20022 pain.001 file.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class BankBatch
{
    public function __construct(
        /** @var string A bank batch's id (the `MsgId` of its file). */
        public readonly string $batch_id,
        /** @var string An ISO 4217 currency code served by MTN or Orange Mobile Money. In live mode the operator environment that serves a request decides which it takes: MTN's sandbox only `EUR` (so `EUR` is here for it), MTN MoMo and Orange Money in Cameroon `XAF`; another is refused with `422 currency_not_accepted`, whose message names those it takes. The sandbox (test mode) takes them all. One of the values of {@see \MomoPayments\Enum\Currency}. */
        public readonly string $currency,
        /** @var int How many payouts the file holds (its `NbOfTxs`). */
        public readonly int $payout_count,
        /** @var int The sum of their amounts (its `CtrlSum`). */
        public readonly int $control_sum,
        /** @var int How many of its payouts still wait for the bank's outcome. */
        public readonly int $pending_count,
        /** @var string The file's ISO 20022 message. */
        public readonly string $file_format,
        /** @var string `live` for real money, `test` for the sandbox. One of the values of {@see \MomoPayments\Enum\Mode}. */
        public readonly string $mode,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $created_at,
        /** @var list<BankStatementSummary> The statements applied to it, oldest first. */
        public readonly array $statements,
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
            batch_id: $data['batch_id'],
            currency: $data['currency'],
            payout_count: $data['payout_count'],
            control_sum: $data['control_sum'],
            pending_count: $data['pending_count'],
            file_format: $data['file_format'],
            mode: $data['mode'],
            created_at: $data['created_at'],
            statements: array_map(static fn (array $item) => BankStatementSummary::fromArray($item), $data['statements']),
        );
    }
}
