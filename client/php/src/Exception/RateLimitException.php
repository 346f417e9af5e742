<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

/**
 * 429: too many requests for this account and mode (`rate_limited`), or too many failed
 * authentications from this address. Thrown once the retries are spent, or at once when the
 * API asks to wait longer than a minute.
 */
final class RateLimitException extends ApiException
{
    /** How long the API asked to wait (`Retry-After`), in seconds, or null when it did not say. */
    public function retryAfterSeconds(): ?int
    {
        $header = $this->response->header('Retry-After');
        if ($header === null) {
            return null;
        }
        $ms = \MomoPayments\RetryPolicy::retryAfterMs($header);
        return $ms === null ? null : intdiv($ms + 999, 1000);
    }
}
