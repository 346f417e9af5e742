<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * A permission an operation needs (its `x-permission`) and a key's role grants: `read` (every
 * GET but the keys'), `payments:write`, `payouts:write`, `refunds:write`, `topups:write`,
 * `services:write`, `webhooks:write` (endpoints and resending events), `keys:manage` (listing,
 * creating, rotating and revoking keys).
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `ApiPermission::Read->value`, or read one with
 * `ApiPermission::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum ApiPermission: string
{
    case Read = 'read';
    case PaymentsWrite = 'payments:write';
    case PayoutsWrite = 'payouts:write';
    case RefundsWrite = 'refunds:write';
    case TopupsWrite = 'topups:write';
    case ServicesWrite = 'services:write';
    case WebhooksWrite = 'webhooks:write';
    case KeysManage = 'keys:manage';
}
