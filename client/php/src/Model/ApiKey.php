<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * A secret key, described without the key itself.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class ApiKey
{
    public function __construct(
        /** @var string A secret key's public id (never the key itself). */
        public readonly string $id,
        /** @var string `live` for real money, `test` for the sandbox. One of the values of {@see \MomoPayments\Enum\Mode}. */
        public readonly string $mode,
        /** @var string What a key may do, chosen when it is created: `full`, every operation; `collect`, `read` and `payments:write`; `read_only`, `read`. Keys created before roles existed are `full`. One of the values of {@see \MomoPayments\Enum\ApiKeyRole}. */
        public readonly string $role,
        /** @var list<string> The permissions the role grants. */
        public readonly array $permissions,
        /** @var string The last four characters of the key. */
        public readonly string $last4,
        /** @var string `active`; `expiring` during a rotation grace period; `revoked` once retired. */
        public readonly string $status,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $created_at,
        /** @var string|null When an expiring key stops working, or `null`. */
        public readonly ?string $expires_at,
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
            mode: $data['mode'],
            role: $data['role'],
            permissions: $data['permissions'],
            last4: $data['last4'],
            status: $data['status'],
            created_at: $data['created_at'],
            expires_at: $data['expires_at'] ?? null,
        );
    }
}
