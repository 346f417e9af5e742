<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The sending of one event to one endpoint, with its attempts.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class Delivery
{
    public function __construct(
        /** @var string The delivery's id. */
        public readonly string $id,
        /** @var string An event's id, stable across deliveries; de-duplicate on it. */
        public readonly string $event_id,
        /** @var string A webhook endpoint's id. */
        public readonly string $endpoint_id,
        /** @var string `pending` while attempts remain, `succeeded` after a 2xx, `failed` once retries are exhausted or the endpoint is gone. */
        public readonly string $status,
        /** @var int How many attempts were made. */
        public readonly int $attempts,
        /** @var string|null When the next attempt is due, or `null` when none is. */
        public readonly ?string $next_attempt_at,
        /** @var string|null When the last attempt was made, or `null`. */
        public readonly ?string $last_attempt_at,
        /** @var int|null The HTTP status the endpoint answered last, or `null`. */
        public readonly ?int $last_response_status,
        /** @var string|null Why the last attempt failed, or `null`. Every attempt that got no HTTP answer (refused, reset, timed out, not HTTP) reads the same. */
        public readonly ?string $last_error,
        /** @var int|null How long the last attempt took, or `null` (none yet, or no HTTP answer came). */
        public readonly ?int $last_duration_ms,
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
            event_id: $data['event_id'],
            endpoint_id: $data['endpoint_id'],
            status: $data['status'],
            attempts: $data['attempts'],
            next_attempt_at: $data['next_attempt_at'] ?? null,
            last_attempt_at: $data['last_attempt_at'] ?? null,
            last_response_status: $data['last_response_status'] ?? null,
            last_error: $data['last_error'] ?? null,
            last_duration_ms: $data['last_duration_ms'] ?? null,
            created_at: $data['created_at'],
        );
    }
}
