<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

use MomoPayments\Http\TransportException;
use RuntimeException;

/**
 * Thrown when a call got no HTTP response (connection refused or reset, DNS failure, timeout)
 * after every retry. A POST may still have reached the API: call it again with the same
 * `$idempotencyKey` and it runs at most once.
 */
final class ConnectionException extends RuntimeException implements PaymentsException
{
    public function __construct(
        string $message,
        /** How many attempts were made, the first one included. */
        public readonly int $attempts,
        /** Whether the last attempt ended because it took longer than the timeout. */
        public readonly bool $timedOut,
        /** The `Idempotency-Key` every attempt sent (POST only): reuse it to retry safely. */
        public readonly ?string $idempotencyKey,
        ?TransportException $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
    }
}
