<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

/** 409: the Idempotency-Key was used with another body (`idempotency_key_reused`), or the object's state forbids it. */
final class ConflictException extends ApiException
{
}
