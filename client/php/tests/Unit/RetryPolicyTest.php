<?php

declare(strict_types=1);

namespace MomoPayments\Tests\Unit;

use MomoPayments\Exception\ConfigException;
use MomoPayments\Http\Response;
use MomoPayments\RetryPolicy;
use PHPUnit\Framework\TestCase;

final class RetryPolicyTest extends TestCase
{
    public function testOnly429AndServerErrorsAreRetried(): void
    {
        foreach ([429, 500, 502, 503, 504] as $status) {
            self::assertTrue(RetryPolicy::isRetryableStatus($status), (string) $status);
        }
        foreach ([200, 400, 401, 403, 404, 409, 413, 422] as $status) {
            self::assertFalse(RetryPolicy::isRetryableStatus($status), (string) $status);
        }
    }

    public function testTheBackoffDoublesUpToItsCeilingWithFullJitter(): void
    {
        $highest = new RetryPolicy(maxRetries: 10, baseDelayMs: 100, maxDelayMs: 1_000, random: static fn (): float => 0.999999);
        self::assertSame([99, 199, 399, 799, 999, 999], array_map($highest->backoffDelayMs(...), range(0, 5)));

        $lowest = new RetryPolicy(baseDelayMs: 100, maxDelayMs: 1_000, random: static fn (): float => 0.0);
        self::assertSame(0, $lowest->backoffDelayMs(3));

        $half = new RetryPolicy(baseDelayMs: 100, maxDelayMs: 1_000, random: static fn (): float => 0.5);
        self::assertSame(200, $half->backoffDelayMs(2));
    }

    public function testTheDefaultJitterSpreadsTheDelays(): void
    {
        $policy = new RetryPolicy(baseDelayMs: 1_000, maxDelayMs: 1_000);
        $delays = array_map(static fn () => $policy->backoffDelayMs(0), range(1, 50));

        self::assertGreaterThan(10, count(array_unique($delays)));
        self::assertGreaterThanOrEqual(0, min($delays));
        self::assertLessThan(1_000, max($delays));
    }

    public function testRetryAfterIsReadInSecondsOrAsAnHttpDate(): void
    {
        self::assertSame(3_000, RetryPolicy::retryAfterMs('3'));
        self::assertSame(0, RetryPolicy::retryAfterMs('0'));
        self::assertSame(5_000, RetryPolicy::retryAfterMs('Sun, 06 Nov 1994 08:49:42 GMT', 784_111_777.0));
        self::assertSame(0, RetryPolicy::retryAfterMs('Sun, 06 Nov 1994 08:49:42 GMT', 784_111_800.0));
        self::assertNull(RetryPolicy::retryAfterMs(null));
        self::assertNull(RetryPolicy::retryAfterMs('soon'));
    }

    public function testAResponseIsRetriedAfterItsRetryAfterPlusJitterUnlessItAsksMoreThanAMinute(): void
    {
        $policy = new RetryPolicy(baseDelayMs: 100, maxDelayMs: 1_000, random: static fn (): float => 0.5);

        self::assertSame(2_050, $policy->delayAfterResponseMs(3, new Response(429, ['Retry-After' => '2'], '')));
        self::assertSame(400, $policy->delayAfterResponseMs(3, new Response(503, [], '')));
        self::assertSame(60_050, $policy->delayAfterResponseMs(0, new Response(503, ['Retry-After' => '60'], '')));
        self::assertNull($policy->delayAfterResponseMs(0, new Response(429, ['Retry-After' => '61'], '')));
        self::assertNull($policy->delayAfterResponseMs(0, new Response(400, ['Retry-After' => '1'], '')));
    }

    public function testANegativeSettingIsRefused(): void
    {
        $this->expectException(ConfigException::class);
        $this->expectExceptionMessage('`maxRetries` must be 0 or more');
        new RetryPolicy(maxRetries: -1);
    }
}
