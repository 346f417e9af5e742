<?php

declare(strict_types=1);

namespace MomoPayments\Model;

/**
 * The last call to an operator product that failed, since this instance started, or `null`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
final class OperatorCallError
{
    public function __construct(
        /** @var string `auth`: the operator refused our credentials (a 401 or 403). `timeout`: no answer within `OPERATOR_TIMEOUT_MS`. `network`: it could not be reached. `http_5xx`: it failed. `http_4xx`: it refused one request (the connection is fine). `bad_response`: its answer could not be read. One of the values of {@see \MomoPayments\Enum\OperatorCallErrorCode}. */
        public readonly string $code,
        /** @var string What happened, in words; never a credential. */
        public readonly string $message,
        /** @var string An ISO 8601 UTC date-time. */
        public readonly string $at,
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
            code: $data['code'],
            message: $data['message'],
            at: $data['at'],
        );
    }
}
