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
        /** @var list<OperatorConnection>|null Each Mobile Money operator product of live mode and whether this instance reaches it, as its last call found. An operator that fails does not make the service unhealthy (the answer stays `200`: test mode, the sandbox and the other operators still work); watch `state` to alert on it. */
        public readonly ?array $operators,
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
            operators: isset($data['operators']) ? array_map(static fn (array $item) => OperatorConnection::fromArray($item), $data['operators']) : null,
        );
    }
}
