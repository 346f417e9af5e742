<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

/** 5xx: the API failed (`internal_error`) or is unavailable (`service_unavailable`); nothing moved, retry with the same Idempotency-Key. */
final class ServerException extends ApiException
{
}
