<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The `data` of an answer of the API.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class BankStatement
{
    public function __construct(
        /** @var string A bank batch's id (the `MsgId` of its file). */
        public readonly string $batch_id,
        /** @var string The statement's `MsgId`. */
        public readonly string $message_id,
        /** @var int How many payouts this upload settled. */
        public readonly int $applied,
        /** @var list<BankStatementEntry>  */
        public readonly array $entries,
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
            message_id: $data['message_id'],
            applied: $data['applied'],
            entries: array_map(static fn (array $item) => BankStatementEntry::fromArray($item), $data['entries']),
        );
    }
}
