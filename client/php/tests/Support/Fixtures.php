<?php

declare(strict_types=1);

namespace MomoPayments\Tests\Support;

/** The API's JSON, as the contract's examples spell it, for scripted answers. */
final class Fixtures
{
    /** @param array<string, mixed> $data */
    public static function success(array $data): array
    {
        return ['status' => 'success', 'data' => $data];
    }

    /** @return array<string, mixed> A scripted error answer of the contract. */
    public static function error(int $status, string $code, string $message, array $extra = [], array $headers = []): array
    {
        $requestId = 'req_' . substr(hash('sha256', $code . $status), 0, 24);
        return [
            'status' => $status,
            'headers' => ['X-Request-Id' => $requestId] + $headers,
            'body' => ['status' => 'error', 'error' => ['code' => $code, 'message' => $message, 'request_id' => $requestId] + $extra],
        ];
    }

    /** @return array<string, mixed> */
    public static function payment(string $id = 'pay_26ckKthu9SR4AlZ0MBzSvYzU', string $status = 'initiated'): array
    {
        return [
            'transaction_id' => $id, 'amount' => 2500, 'currency' => 'XAF', 'status' => $status, 'flow' => 'direct',
            'payment_method' => 'mtn_momo', 'customer_msisdn' => '237670000000',
            'service_id' => 'svc_8ZWxqTmr3nB1cK7vDpQ2LsYh', 'reference' => 'order-1042',
            'metadata' => ['cart_id' => 'cart-5531'], 'failure_code' => null,
            'refunded_amount' => 0, 'checkout_url' => null, 'return_url' => null, 'mode' => 'test',
            'expires_at' => '2026-11-20T09:45:04.000Z', 'created_at' => '2026-11-20T09:30:04.000Z',
            'updated_at' => '2026-11-20T09:30:04.000Z', 'completed_at' => null,
        ];
    }

    /** @return array<string, mixed> */
    public static function service(string $id, string $name = 'Boutique Akwa'): array
    {
        return [
            'service_id' => $id, 'name' => $name, 'description' => null, 'type' => 'website', 'status' => 'active',
            'mode' => 'test', 'created_at' => '2026-11-20T09:30:04.000Z', 'updated_at' => '2026-11-20T09:30:04.000Z',
            'deleted_at' => null,
        ];
    }

    /** @param list<string> $ids @return array<string, mixed> */
    public static function servicePage(array $ids, ?string $nextCursor): array
    {
        return [
            'status' => 200,
            'body' => self::success([
                'items' => array_map(static fn (string $id) => self::service($id), $ids),
                'has_more' => $nextCursor !== null,
                'next_cursor' => $nextCursor,
            ]),
        ];
    }
}
