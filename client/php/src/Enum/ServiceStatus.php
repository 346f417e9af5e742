<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * `active` services take payments; `inactive` ones do not until reactivated; `deleted` ones
 * never again.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `ServiceStatus::Active->value`, or read one with
 * `ServiceStatus::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum ServiceStatus: string
{
    case Active = 'active';
    case Inactive = 'inactive';
    case Deleted = 'deleted';
}
