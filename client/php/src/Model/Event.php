<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * Something that happened, as sent to webhook endpoints.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class Event
{
    public function __construct(
        /** @var string An event's id, stable across deliveries; de-duplicate on it. */
        public readonly string $id,
        /** @var string The kind of an event. One of the values of {@see \MomoPayments\Enum\EventName}. */
        public readonly string $event,
        /** @var EventData The transaction the event is about, as it stood when the event happened. Its `metadata` is the object's, as given when it was created (`{}` when none was): present in every event sent since metadata was added. */
        public readonly EventData $data,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $timestamp,
        /** @var string `live` for real money, `test` for the sandbox. One of the values of {@see \MomoPayments\Enum\Mode}. */
        public readonly string $mode,
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
            event: $data['event'],
            data: EventData::fromArray($data['data']),
            timestamp: $data['timestamp'],
            mode: $data['mode'],
        );
    }
}
