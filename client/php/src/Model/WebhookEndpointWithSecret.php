<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * A webhook endpoint with its signing secret, shown only at creation and rotation.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class WebhookEndpointWithSecret
{
    public function __construct(
        /** @var string A webhook endpoint's id. */
        public readonly string $id,
        /** @var string Where events are sent. */
        public readonly string $url,
        /** @var list<string> The events it receives. */
        public readonly array $events,
        /** @var string|null A note for your team, or `null`. */
        public readonly ?string $description,
        /** @var string Whether it receives events. */
        public readonly string $status,
        /** @var string `live` for real money, `test` for the sandbox. One of the values of {@see \MomoPayments\Enum\Mode}. */
        public readonly string $mode,
        /** @var string|null Until when the secret before the last rotation still signs deliveries, or `null`. */
        public readonly ?string $previous_secret_expires_at,
        /** @var string|null While deliveries are paused after repeated failures (circuit breaker), when the next probe is allowed; `null` when deliveries flow normally. */
        public readonly ?string $paused_until,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $created_at,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $updated_at,
        /** @var string The key that signs deliveries (`X-Webhook-Signature`). Store it now. */
        public readonly string $secret,
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
            url: $data['url'],
            events: $data['events'],
            description: $data['description'] ?? null,
            status: $data['status'],
            mode: $data['mode'],
            previous_secret_expires_at: $data['previous_secret_expires_at'] ?? null,
            paused_until: $data['paused_until'] ?? null,
            created_at: $data['created_at'],
            updated_at: $data['updated_at'],
            secret: $data['secret'],
        );
    }
}
