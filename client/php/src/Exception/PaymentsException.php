<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

/** Every exception the library throws implements this: `catch (PaymentsException $e)` gets them all. */
interface PaymentsException extends \Throwable
{
}
