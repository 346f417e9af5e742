<?php

declare(strict_types=1);

namespace MomoPayments\Tests;

use MomoPayments\Enum\ErrorCode;
use MomoPayments\Exception\ApiException;
use MomoPayments\Exception\AuthenticationException;
use MomoPayments\Exception\ConflictException;
use MomoPayments\Exception\NotFoundException;
use MomoPayments\Exception\PermissionException;
use MomoPayments\Exception\RateLimitException;
use MomoPayments\Exception\ValidationException;
use MomoPayments\Exception\WebhookVerificationException;
use MomoPayments\Model\Payment;
use MomoPayments\PaymentsClient;
use MomoPayments\RetryPolicy;
use MomoPayments\Tests\Support\LocalServer;
use MomoPayments\Tests\Support\RecordingTransport;
use MomoPayments\Webhook;
use PHPUnit\Framework\TestCase;

/**
 * The scenarios every client library runs (test/clients/scenarios.json), against the real API
 * started by test/clients/php-library.test.ts as `npm start` runs it: its settlement and webhook
 * workers on their timers, sandbox payments settling after a short delay. It passes, through the
 * environment, the server's address and the sandbox account `npm start` printed
 * (PAYMENTS_BASE_URL, PAYMENTS_API_USER, PAYMENTS_API_KEY), a second, empty account
 * (PAYMENTS_SECOND_API_USER, PAYMENTS_SECOND_API_KEY), and a server with a small rate limit
 * (PAYMENTS_RATE_LIMITED_BASE_URL, _API_USER, _API_KEY, and PAYMENTS_RATE_LIMIT, its calls per window).
 */
final class IntegrationTest extends TestCase
{
    private const SUCCESS_NUMBER = '237670000000';

    private static function env(string $name): string
    {
        $value = getenv($name);
        if (!is_string($value) || $value === '') {
            self::fail("{$name} is not set: run this suite through test/clients/php-library.test.ts, which starts the API");
        }
        return $value;
    }

    private static function client(string $account = 'PAYMENTS', ?string $baseUrl = null, ?RetryPolicy $retry = null, ?RecordingTransport $transport = null): PaymentsClient
    {
        return new PaymentsClient(
            apiKey: self::env("{$account}_API_KEY"),
            apiUser: self::env("{$account}_API_USER"),
            baseUrl: $baseUrl ?? self::env('PAYMENTS_BASE_URL'),
            sandbox: true,
            transport: $transport,
            retryPolicy: $retry ?? new RetryPolicy(maxRetries: 2, baseDelayMs: 50, maxDelayMs: 500),
        );
    }

    private static function availableXaf(PaymentsClient $client): int
    {
        foreach ($client->getBalance()->balances as $balance) {
            if ($balance['currency'] === 'XAF') {
                return $balance['available'];
            }
        }
        return 0;
    }

    /** @return array<string, mixed> */
    private static function paymentBody(string $serviceId, int $amount = 2500): array
    {
        return [
            'amount' => $amount, 'currency' => 'XAF', 'customer_msisdn' => self::SUCCESS_NUMBER,
            'payment_method' => 'mtn_momo', 'service_id' => $serviceId, 'reference' => 'order-' . bin2hex(random_bytes(4)),
        ];
    }

    /**
     * Calls `$probe` until it returns something other than null, for up to `$seconds`.
     *
     * @template T
     * @param callable(): (T|null) $probe
     * @return T
     */
    private static function eventually(callable $probe, string $what, float $seconds = 20.0): mixed
    {
        $deadline = microtime(true) + $seconds;
        do {
            $result = $probe();
            if ($result !== null) {
                return $result;
            }
            usleep(50_000);
        } while (microtime(true) < $deadline);
        self::fail("{$what}: not within {$seconds} s");
    }

    private static function settled(PaymentsClient $client, Payment $payment): Payment
    {
        return self::eventually(static function () use ($client, $payment): ?Payment {
            $now = $client->getPayment($payment->transaction_id);
            return $now->status === 'initiated' ? null : $now;
        }, "payment {$payment->transaction_id} settled");
    }

    private static function assertRequestId(ApiException $error): void
    {
        self::assertMatchesRegularExpression('/^req_[0-9A-Za-z]{24}$/', (string) $error->requestId);
        self::assertSame($error->response->requestId(), $error->requestId, 'the body repeats the X-Request-Id header');
    }

    public function testPaymentToSettlement(): void
    {
        $client = self::client();
        $service = $client->createService(['name' => 'Boutique Akwa', 'type' => 'website']);
        $before = self::availableXaf($client);

        $payment = $client->createPayment(self::paymentBody($service->service_id, 2500));

        self::assertSame(202, $client->lastResponse()?->status);
        self::assertSame('initiated', $payment->status);
        self::assertSame($service->service_id, $payment->service_id);
        $final = self::settled($client, $payment);
        self::assertSame('success', $final->status);
        self::assertNotNull($final->completed_at);
        self::assertSame($before + 2500, self::availableXaf($client));
    }

    public function testMetadataAndReference(): void
    {
        $client = self::client();
        $service = $client->createService(['name' => 'Boutique Akwa', 'type' => 'website']);
        // Numbers the sandbox declines: the shared account's balance, which other scenarios count, stays as it is.
        $declined = ['customer_msisdn' => '237670000001'];
        $body = ['metadata' => ['cart_id' => 'cart-5531', 'note' => "two\nlines"]] + $declined + self::paymentBody($service->service_id, 1500);
        $client->createPayment($declined + self::paymentBody($service->service_id, 1000));

        $payment = $client->createPayment($body);

        self::assertSame($body['metadata'], $payment->metadata);
        self::assertSame($body['metadata'], $client->getPayment($payment->transaction_id)->metadata);
        $found = $client->listPayments(['reference' => $body['reference']]);
        self::assertSame([$payment->transaction_id], array_map(static fn (Payment $p) => $p->transaction_id, $found->items));
        self::assertSame($body['metadata'], $found->items[0]->metadata);
    }

    public function testPayoutRefusedForBalance(): void
    {
        $client = self::client();
        $before = self::availableXaf($client);

        try {
            $client->createPayout([
                'amount' => $before + 1000, 'currency' => 'XAF', 'recipient_msisdn' => '237690000000', 'payout_type' => 'withdrawal',
            ]);
            self::fail('a payout larger than the balance was accepted');
        } catch (PermissionException $error) {
            self::assertSame(403, $error->status);
            self::assertSame('insufficient_balance', $error->errorCode);
            self::assertTrue($error->is(ErrorCode::InsufficientBalance));
            self::assertRequestId($error);
        }
        self::assertSame($before, self::availableXaf($client));
    }

    public function testIdempotentReplay(): void
    {
        $client = self::client();
        $service = $client->createService(['name' => 'Replay shop']);
        $body = self::paymentBody($service->service_id, 1500);
        $key = PaymentsClient::newIdempotencyKey();

        $first = $client->createPayment($body, $key);
        self::assertNull($client->lastResponse()?->header('Idempotent-Replayed'));
        $second = $client->createPayment($body, $key);

        self::assertSame($first->transaction_id, $second->transaction_id);
        self::assertSame('true', $client->lastResponse()?->header('Idempotent-Replayed'));
        $payments = iterator_to_array($client->listPayments(['service_id' => $service->service_id])->autoPagingIterator(), false);
        self::assertCount(1, $payments, 'one movement for the two calls');

        try {
            $client->createPayment(['amount' => 1600] + $body, $key);
            self::fail('another body under the same key was accepted');
        } catch (ConflictException $error) {
            self::assertSame('idempotency_key_reused', $error->errorCode);
            self::assertRequestId($error);
        }
        self::settled($client, $first);
    }

    public function testPaging45Items(): void
    {
        $client = self::client('PAYMENTS_SECOND');
        $created = [];
        for ($i = 1; $i <= 45; $i++) {
            $created[] = $client->createService(['name' => sprintf('Shop %02d', $i)])->service_id;
        }
        $transport = new RecordingTransport();
        $listing = self::client('PAYMENTS_SECOND', transport: $transport);

        $listed = [];
        foreach ($listing->listServices(['limit' => 20])->autoPagingIterator() as $service) {
            $listed[] = $service->service_id;
        }

        self::assertCount(45, array_unique($listed));
        self::assertSame(array_reverse($created), $listed, 'newest first');
        self::assertCount(3, $transport->requests, '20 + 20 + 5');
        self::assertStringContainsString('cursor=', $transport->requests[2]->uri);
    }

    public function testErrorClasses(): void
    {
        $client = self::client();

        $wrongKey = new PaymentsClient(
            apiKey: 'sk_test_' . str_repeat('0', 32),
            apiUser: self::env('PAYMENTS_API_USER'),
            baseUrl: self::env('PAYMENTS_BASE_URL'),
            sandbox: true,
        );
        $error = self::thrown(static fn () => $wrongKey->getBalance());
        self::assertInstanceOf(AuthenticationException::class, $error);
        self::assertSame([401, 'invalid_api_key'], [$error->status, $error->errorCode]);
        self::assertRequestId($error);

        $service = $client->createService(['name' => 'Errors shop']);
        $error = self::thrown(static fn () => $client->createPayment(['amount' => 0] + self::paymentBody($service->service_id)));
        self::assertInstanceOf(ValidationException::class, $error);
        self::assertSame([400, 'invalid_amount', 'amount'], [$error->status, $error->errorCode, $error->param]);
        self::assertStringContainsString('greater than 0', $error->apiMessage);
        self::assertRequestId($error);

        $error = self::thrown(static fn () => $client->getPayment('pay_' . str_repeat('0', 24)));
        self::assertInstanceOf(NotFoundException::class, $error);
        self::assertSame([404, 'resource_not_found'], [$error->status, $error->errorCode]);
        self::assertRequestId($error);

        $key = PaymentsClient::newIdempotencyKey();
        $client->createService(['name' => 'Once'], $key);
        $error = self::thrown(static fn () => $client->createService(['name' => 'Twice'], $key));
        self::assertInstanceOf(ConflictException::class, $error);
        self::assertSame([409, 'idempotency_key_reused'], [$error->status, $error->errorCode]);
        self::assertRequestId($error);

        // A server whose limit is a few calls per window; no retries, so the 429 comes back.
        $limited = self::client('PAYMENTS_RATE_LIMITED', self::env('PAYMENTS_RATE_LIMITED_BASE_URL'), new RetryPolicy(maxRetries: 0));
        $limit = (int) self::env('PAYMENTS_RATE_LIMIT');
        $error = null;
        for ($call = 0; $call <= $limit && $error === null; $call++) {
            try {
                $limited->getBalance();
            } catch (ApiException $thrown) {
                $error = $thrown;
            }
        }
        self::assertInstanceOf(RateLimitException::class, $error, "no 429 after {$limit} calls");
        self::assertSame([429, 'rate_limited'], [$error->status, $error->errorCode]);
        self::assertGreaterThanOrEqual(1, $error->retryAfterSeconds());
        self::assertRequestId($error);
    }

    private static function thrown(callable $call): ApiException
    {
        try {
            $call();
        } catch (ApiException $error) {
            return $error;
        }
        self::fail('the call succeeded');
    }

    public function testWebhookVerification(): void
    {
        $receiver = LocalServer::start([['status' => 200, 'body' => 'ok']]);
        try {
            $client = self::client();
            $endpoint = $client->createWebhookEndpoint(['url' => "{$receiver->url}/hooks", 'events' => ['payment.completed']]);
            self::assertMatchesRegularExpression('/^whsec_/', $endpoint->secret);
            $service = $client->createService(['name' => 'Webhook shop']);
            $payment = $client->createPayment(self::paymentBody($service->service_id, 3100));
            self::assertSame('success', self::settled($client, $payment)->status);

            $delivery = self::eventually(static function () use ($receiver, $payment): ?array {
                foreach ($receiver->requests() as $request) {
                    if (str_contains($request['body'], $payment->transaction_id)) {
                        return $request;
                    }
                }
                return null;
            }, "the delivery of payment.completed for {$payment->transaction_id}");
            $body = $delivery['body'];
            $header = $delivery['headers']['x-webhook-signature'];

            $event = Webhook::verify($body, $header, $endpoint->secret);
            self::assertSame('payment.completed', $event->event);
            self::assertSame($payment->transaction_id, $event->data->transaction_id);
            self::assertSame(3100, $event->data->amount);
            self::assertSame('success', $event->data->status);
            self::assertSame($delivery['headers']['x-webhook-id'], $event->id, 'X-Webhook-Id names the event');

            $position = strpos($body, '3100');
            $tampered = substr_replace($body, '9', $position, 1);
            self::assertSame('signature_mismatch', self::refusal(static fn () => Webhook::verify($tampered, $header, $endpoint->secret)));
            self::assertSame('signature_mismatch', self::refusal(static fn () => Webhook::verify($body, $header, 'whsec_' . str_repeat('x', 32))));
            // The same delivery replayed ten minutes later: genuine, but too old.
            self::assertSame('timestamp_out_of_tolerance', self::refusal(static fn () => Webhook::verify($body, $header, $endpoint->secret, now: time() + 600)));
        } finally {
            $receiver->stop();
        }
    }

    private static function refusal(callable $verify): string
    {
        try {
            $verify();
            return 'accepted';
        } catch (WebhookVerificationException $error) {
            return $error->reason;
        }
    }
}
