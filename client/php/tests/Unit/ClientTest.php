<?php

declare(strict_types=1);

namespace MomoPayments\Tests\Unit;

use MomoPayments\Enum\ErrorCode;
use MomoPayments\Exception\ApiException;
use MomoPayments\Exception\AuthenticationException;
use MomoPayments\Exception\ConfigException;
use MomoPayments\Exception\ConflictException;
use MomoPayments\Exception\ConnectionException;
use MomoPayments\Exception\NotFoundException;
use MomoPayments\Exception\PaymentsException;
use MomoPayments\Exception\PermissionException;
use MomoPayments\Exception\RateLimitException;
use MomoPayments\Exception\ServerException;
use MomoPayments\Exception\ValidationException;
use MomoPayments\PaymentsClient;
use MomoPayments\RetryPolicy;
use MomoPayments\Tests\Support\Fixtures;
use MomoPayments\Tests\Support\LocalServer;
use PHPUnit\Framework\TestCase;

/**
 * The client against a real HTTP server on 127.0.0.1 (`php -S`, see LocalServer) that answers
 * what each test scripts and records what it receives: credentials, sandbox, idempotency keys,
 * retries, errors and paging, over the default cURL transport.
 */
final class ClientTest extends TestCase
{
    private const UUID = '/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/';

    private static LocalServer $server;

    public static function setUpBeforeClass(): void
    {
        self::$server = LocalServer::start();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server->stop();
    }

    private static function client(int $maxRetries = 2, bool $sandbox = true, int $timeoutMs = 5_000, ?string $baseUrl = null): PaymentsClient
    {
        return new PaymentsClient(
            apiKey: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
            apiUser: '5a3c2b1e-8f4d-4c6b-9a7e-1d2f3a4b5c6d',
            baseUrl: $baseUrl ?? self::$server->url . '/v1',
            sandbox: $sandbox,
            retryPolicy: new RetryPolicy(maxRetries: $maxRetries, baseDelayMs: 10, maxDelayMs: 50),
            timeoutMs: $timeoutMs,
        );
    }

    private static function paymentBody(): array
    {
        return [
            'amount' => 2500, 'currency' => 'XAF', 'customer_msisdn' => '237670000000',
            'payment_method' => 'mtn_momo', 'service_id' => 'svc_8ZWxqTmr3nB1cK7vDpQ2LsYh',
        ];
    }

    private static function accepted(): array
    {
        return ['status' => 202, 'headers' => ['X-Request-Id' => 'req_accepted'], 'body' => Fixtures::success(Fixtures::payment())];
    }

    public function testEveryCallCarriesTheKeyAndTheApiUserAndSandboxAddsTestTrue(): void
    {
        self::$server->script([['status' => 200, 'body' => Fixtures::success(Fixtures::payment())]]);

        $payment = self::client()->getPayment('pay_26ckKthu9SR4AlZ0MBzSvYzU');

        self::assertSame('initiated', $payment->status);
        [$request] = self::$server->requests();
        self::assertSame('GET', $request['method']);
        self::assertSame('/v1/payments/pay_26ckKthu9SR4AlZ0MBzSvYzU?test=true', $request['uri']);
        self::assertSame('Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc', $request['headers']['authorization']);
        self::assertSame('5a3c2b1e-8f4d-4c6b-9a7e-1d2f3a4b5c6d', $request['headers']['x-api-user']);
        self::assertArrayNotHasKey('idempotency-key', $request['headers'], 'a GET needs no key');
    }

    public function testWithoutSandboxTheTestParameterIsNotSentAndQueriesAreEncoded(): void
    {
        self::$server->script([['status' => 200, 'body' => Fixtures::success(['items' => [], 'has_more' => false, 'next_cursor' => null])]]);

        self::client(sandbox: false)->listPayments(['status' => 'success', 'service_id' => 'svc a&b', 'limit' => 5]);

        self::assertSame('/v1/payments?status=success&service_id=svc%20a%26b&limit=5', self::$server->requests()[0]['uri']);
    }

    public function testALiveKeyIsRefusedInSandboxModeBeforeAnyRequest(): void
    {
        try {
            new PaymentsClient(apiKey: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', apiUser: 'user', baseUrl: self::$server->url, sandbox: true);
            self::fail('a live key was accepted in sandbox mode');
        } catch (ConfigException $error) {
            self::assertSame('live_key_in_sandbox', $error->reason);
            self::assertInstanceOf(PaymentsException::class, $error);
        }
        $live = new PaymentsClient(apiKey: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', apiUser: 'user', baseUrl: self::$server->url);
        self::assertFalse($live->sandbox);
    }

    public function testMissingCredentialsOrABadBaseUrlAreRefused(): void
    {
        foreach ([['', 'user', null], ['sk_test_x', ' ', null], ['sk_test_x', 'user', '127.0.0.1:3000/v1']] as [$key, $user, $url]) {
            try {
                new PaymentsClient($key, $user, $url);
                self::fail("accepted: {$key} {$user} {$url}");
            } catch (ConfigException $error) {
                self::assertSame('invalid_option', $error->reason);
            }
        }
    }

    public function testTheBaseUrlComesFromPaymentsBaseUrlWhenNoneIsGiven(): void
    {
        self::$server->script([['status' => 200, 'body' => Fixtures::success(Fixtures::payment())]]);
        putenv('PAYMENTS_BASE_URL=' . self::$server->url . '/from-env/v1/');
        try {
            $client = new PaymentsClient('sk_test_x', 'user', sandbox: true);
        } finally {
            putenv('PAYMENTS_BASE_URL');
        }
        self::assertSame(self::$server->url . '/from-env/v1', $client->baseUrl);
        $client->getPayment('pay_1');
        self::assertSame('/from-env/v1/payments/pay_1?test=true', self::$server->requests()[0]['uri']);
        self::assertSame(PaymentsClient::DEFAULT_BASE_URL, (new PaymentsClient('sk_test_x', 'user'))->baseUrl);
    }

    public function testEachPostGetsItsOwnIdempotencyKeyWhichItsRetriesReuse(): void
    {
        $unavailable = Fixtures::error(503, 'service_unavailable', 'Storage is temporarily unavailable; nothing moved, retry.');
        self::$server->script([$unavailable, $unavailable, self::accepted()]);
        $client = self::client(maxRetries: 2);

        $payment = $client->createPayment(self::paymentBody());

        self::assertSame('pay_26ckKthu9SR4AlZ0MBzSvYzU', $payment->transaction_id);
        $attempts = self::$server->requests();
        self::assertCount(3, $attempts);
        $keys = array_unique(array_map(static fn (array $r) => $r['headers']['idempotency-key'], $attempts));
        self::assertCount(1, $keys, 'every retry sends the first attempt\'s key');
        self::assertMatchesRegularExpression(self::UUID, $keys[0]);
        self::assertSame(self::paymentBody(), json_decode($attempts[2]['body'], true));
        self::assertSame('application/json', $attempts[0]['headers']['content-type']);

        self::$server->script([self::accepted()]);
        $client->createPayment(self::paymentBody());
        self::assertNotSame($keys[0], self::$server->requests()[0]['headers']['idempotency-key'], 'a new call, a new key');
    }

    public function testAKeyOfYourOwnIsSentOnEveryAttempt(): void
    {
        self::$server->script([Fixtures::error(500, 'internal_error', 'Something went wrong.'), self::accepted()]);

        self::client()->createPayment(self::paymentBody(), idempotencyKey: 'order-1042-payment');

        self::assertSame(['order-1042-payment', 'order-1042-payment'], array_map(
            static fn (array $r) => $r['headers']['idempotency-key'],
            self::$server->requests(),
        ));
    }

    public function testA429IsRetriedOnlyAfterItsRetryAfter(): void
    {
        self::$server->script([
            Fixtures::error(429, 'rate_limited', 'Too many requests.', [], ['Retry-After' => '1']),
            self::accepted(),
        ]);

        $started = microtime(true);
        self::client()->createPayment(self::paymentBody());
        $elapsed = microtime(true) - $started;

        self::assertCount(2, self::$server->requests());
        self::assertGreaterThanOrEqual(1.0, $elapsed, 'the retry waited for Retry-After');
        self::assertLessThan(5.0, $elapsed);
    }

    public function testARetryAfterBeyondAMinuteIsThrownAtOnce(): void
    {
        self::$server->script([Fixtures::error(429, 'rate_limited', 'Too many requests.', [], ['Retry-After' => '120'])]);

        try {
            self::client(maxRetries: 5)->getBalance();
            self::fail('no exception');
        } catch (RateLimitException $error) {
            self::assertSame(120, $error->retryAfterSeconds());
            self::assertSame('rate_limited', $error->errorCode);
        }
        self::assertCount(1, self::$server->requests());
    }

    public function testAnAttemptThatTimesOutIsRetriedWithTheSameKey(): void
    {
        self::$server->script([['status' => 202, 'sleep_ms' => 2_000, 'body' => Fixtures::success(Fixtures::payment())], self::accepted()]);

        $payment = self::client(timeoutMs: 400)->createPayment(self::paymentBody());

        self::assertSame('initiated', $payment->status);
        $attempts = self::$server->requests();
        self::assertCount(2, $attempts);
        self::assertSame($attempts[0]['headers']['idempotency-key'], $attempts[1]['headers']['idempotency-key']);
    }

    public function testNoAnswerAfterEveryRetryIsAConnectionExceptionNamingTheKeyToRetryWith(): void
    {
        $closed = 'http://127.0.0.1:' . LocalServer::freePort() . '/v1';
        try {
            self::client(maxRetries: 2, baseUrl: $closed)->createPayment(self::paymentBody(), 'order-7');
            self::fail('no exception');
        } catch (ConnectionException $error) {
            self::assertSame(3, $error->attempts);
            self::assertFalse($error->timedOut);
            self::assertSame('order-7', $error->idempotencyKey);
            self::assertStringContainsString('failed after 3 attempts', $error->getMessage());
        }

        self::$server->script([['status' => 200, 'sleep_ms' => 1_500, 'body' => '']]);
        try {
            self::client(maxRetries: 0, timeoutMs: 300)->getBalance();
            self::fail('no exception');
        } catch (ConnectionException $error) {
            self::assertSame(1, $error->attempts);
            self::assertTrue($error->timedOut);
            self::assertNull($error->idempotencyKey);
        }
    }

    public function testAValidationErrorIsThrownAtOnceWithItsCodeFieldAndRequestId(): void
    {
        self::$server->script([Fixtures::error(400, 'invalid_amount', 'The amount must be greater than 0.', ['param' => 'amount'])]);

        try {
            self::client()->createPayment(['amount' => 0] + self::paymentBody());
            self::fail('no exception');
        } catch (ValidationException $error) {
            self::assertSame(400, $error->status);
            self::assertSame(400, $error->getCode());
            self::assertSame('invalid_amount', $error->errorCode);
            self::assertTrue($error->is(ErrorCode::InvalidAmount));
            self::assertSame('amount', $error->param);
            self::assertSame('The amount must be greater than 0.', $error->apiMessage);
            self::assertMatchesRegularExpression('/^req_[0-9a-f]{24}$/', (string) $error->requestId);
            self::assertStringContainsString("(request {$error->requestId})", $error->getMessage());
        }
        self::assertCount(1, self::$server->requests(), 'a 400 is an answer, never retried');
    }

    public function testHowManyProblemsWhenOnlyTheFirst50AreListed(): void
    {
        $details = array_map(
            static fn (int $i): array => ['param' => "f{$i}", 'code' => 'unknown_field', 'message' => 'not accepted'],
            range(0, 49),
        );
        self::$server->script([Fixtures::error(400, 'unknown_field', 'The field f0 is not accepted here.', ['details' => $details, 'details_total' => 3000])]);

        try {
            self::client()->createPayment(self::paymentBody());
            self::fail('no exception');
        } catch (ValidationException $error) {
            self::assertCount(50, $error->details);
            self::assertSame(3000, $error->detailsTotal);
        }
    }

    /** @return array<string, array{int, string, class-string<ApiException>}> */
    public static function errorClasses(): array
    {
        return [
            '401' => [401, 'invalid_api_key', AuthenticationException::class],
            '403' => [403, 'insufficient_balance', PermissionException::class],
            '404' => [404, 'resource_not_found', NotFoundException::class],
            '409' => [409, 'idempotency_key_reused', ConflictException::class],
            '413' => [413, 'payload_too_large', ApiException::class],
            '422' => [422, 'service_inactive', ValidationException::class],
            '429' => [429, 'rate_limited', RateLimitException::class],
            '500' => [500, 'internal_error', ServerException::class],
            '503' => [503, 'service_unavailable', ServerException::class],
        ];
    }

    /**
     * @dataProvider errorClasses
     * @param class-string<ApiException> $class
     */
    public function testEachErrorStatusIsThrownAsItsClassWithItsCode(int $status, string $code, string $class): void
    {
        self::$server->script([Fixtures::error($status, $code, 'Refused.')]);

        try {
            self::client(maxRetries: 0)->createPayment(self::paymentBody());
            self::fail('no exception');
        } catch (ApiException $error) {
            self::assertSame($class, $error::class);
            self::assertSame($status, $error->status);
            self::assertSame($code, $error->errorCode);
            self::assertTrue($error->is(ErrorCode::from($code)));
            self::assertSame(self::$server->requests()[0]['headers']['idempotency-key'] !== '', true);
            self::assertNotNull($error->requestId);
            self::assertSame($error->requestId, $error->response->requestId());
        }
    }

    public function testAnErrorWithoutTheEnvelopeKeepsItsStatusAndTheRequestIdHeader(): void
    {
        self::$server->script([['status' => 502, 'headers' => ['X-Request-Id' => 'req_from_header', 'Content-Type' => 'text/html'], 'body' => '<h1>Bad gateway</h1>']]);

        try {
            self::client(maxRetries: 0)->getBalance();
            self::fail('no exception');
        } catch (ServerException $error) {
            self::assertSame(502, $error->status);
            self::assertNull($error->errorCode);
            self::assertSame('req_from_header', $error->requestId);
            self::assertSame('<h1>Bad gateway</h1>', $error->response->body);
        }
    }

    public function testTheAutoPagingIteratorWalksEveryPageWithTheFiltersAndCursors(): void
    {
        self::$server->script([
            Fixtures::servicePage(['svc_5', 'svc_4'], 'cur_a'),
            Fixtures::servicePage(['svc_3', 'svc_2'], 'cur_b'),
            Fixtures::servicePage(['svc_1'], null),
        ]);

        $page = self::client()->listServices(['limit' => 2, 'status' => 'active']);
        self::assertCount(2, $page);
        self::assertTrue($page->hasMore);
        $ids = [];
        foreach ($page->autoPagingIterator() as $service) {
            $ids[] = $service->service_id;
        }

        self::assertSame(['svc_5', 'svc_4', 'svc_3', 'svc_2', 'svc_1'], $ids);
        self::assertSame([
            '/v1/services?limit=2&status=active&test=true',
            '/v1/services?cursor=cur_a&limit=2&status=active&test=true',
            '/v1/services?cursor=cur_b&limit=2&status=active&test=true',
        ], array_column(self::$server->requests(), 'uri'));
    }

    public function testBreakingOutOfTheIteratorFetchesNoFurtherPage(): void
    {
        self::$server->script([Fixtures::servicePage(['svc_5', 'svc_4'], 'cur_a'), Fixtures::servicePage(['svc_3'], null)]);

        foreach (self::client()->listServices(['limit' => 2])->autoPagingIterator() as $service) {
            break;
        }

        self::assertCount(1, self::$server->requests());
    }

    public function testAFailedPageIsThrownFromTheIterator(): void
    {
        self::$server->script([
            Fixtures::servicePage(['svc_5'], 'cur_a'),
            Fixtures::error(400, 'invalid_parameter', 'The cursor is not valid.', ['param' => 'cursor']),
        ]);

        $seen = [];
        try {
            foreach (self::client()->listServices()->autoPagingIterator() as $service) {
                $seen[] = $service->service_id;
            }
            self::fail('no exception');
        } catch (ValidationException $error) {
            self::assertSame('cursor', $error->param);
        }
        self::assertSame(['svc_5'], $seen);
    }

    public function testAnOptionalBodyLeftOutIsSentAsAnEmptyObject(): void
    {
        self::$server->script([['status' => 200, 'body' => Fixtures::success([
            'id' => 'we_1', 'url' => 'https://example.com/hooks', 'events' => ['payment.completed'], 'description' => null,
            'status' => 'enabled', 'mode' => 'test', 'created_at' => '2026-11-20T09:30:04.000Z',
            'updated_at' => '2026-11-20T09:30:04.000Z', 'secret' => 'whsec_8wqXbq1c5tV0pH3nLr2sJm7aKe4fYd9Z',
        ])]]);

        $endpoint = self::client()->rotateWebhookEndpointSecret('we_1');

        self::assertSame('whsec_8wqXbq1c5tV0pH3nLr2sJm7aKe4fYd9Z', $endpoint->secret);
        self::assertSame(['payment.completed'], $endpoint->events);
        self::assertSame('{}', self::$server->requests()[0]['body']);
    }

    public function testTheLastResponseShowsTheHeadersOfASuccess(): void
    {
        self::$server->script([['status' => 202, 'headers' => ['X-Request-Id' => 'req_1', 'Idempotent-Replayed' => 'true'], 'body' => Fixtures::success(Fixtures::payment())]]);
        $client = self::client();

        $client->createPayment(self::paymentBody());

        self::assertSame('req_1', $client->lastResponse()?->requestId());
        self::assertSame('true', $client->lastResponse()?->header('idempotent-replayed'));
        self::assertSame(202, $client->lastResponse()?->status);
    }
}
