<?php

declare(strict_types=1);

namespace MomoPayments\Http;

use RuntimeException;

/** Thrown by a transport when a request got no response at all. */
final class TransportException extends RuntimeException
{
    public function __construct(
        string $message,
        /** Whether the attempt ended because it took longer than the transport's timeout. */
        public readonly bool $timedOut = false,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
    }
}
