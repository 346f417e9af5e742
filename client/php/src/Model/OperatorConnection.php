<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * One operator product (MTN MoMo Collection, MTN MoMo Disbursement, Orange Money's merchant
 * payment and cash-in) as this instance last found it: checked at start-up by asking for an
 * access token, then updated by every call to the operator (tokens, requests, status checks).
 * Never holds a credential.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class OperatorConnection
{
    public function __construct(
        /** @var string The operator. */
        public readonly string $name,
        /** @var string `collection` takes payments and top-ups; `disbursement` sends payouts. */
        public readonly string $product,
        /** @var string|null The operator's environment (MTN's `X-Target-Environment`, such as `sandbox` or `mtncameroon`); `null` for Orange Money, which has none, and when not configured. */
        public readonly ?string $environment,
        /** @var string `connected`: its last call succeeded. `failing`: its last call could not reach the operator or was refused (see `last_error`). `checking`: configured, and no call has answered yet since the start. `not_configured`: its variables are not set, so live payments through it fail with `operator_error`. */
        public readonly string $state,
        /** @var string|null When a call to it last succeeded, since this instance started. */
        public readonly ?string $last_success_at,
        /** @var OperatorCallError|null The last call to an operator product that failed, since this instance started, or `null`. */
        public readonly ?OperatorCallError $last_error,
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
            name: $data['name'],
            product: $data['product'],
            environment: $data['environment'] ?? null,
            state: $data['state'],
            last_success_at: $data['last_success_at'] ?? null,
            last_error: isset($data['last_error']) ? OperatorCallError::fromArray($data['last_error']) : null,
        );
    }
}
