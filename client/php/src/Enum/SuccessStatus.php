<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * Always `success` on a 2xx response.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `SuccessStatus::Success->value`, or read one with
 * `SuccessStatus::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum SuccessStatus: string
{
    case Success = 'success';
}
