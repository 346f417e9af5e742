<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * An ISO 4217 currency code served by MTN or Orange Mobile Money. In live mode the operator
 * environment that serves a request decides which it takes: MTN's sandbox only `EUR` (so `EUR`
 * is here for it), MTN MoMo and Orange Money in Cameroon `XAF`; another is refused with `422
 * currency_not_accepted`, whose message names those it takes. The sandbox (test mode) takes
 * them all.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `Currency::XAF->value`, or read one with
 * `Currency::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum Currency: string
{
    case XAF = 'XAF';
    case XOF = 'XOF';
    case GHS = 'GHS';
    case UGX = 'UGX';
    case RWF = 'RWF';
    case ZMW = 'ZMW';
    case GNF = 'GNF';
    case EUR = 'EUR';
}
