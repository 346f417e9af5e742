<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The `data` of an answer of the API.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class ApiKeyCreation
{
    public function __construct(
        /** @var string The new secret key. It is shown only here. */
        public readonly string $secret_key,
        /** @var ApiKey A secret key, described without the key itself. */
        public readonly ApiKey $api_key,
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
            secret_key: $data['secret_key'],
            api_key: ApiKey::fromArray($data['api_key']),
        );
    }
}
