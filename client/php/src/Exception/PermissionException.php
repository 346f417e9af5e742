<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

/** 403: the request is understood but refused (`insufficient_balance`). */
final class PermissionException extends ApiException
{
}
