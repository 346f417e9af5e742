<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * A statement applied to a batch.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class BankStatementSummary
{
    public function __construct(
        /** @var string The statement's `MsgId`. */
        public readonly string $message_id,
        /** @var int How many payouts it settled. */
        public readonly int $applied,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $received_at,
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
            message_id: $data['message_id'],
            applied: $data['applied'],
            received_at: $data['received_at'],
        );
    }
}
