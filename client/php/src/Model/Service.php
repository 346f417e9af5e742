<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * An integration registration that payments belong to.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class Service
{
    public function __construct(
        /** @var string A service's id. */
        public readonly string $service_id,
        /** @var string Shown to customers on the hosted checkout page. */
        public readonly string $name,
        /** @var string|null A note for your team, or `null`. */
        public readonly ?string $description,
        /** @var string What kind of integration the service is. One of the values of {@see \MomoPayments\Enum\ServiceType}. */
        public readonly string $type,
        /** @var string `active` services take payments; `inactive` ones do not until reactivated; `deleted` ones never again. One of the values of {@see \MomoPayments\Enum\ServiceStatus}. */
        public readonly string $status,
        /** @var string `live` for real money, `test` for the sandbox. One of the values of {@see \MomoPayments\Enum\Mode}. */
        public readonly string $mode,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $created_at,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $updated_at,
        /** @var string|null When the service was deleted, or `null`. */
        public readonly ?string $deleted_at,
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
            service_id: $data['service_id'],
            name: $data['name'],
            description: $data['description'] ?? null,
            type: $data['type'],
            status: $data['status'],
            mode: $data['mode'],
            created_at: $data['created_at'],
            updated_at: $data['updated_at'],
            deleted_at: $data['deleted_at'] ?? null,
        );
    }
}
