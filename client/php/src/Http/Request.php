<?php

declare(strict_types=1);

namespace MomoPayments\Http;

/** One request as the client builds it; every attempt of a call sends the same one. */
final class Request
{
    /**
     * @param string $method The HTTP method, upper case.
     * @param string $uri The absolute URL, query included.
     * @param array<string, string> $headers By name as sent (`Idempotency-Key`), one value each.
     * @param string|null $body The JSON body, or null.
     */
    public function __construct(
        public readonly string $method,
        public readonly string $uri,
        public readonly array $headers,
        public readonly ?string $body = null,
    ) {
    }

    /** A header's value by case-insensitive name, or null. */
    public function header(string $name): ?string
    {
        foreach ($this->headers as $key => $value) {
            if (strcasecmp($key, $name) === 0) {
                return $value;
            }
        }
        return null;
    }
}
