<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The `data` of an answer of the API.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class Health
{
    public function __construct(
        /** @var string `ok` when the process runs. */
        public readonly string $service,
        /** @var string `ok` when the database answers. */
        public readonly string $database,
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
            service: $data['service'],
            database: $data['database'],
        );
    }
}
