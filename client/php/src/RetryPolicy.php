<?php

declare(strict_types=1);

namespace MomoPayments;

use MomoPayments\Exception\ConfigException;
use MomoPayments\Http\Response;

/**
 * When a call is tried again and after how long: network errors, timeouts, 429 and 5xx are
 * retried with exponential backoff and full jitter, honouring `Retry-After`; other 4xx are
 * answers, never retried. Every decision is a pure function of its arguments.
 */
final class RetryPolicy
{
    /** A `Retry-After` longer than this is not waited for: the 429 or 503 is thrown at once. */
    public const MAX_RETRY_AFTER_MS = 60_000;

    /** @var \Closure(): float */
    private readonly \Closure $random;

    /**
     * @param int $maxRetries Retries after the first attempt; 0 disables retrying.
     * @param int $baseDelayMs The backoff before the first retry, doubled at each retry, before jitter.
     * @param int $maxDelayMs The longest backoff between two attempts, before jitter.
     * @param (callable(): float)|null $random A number in [0, 1); by default a random one.
     */
    public function __construct(
        public readonly int $maxRetries = 2,
        public readonly int $baseDelayMs = 500,
        public readonly int $maxDelayMs = 8_000,
        ?callable $random = null,
    ) {
        foreach (['maxRetries' => $maxRetries, 'baseDelayMs' => $baseDelayMs, 'maxDelayMs' => $maxDelayMs] as $name => $value) {
            if ($value < 0) {
                throw new ConfigException('invalid_option', "`{$name}` must be 0 or more, not {$value}");
            }
        }
        $this->random = $random !== null
            ? \Closure::fromCallable($random)
            : static fn (): float => random_int(0, PHP_INT_MAX - 1) / PHP_INT_MAX;
    }

    /** Whether an HTTP status is worth another attempt: 429 and every 5xx, never another 4xx. */
    public static function isRetryableStatus(int $status): bool
    {
        return $status === 429 || $status >= 500;
    }

    /**
     * The wait before retry number `$retry` (0 for the first retry): a random duration between 0
     * and min(maxDelayMs, baseDelayMs * 2^retry), so that clients that failed together do not
     * retry together.
     */
    public function backoffDelayMs(int $retry): int
    {
        $ceiling = min($this->maxDelayMs, $this->baseDelayMs * 2 ** min($retry, 30));
        return (int) floor(($this->random)() * $ceiling);
    }

    /**
     * How long to wait before retrying after `$response` (retry number `$retry`, from 0), or null
     * when it must not be retried: a status that is an answer, or a `Retry-After` beyond a minute.
     * After `Retry-After`, a jittered extra wait spreads clients refused together.
     */
    public function delayAfterResponseMs(int $retry, Response $response, ?float $now = null): ?int
    {
        if (!self::isRetryableStatus($response->status)) {
            return null;
        }
        $asked = self::retryAfterMs($response->header('Retry-After'), $now);
        if ($asked === null) {
            return $this->backoffDelayMs($retry);
        }
        return $asked > self::MAX_RETRY_AFTER_MS ? null : $asked + $this->backoffDelayMs(0);
    }

    /**
     * Reads `Retry-After` (delta seconds or an HTTP date) as milliseconds from `$now` (Unix
     * seconds, default now); null when absent or unreadable.
     */
    public static function retryAfterMs(?string $header, ?float $now = null): ?int
    {
        if ($header === null) {
            return null;
        }
        $value = trim($header);
        if (preg_match('/^\d+$/', $value) === 1) {
            return (int) $value * 1000;
        }
        $date = \DateTimeImmutable::createFromFormat(DATE_RFC7231, $value, new \DateTimeZone('UTC'));
        if ($date === false) {
            return null;
        }
        $now ??= microtime(true);
        return max(0, (int) round(($date->getTimestamp() - $now) * 1000));
    }
}
