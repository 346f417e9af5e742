<?php

declare(strict_types=1);

namespace MomoPayments;

use MomoPayments\Exception\WebhookVerificationException;
use MomoPayments\Model\Event;

/**
 * Verifies the deliveries of your webhook endpoints, and signs test deliveries.
 *
 * `X-Webhook-Signature` is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` made with
 * the endpoint's secret. During a secret rotation the API signs with both secrets, one `v1` each:
 * either secret verifies.
 */
final class Webhook
{
    /** How far a signature's timestamp may be from now, in seconds, either way, by default. */
    public const DEFAULT_TOLERANCE_SECONDS = 300;

    /**
     * Checks that a delivery comes from the API and is recent, then returns its event. Pass the
     * raw body exactly as received (`file_get_contents('php://input')`), never re-encoded JSON.
     * De-duplicate on the event's `id`: delivery is at least once.
     *
     * @param string $payload The raw request body.
     * @param string $signatureHeader The `X-Webhook-Signature` header.
     * @param string $secret The endpoint's secret (`whsec_...`).
     * @param int|null $now Unix seconds to check the timestamp against; default now.
     *
     * @throws WebhookVerificationException with `reason` `malformed_header`, `signature_mismatch`,
     *                                      `timestamp_out_of_tolerance` or `malformed_payload`.
     */
    public static function verify(
        string $payload,
        string $signatureHeader,
        string $secret,
        int $toleranceSeconds = self::DEFAULT_TOLERANCE_SECONDS,
        ?int $now = null,
    ): Event {
        [$timestamp, $signatures] = self::parseHeader($signatureHeader);

        // The signature first: a timestamp error then always means a genuine but stale delivery.
        $expected = hash_hmac('sha256', "{$timestamp}.{$payload}", $secret);
        $matches = false;
        foreach ($signatures as $signature) {
            // Every candidate is compared, in constant time, whichever matched.
            $matches = hash_equals($expected, $signature) || $matches;
        }
        if (!$matches) {
            throw new WebhookVerificationException(
                WebhookVerificationException::SIGNATURE_MISMATCH,
                "No v1 signature matches the body: check the endpoint's secret, and pass the raw body, unparsed.",
            );
        }

        $age = abs(($now ?? time()) - $timestamp);
        if ($age > $toleranceSeconds) {
            throw new WebhookVerificationException(
                WebhookVerificationException::TIMESTAMP_OUT_OF_TOLERANCE,
                "The signature is valid but its timestamp is {$age} s from now, more than the {$toleranceSeconds} s allowed: "
                . 'a replayed delivery, or a clock out of sync.',
            );
        }

        return self::parseEvent($payload);
    }

    /**
     * Builds the `X-Webhook-Signature` header the API would send with `$payload`, so that your
     * tests can post a signed delivery to your own endpoint. Sign exactly the bytes you post.
     *
     * @param int|null $timestamp Unix seconds; default now. An old one tests your handling of
     *                            `timestamp_out_of_tolerance`.
     */
    public static function generateTestHeader(string $payload, string $secret, ?int $timestamp = null): string
    {
        $timestamp ??= time();
        if ($timestamp < 0) {
            throw new \InvalidArgumentException("timestamp must be whole Unix seconds, not {$timestamp}");
        }
        return "t={$timestamp},v1=" . hash_hmac('sha256', "{$timestamp}.{$payload}", $secret);
    }

    /** @return array{int, list<string>} The timestamp and the v1 signatures, lower-case hex. */
    private static function parseHeader(string $header): array
    {
        $timestamp = null;
        $signatures = [];
        foreach (explode(',', $header) as $part) {
            $pair = explode('=', trim($part));
            if (count($pair) !== 2) {
                self::malformed($header);
            }
            [$key, $value] = $pair;
            if ($key === 't') {
                if ($timestamp !== null || preg_match('/^\d{1,12}$/', $value) !== 1) {
                    self::malformed($header);
                }
                $timestamp = (int) $value;
            } elseif ($key === 'v1') {
                if (preg_match('/^[0-9a-fA-F]{64}$/', $value) !== 1) {
                    self::malformed($header);
                }
                $signatures[] = strtolower($value);
            }
            // Other schemes (v0, v2, ...) are ignored, so that new ones can be added without breaking you.
        }
        if ($timestamp === null || $signatures === []) {
            self::malformed($header);
        }
        return [$timestamp, $signatures];
    }

    private static function malformed(string $header): never
    {
        $shown = strlen($header) > 120 ? substr($header, 0, 120) . '...' : $header;
        throw new WebhookVerificationException(
            WebhookVerificationException::MALFORMED_HEADER,
            'X-Webhook-Signature is not "t=<unix seconds>,v1=<64 hex digits>": ' . json_encode($shown),
        );
    }

    private static function parseEvent(string $payload): Event
    {
        try {
            $event = json_decode($payload, true, 64, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            throw new WebhookVerificationException(WebhookVerificationException::MALFORMED_PAYLOAD, 'The signed body is not JSON.');
        }
        if (!is_array($event) || !is_string($event['id'] ?? null) || !is_string($event['event'] ?? null) || !is_array($event['data'] ?? null)) {
            throw new WebhookVerificationException(
                WebhookVerificationException::MALFORMED_PAYLOAD,
                'The signed body is not an event (id, event, data).',
            );
        }
        try {
            return Event::fromArray($event);
        } catch (\TypeError $error) {
            throw new WebhookVerificationException(
                WebhookVerificationException::MALFORMED_PAYLOAD,
                "The signed body is not an event of the contract: {$error->getMessage()}",
            );
        }
    }
}
