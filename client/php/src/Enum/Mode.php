<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * `live` for real money, `test` for the sandbox.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `Mode::Live->value`, or read one with
 * `Mode::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum Mode: string
{
    case Live = 'live';
    case Test = 'test';
}
