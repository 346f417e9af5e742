<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The `data` of an answer of the API.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class BankBatchList
{
    public function __construct(
        /** @var list<BankBatch>  */
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
            items: array_map(static fn (array $item) => BankBatch::fromArray($item), $data['items']),
        );
    }
}
