<?php

declare(strict_types=1);

namespace MomoPayments\Enum;

/**
 * `auth`: the operator refused our credentials (a 401 or 403). `timeout`: no answer within
 * `OPERATOR_TIMEOUT_MS`. `network`: it could not be reached. `http_5xx`: it failed.
 * `http_4xx`: it refused one request (the connection is fine). `bad_response`: its answer
 * could not be read.
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with `OperatorCallErrorCode::Auth->value`, or read one with
 * `OperatorCallErrorCode::tryFrom($value)`.
 *
 * Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.
 */
enum OperatorCallErrorCode: string
{
    case Auth = 'auth';
    case Timeout = 'timeout';
    case Network = 'network';
    case Http4xx = 'http_4xx';
    case Http5xx = 'http_5xx';
    case BadResponse = 'bad_response';
}
