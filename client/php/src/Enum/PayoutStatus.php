<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * `pending` until the operator settles it, then `success` or `failed` (reversed), which are
 * final.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `PayoutStatus::Pending->value`, or read one with
 * `PayoutStatus::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum PayoutStatus: string
{
    case Pending = 'pending';
    case Success = 'success';
    case Failed = 'failed';
}
