<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

use InvalidArgumentException;

/** Thrown by `new PaymentsClient(...)` when an option is unusable or unsafe, before any request. */
final class ConfigException extends InvalidArgumentException implements PaymentsException
{
    public function __construct(
        /** `invalid_option` or `live_key_in_sandbox`. */
        public readonly string $reason,
        string $message,
    ) {
        parent::__construct($message);
    }
}
