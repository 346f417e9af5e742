<?php

declare(strict_types=1);

namespace MomoPayments\Tests\Unit;

use MomoPayments\Exception\WebhookVerificationException;
use MomoPayments\Webhook;
use PHPUnit\Framework\TestCase;

final class WebhookTest extends TestCase
{
    private const SECRET = 'whsec_8wqXbq1c5tV0pH3nLr2sJm7aKe4fYd9Z';
    private const NOW = 1_795_000_000;

    private static function payload(string $event = 'payment.completed'): string
    {
        return json_encode([
            'id' => 'evt_YvLIaWnufPjfE2zzW9C0854C',
            'event' => $event,
            'mode' => 'test',
            'timestamp' => '2026-11-20T09:30:04.000Z',
            'data' => [
                'transaction_id' => 'pay_26ckKthu9SR4AlZ0MBzSvYzU', 'amount' => 2500, 'currency' => 'XAF',
                'status' => 'success', 'reference' => 'order-1042', 'metadata' => ['cart_id' => 'cart-5531'],
                'failure_code' => null, 'service_id' => 'svc_8ZWxqTmr3nB1cK7vDpQ2LsYh', 'payment_id' => null,
            ],
        ], JSON_UNESCAPED_SLASHES);
    }

    private static function reason(callable $verify): string
    {
        try {
            $verify();
            return 'accepted';
        } catch (WebhookVerificationException $error) {
            return $error->reason;
        }
    }

    public function testAGenuineDeliveryIsAcceptedAndItsEventReturned(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::NOW);

        $event = Webhook::verify($payload, $header, self::SECRET, now: self::NOW + 10);

        self::assertSame('payment.completed', $event->event);
        self::assertSame('evt_YvLIaWnufPjfE2zzW9C0854C', $event->id);
        self::assertSame(2500, $event->data->amount);
        self::assertSame('order-1042', $event->data->reference);
        self::assertSame(['cart_id' => 'cart-5531'], $event->data->metadata);
    }

    public function testTheTestHeaderIsTheSignatureTheApiSends(): void
    {
        // What the server's signWebhook (server/webhooks/signature.ts) gives for this body, secret and time.
        $header = Webhook::generateTestHeader('{"id":"evt_1","amount":"2 500 F"}', 'whsec_test', 1_795_000_000);
        self::assertSame('t=1795000000,v1=690da06fd04dacbb5af4cbb63b2645561d733e2d0980c91d0a93f5d2bb602e6a', $header);
    }

    public function testATamperedBodyIsRefused(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::NOW);
        $tampered = str_replace('"amount":2500', '"amount":9500', $payload);

        self::assertSame('signature_mismatch', self::reason(fn () => Webhook::verify($tampered, $header, self::SECRET, now: self::NOW)));
        self::assertSame('signature_mismatch', self::reason(fn () => Webhook::verify($payload . ' ', $header, self::SECRET, now: self::NOW)));
    }

    public function testAnotherSecretIsRefused(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::NOW);

        self::assertSame('signature_mismatch', self::reason(fn () => Webhook::verify($payload, $header, 'whsec_another', now: self::NOW)));
    }

    public function testAnOldOrFutureTimestampIsRefusedPastTheTolerance(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::NOW);

        self::assertSame('accepted', self::reason(fn () => Webhook::verify($payload, $header, self::SECRET, now: self::NOW + 300)));
        self::assertSame('timestamp_out_of_tolerance', self::reason(fn () => Webhook::verify($payload, $header, self::SECRET, now: self::NOW + 301)));
        self::assertSame('timestamp_out_of_tolerance', self::reason(fn () => Webhook::verify($payload, $header, self::SECRET, now: self::NOW - 301)));
        self::assertSame('accepted', self::reason(fn () => Webhook::verify($payload, $header, self::SECRET, 3600, self::NOW + 3000)));
    }

    public function testTheTimestampIsSignedSoItCannotBeFreshenedByAnAttacker(): void
    {
        $payload = self::payload();
        $old = Webhook::generateTestHeader($payload, self::SECRET, self::NOW - 3600);
        $freshened = preg_replace('/^t=\d+/', 't=' . self::NOW, $old);

        self::assertSame('signature_mismatch', self::reason(fn () => Webhook::verify($payload, $freshened, self::SECRET, now: self::NOW)));
    }

    public function testDuringASecretRotationEitherSecretVerifies(): void
    {
        $payload = self::payload();
        $old = 'whsec_oldoldoldoldoldoldoldoldoldold';
        $new = 'whsec_newnewnewnewnewnewnewnewnewnew';
        $t = self::NOW;
        // What the API sends while the previous secret still signs: one v1 per secret.
        $header = "t={$t},v1=" . hash_hmac('sha256', "{$t}.{$payload}", $new) . ',v1=' . hash_hmac('sha256', "{$t}.{$payload}", $old);

        self::assertSame('accepted', self::reason(fn () => Webhook::verify($payload, $header, $new, now: $t)));
        self::assertSame('accepted', self::reason(fn () => Webhook::verify($payload, $header, $old, now: $t)));
        self::assertSame('signature_mismatch', self::reason(fn () => Webhook::verify($payload, $header, self::SECRET, now: $t)));
    }

    public function testTheServersRotationHeaderVerifiesWithEitherSecret(): void
    {
        // What the server's signWebhookWithSecrets gives for this body with a new and an old secret.
        $header = 't=1795000000,v1=d529216d577503f3aed4b9be79bb6515ab4951cba64955f33e63e2438c859cb2,'
            . 'v1=7bf1c1a64f98771a7720ea0d4cadb7f09bdeaf23e49c585c8224a25a002b8d3d';
        $payload = '{"id":"evt_1"}';

        foreach (['whsec_new', 'whsec_old'] as $secret) {
            $verify = fn () => Webhook::verify($payload, $header, $secret, now: 1_795_000_000);
            self::assertSame('malformed_payload', self::reason($verify), "{$secret}: signature accepted, then the body read");
        }
        self::assertSame('signature_mismatch', self::reason(fn () => Webhook::verify($payload, $header, 'whsec_gone', now: 1_795_000_000)));
    }

    public function testUnknownSchemesAreIgnoredButAV1IsRequired(): void
    {
        $payload = self::payload();
        $header = Webhook::generateTestHeader($payload, self::SECRET, self::NOW);

        self::assertSame('accepted', self::reason(fn () => Webhook::verify($payload, "{$header},v2=abc", self::SECRET, now: self::NOW)));
        self::assertSame('malformed_header', self::reason(fn () => Webhook::verify($payload, 't=' . self::NOW . ',v2=abc', self::SECRET, now: self::NOW)));
    }

    /** @return array<string, array{string}> */
    public static function malformedHeaders(): array
    {
        return [
            'empty' => [''],
            'no timestamp' => ['v1=' . str_repeat('a', 64)],
            'timestamp not a number' => ['t=soon,v1=' . str_repeat('a', 64)],
            'two timestamps' => ['t=1,t=2,v1=' . str_repeat('a', 64)],
            'short signature' => ['t=1,v1=abc'],
            'not hex' => ['t=1,v1=' . str_repeat('z', 64)],
            'no equals sign' => ['t=1,v1'],
        ];
    }

    /** @dataProvider malformedHeaders */
    public function testAMalformedHeaderIsRefused(string $header): void
    {
        self::assertSame('malformed_header', self::reason(fn () => Webhook::verify(self::payload(), $header, self::SECRET, now: self::NOW)));
    }

    public function testASignedBodyThatIsNotAnEventIsRefused(): void
    {
        foreach (['not json', '[]', '{"id":"evt_1","event":"payment.completed"}'] as $payload) {
            $header = Webhook::generateTestHeader($payload, self::SECRET, self::NOW);
            self::assertSame('malformed_payload', self::reason(fn () => Webhook::verify($payload, $header, self::SECRET, now: self::NOW)), $payload);
        }
    }
}
