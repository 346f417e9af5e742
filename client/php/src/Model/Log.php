<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * One API call. Keys, secrets and bodies are never recorded.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class Log
{
    public function __construct(
        /** @var string The record's id. */
        public readonly string $id,
        /** @var string The id of one API request. */
        public readonly string $request_id,
        /** @var string The HTTP method. */
        public readonly string $method,
        /** @var string The path, without the query string. */
        public readonly string $path,
        /** @var int The HTTP status answered. */
        public readonly int $status,
        /** @var float How long the server took to answer, in milliseconds. */
        public readonly float $duration_ms,
        /** @var string `live` for real money, `test` for the sandbox. One of the values of {@see \MomoPayments\Enum\Mode}. */
        public readonly string $mode,
        /** @var string|null The public id of the key used, or `null`. */
        public readonly ?string $key_id,
        /** @var string|null The error code answered, or `null` on success. */
        public readonly ?string $error_code,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $created_at,
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
            request_id: $data['request_id'],
            method: $data['method'],
            path: $data['path'],
            status: $data['status'],
            duration_ms: $data['duration_ms'],
            mode: $data['mode'],
            key_id: $data['key_id'] ?? null,
            error_code: $data['error_code'] ?? null,
            created_at: $data['created_at'],
        );
    }
}
