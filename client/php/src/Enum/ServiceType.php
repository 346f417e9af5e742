<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * What kind of integration the service is.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `ServiceType::Plugin->value`, or read one with
 * `ServiceType::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum ServiceType: string
{
    case Plugin = 'plugin';
    case Sdk = 'sdk';
    case Website = 'website';
    case MobileApp = 'mobile_app';
    case Pos = 'pos';
    case Other = 'other';
}
