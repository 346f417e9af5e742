<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

/** 404: no such object in this account and mode (`resource_not_found`), or no such route. */
final class NotFoundException extends ApiException
{
}
