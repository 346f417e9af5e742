<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * `direct` (a push to the phone) or `hosted` (the checkout page).
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `PaymentFlow::Direct->value`, or read one with
 * `PaymentFlow::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum PaymentFlow: string
{
    case Direct = 'direct';
    case Hosted = 'hosted';
}
