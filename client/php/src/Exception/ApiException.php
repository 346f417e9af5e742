<?php

declare(strict_types=1);

namespace MomoPayments\Exception;

use MomoPayments\Enum\ErrorCode;
use MomoPayments\Http\Response;
use RuntimeException;

/**
 * The API answered with an error. A subclass per class of error (`ValidationException`,
 * `AuthenticationException`, `PermissionException`, `NotFoundException`, `ConflictException`,
 * `RateLimitException`, `ServerException`); this class itself for the others (413, 415, or an
 * answer without the contract's envelope). `getCode()` is the HTTP status.
 */
class ApiException extends RuntimeException implements PaymentsException
{
    /** The HTTP status. */
    public readonly int $status;
    /** The contract's stable error code (`insufficient_balance`), or null when the body was not its error envelope. */
    public readonly ?string $errorCode;
    /** The `X-Request-Id` of the failed call: quote it to support. */
    public readonly ?string $requestId;
    /** The field or parameter at fault (`amount`, `Idempotency-Key`), when there is one. */
    public readonly ?string $param;
    /** @var list<array{param: string, code: string, message: string}> Every problem found, when there are several (at most the first 50). */
    public readonly array $details;
    /** How many problems the request had: more than `count($details)` when the API listed only the first 50. */
    public readonly int $detailsTotal;
    /** The message the API gave, or a description of the unexpected answer. */
    public readonly string $apiMessage;

    final public function __construct(public readonly Response $response, ?string $apiMessage = null)
    {
        $error = self::envelopeOf($response);
        $this->status = $response->status;
        $this->errorCode = $error['code'] ?? null;
        $this->requestId = $error['request_id'] ?? $response->requestId();
        $this->param = $error['param'] ?? null;
        $this->details = $error['details'] ?? [];
        $total = $error['details_total'] ?? null;
        $this->detailsTotal = is_int($total) ? $total : count($this->details);
        $this->apiMessage = $apiMessage ?? $error['message'] ?? 'the answer is not the error envelope of the contract';
        $label = $this->errorCode ?? "HTTP {$response->status}";
        $where = $this->requestId !== null ? " (request {$this->requestId})" : '';
        parent::__construct("{$response->status} {$label}: {$this->apiMessage}{$where}", $response->status);
    }

    /** The exception of the class that matches the response's status. */
    public static function fromResponse(Response $response): self
    {
        $status = $response->status;
        $class = match (true) {
            $status === 400, $status === 422 => ValidationException::class,
            $status === 401 => AuthenticationException::class,
            $status === 403 => PermissionException::class,
            $status === 404 => NotFoundException::class,
            $status === 409 => ConflictException::class,
            $status === 429 => RateLimitException::class,
            $status >= 500 => ServerException::class,
            default => self::class,
        };
        return new $class($response);
    }

    /** Whether the error carries `$code`: `if ($e->is(ErrorCode::InsufficientBalance))`. */
    public function is(ErrorCode $code): bool
    {
        return $this->errorCode === $code->value;
    }

    /** @return array{code?: string, message?: string, request_id?: string, param?: string, details?: list<array{param: string, code: string, message: string}>, details_total?: int} */
    private static function envelopeOf(Response $response): array
    {
        try {
            $body = json_decode($response->body, true, 64, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            return [];
        }
        $error = is_array($body) ? ($body['error'] ?? null) : null;
        return is_array($error) && is_string($error['code'] ?? null) ? $error : [];
    }
}
