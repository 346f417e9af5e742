<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * `initiated` until the customer acts, then `success`, `failed` or `expired`, which are final.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `PaymentStatus::Initiated->value`, or read one with
 * `PaymentStatus::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum PaymentStatus: string
{
    case Initiated = 'initiated';
    case Success = 'success';
    case Failed = 'failed';
    case Expired = 'expired';
}
