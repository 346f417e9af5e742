<?php

declare(strict_types=1);

namespace MomoPayments\Http;

/** One HTTP response, as a transport received it. */
final class Response
{
    /** @var array<string, string> */
    public readonly array $headers;

    /**
     * @param array<string, string> $headers By name (any case; stored lower case), repeated
     *                                       headers joined with ", ".
     */
    public function __construct(
        public readonly int $status,
        array $headers,
        public readonly string $body,
    ) {
        $this->headers = array_change_key_case($headers, CASE_LOWER);
    }

    /** A header's value by case-insensitive name, or null. */
    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }

    /** The `X-Request-Id` the API gives every answer: quote it to support. */
    public function requestId(): ?string
    {
        return $this->header('X-Request-Id');
    }
}
