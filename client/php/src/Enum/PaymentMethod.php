<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * The Mobile Money operator (`MTN/Orange MoMo`).
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `PaymentMethod::MtnMomo->value`, or read one with
 * `PaymentMethod::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum PaymentMethod: string
{
    case MtnMomo = 'mtn_momo';
    case OrangeMoney = 'orange_money';
}
