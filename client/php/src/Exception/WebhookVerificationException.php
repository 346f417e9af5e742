<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

use UnexpectedValueException;

/** Thrown by `Webhook::verify` when a delivery cannot be trusted; `reason` says why. */
final class WebhookVerificationException extends UnexpectedValueException implements PaymentsException
{
    public const MALFORMED_HEADER = 'malformed_header';
    public const SIGNATURE_MISMATCH = 'signature_mismatch';
    public const TIMESTAMP_OUT_OF_TOLERANCE = 'timestamp_out_of_tolerance';
    public const MALFORMED_PAYLOAD = 'malformed_payload';

    public function __construct(
        /** One of the constants of this class. */
        public readonly string $reason,
        string $message,
    ) {
        parent::__construct($message);
    }
}
