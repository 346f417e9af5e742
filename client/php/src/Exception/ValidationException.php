<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

/** 400 or 422: the request is malformed or refers to something unusable (`missing_field`, `invalid_amount`, `service_not_found`, ...); `param` names the field. */
final class ValidationException extends ApiException
{
}
