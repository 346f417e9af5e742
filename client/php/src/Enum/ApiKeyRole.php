<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * What a key may do, chosen when it is created: `full`, every operation; `collect`, `read` and
 * `payments:write`; `read_only`, `read`. Keys created before roles existed are `full`.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `ApiKeyRole::Full->value`, or read one with
 * `ApiKeyRole::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum ApiKeyRole: string
{
    case Full = 'full';
    case Collect = 'collect';
    case ReadOnly = 'read_only';
}
