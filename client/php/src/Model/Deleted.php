<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The `data` of an answer of the API.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class Deleted
{
    public function __construct(
        /** @var string The id of the deleted object. */
        public readonly string $id,
        /** @var bool Always `true`. */
        public readonly bool $deleted,
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
            deleted: $data['deleted'],
        );
    }
}
