<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * What one transaction of a statement did.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class BankStatementEntry
{
    public function __construct(
        /** @var string The entry's `EndToEndId`. */
        public readonly string $end_to_end_id,
        /** @var string `applied`, `already_applied`, `conflicting`, `unknown`, `duplicate` or `pending` (see `POST /bank-batches/{id}/statements`). */
        public readonly string $outcome,
        /** @var string|null The payout it names, or `null` when unknown. */
        public readonly ?string $transaction_id,
        /** @var string|null The payout's status after the statement, or `null` when unknown. */
        public readonly ?string $payout_status,
        /** @var string|null Why a payment, top-up or payout failed: `payer_declined` (the customer refused or could not pay), `recipient_rejected` (the operator refused the recipient), `operator_timeout` (the operator never answered) or `operator_error`. `null` unless failed. A bank payout fails with the bank's reason: `bank_account_closed`, `bank_name_mismatch` or `bank_rejected`. One of the values of {@see \MomoPayments\Enum\FailureCode}. */
        public readonly ?string $failure_code,
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
            end_to_end_id: $data['end_to_end_id'],
            outcome: $data['outcome'],
            transaction_id: $data['transaction_id'] ?? null,
            payout_status: $data['payout_status'] ?? null,
            failure_code: $data['failure_code'] ?? null,
        );
    }
}
