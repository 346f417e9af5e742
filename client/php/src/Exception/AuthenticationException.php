<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

/** 401: the key or the API user is missing or wrong (`invalid_api_key`, `missing_api_user`, ...). */
final class AuthenticationException extends ApiException
{
}
