<?php

declare(strict_types=1);

namespace MomoPayments;

use MomoPayments\Exception\ApiException;
use MomoPayments\Exception\ConfigException;
use MomoPayments\Exception\ConnectionException;
use MomoPayments\Http\CurlTransport;
use MomoPayments\Http\Request;
use MomoPayments\Http\Response;
use MomoPayments\Http\Transport;
use MomoPayments\Http\TransportException;

/**
 * A client of the Payments and Payouts API: one method per operation of the contract
 * (`createPayment`, `listServices`, ...; see `Operations`), answers as models, errors as
 * exceptions.
 *
 * On every call it sends the key and the API user, adds `test=true` in sandbox mode, gives each
 * POST an `Idempotency-Key` that its retries reuse, and retries network errors, timeouts, 429
 * (after `Retry-After`) and 5xx with backoff and jitter.
 *
 * ```php
 * $client = new PaymentsClient(apiKey: getenv('PAYMENTS_API_KEY'), apiUser: getenv('PAYMENTS_API_USER'), sandbox: true);
 * $payment = $client->getPayment('pay_26ckKthu9SR4AlZ0MBzSvYzU');
 * echo $payment->status;
 * ```
 */
final class PaymentsClient
{
    use Operations;

    /** Where `npm start` serves the API, when neither `baseUrl` nor `PAYMENTS_BASE_URL` says. */
    public const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/v1';
    public const VERSION = '0.1.0';

    public readonly string $baseUrl;
    public readonly RetryPolicy $retryPolicy;
    private readonly Transport $transport;
    private ?Response $lastResponse = null;

    /**
     * @param string $apiKey Your secret key: `sk_test_...` in the sandbox, `sk_live_...` in production.
     * @param string $apiUser The UUID of your account's API user, sent as `X-API-User`.
     * @param string|null $baseUrl The API's address, `/v1` included. Default: the `PAYMENTS_BASE_URL`
     *                             environment variable, else `http://127.0.0.1:3000/v1`.
     * @param bool $sandbox Adds `test=true` to every call: the API then refuses a live key instead of
     *                      moving real money. Refused at once with a live key.
     * @param Transport|null $transport Sends the requests. Default: cURL, `$timeoutMs` per attempt.
     * @param RetryPolicy|null $retryPolicy Default: 2 retries, backoff from 500 ms up to 8 s.
     * @param int $timeoutMs Each attempt of the default transport is abandoned after this long, then retried.
     *
     * @throws ConfigException when an option is missing or invalid, or `sandbox` comes with a live key.
     */
    public function __construct(
        private readonly string $apiKey,
        private readonly string $apiUser,
        ?string $baseUrl = null,
        public readonly bool $sandbox = false,
        ?Transport $transport = null,
        ?RetryPolicy $retryPolicy = null,
        int $timeoutMs = 30_000,
    ) {
        if (trim($apiKey) === '') {
            throw new ConfigException('invalid_option', '`apiKey` is required: your secret key, sk_test_... or sk_live_...');
        }
        if (trim($apiUser) === '') {
            throw new ConfigException('invalid_option', "`apiUser` is required: the UUID of your account's API user");
        }
        if ($sandbox && str_starts_with($apiKey, 'sk_live_')) {
            throw new ConfigException(
                'live_key_in_sandbox',
                '`sandbox: true` was given with a live key (sk_live_...): use your test key (sk_test_...) in the sandbox, '
                . 'or drop `sandbox` to move real money.',
            );
        }
        $environment = getenv('PAYMENTS_BASE_URL');
        $baseUrl ??= is_string($environment) && $environment !== '' ? $environment : self::DEFAULT_BASE_URL;
        $parts = parse_url($baseUrl);
        if ($parts === false || !in_array($parts['scheme'] ?? '', ['http', 'https'], true) || !isset($parts['host'])) {
            throw new ConfigException('invalid_option', "`baseUrl` is not an absolute http(s) URL: {$baseUrl}");
        }
        if ($timeoutMs <= 0) {
            throw new ConfigException('invalid_option', "`timeoutMs` must be a positive number of milliseconds, not {$timeoutMs}");
        }
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->transport = $transport ?? new CurlTransport($timeoutMs);
        $this->retryPolicy = $retryPolicy ?? new RetryPolicy();
    }

    /**
     * The response of the last attempt that got one, success or error: its headers (`X-Request-Id`,
     * `Idempotent-Replayed`, `RateLimit-Remaining`) and status.
     */
    public function lastResponse(): ?Response
    {
        return $this->lastResponse;
    }

    /** A new random `Idempotency-Key` (a version 4 UUID), for a call you may have to repeat later. */
    public static function newIdempotencyKey(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0F) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3F) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }

    /**
     * Sends one call, retried as the retry policy says, and returns its 2xx response.
     *
     * @param array<string, scalar> $query
     * @param array<string, mixed>|null $body
     *
     * @throws ApiException for an error answer (after the retries, for 429 and 5xx)
     * @throws ConnectionException when no answer came after the retries
     */
    protected function send(string $method, string $path, array $query = [], array|string|null $body = null, ?string $idempotencyKey = null): Response
    {
        $headers = [
            'Authorization' => "Bearer {$this->apiKey}",
            'X-API-User' => $this->apiUser,
            'Accept' => 'application/json',
            'User-Agent' => 'momo-payments-php/' . self::VERSION . ' PHP/' . PHP_VERSION,
        ];
        if ($method === 'POST') {
            // One key per call, set before the first attempt: every retry sends the same one, so
            // the API replays the first answer instead of moving money twice.
            $headers['Idempotency-Key'] = $idempotencyKey ?? self::newIdempotencyKey();
        }
        $encoded = null;
        if (is_string($body)) {
            // An XML document (a bank statement), sent as it is.
            $headers['Content-Type'] = 'application/xml';
            $encoded = $body;
        } elseif ($body !== null) {
            $headers['Content-Type'] = 'application/json';
            $encoded = json_encode($body === [] ? new \stdClass() : $body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        }
        $request = new Request($method, $this->urlOf($path, $query), $headers, $encoded);

        for ($attempt = 1;; $attempt++) {
            $retriesLeft = $attempt <= $this->retryPolicy->maxRetries;
            try {
                $response = $this->transport->sendRequest($request);
            } catch (TransportException $error) {
                if (!$retriesLeft) {
                    $plural = $attempt > 1 ? 's' : '';
                    throw new ConnectionException(
                        "{$method} {$request->uri} failed after {$attempt} attempt{$plural}: {$error->getMessage()}",
                        $attempt,
                        $error->timedOut,
                        $headers['Idempotency-Key'] ?? null,
                        $error,
                    );
                }
                self::sleepMs($this->retryPolicy->backoffDelayMs($attempt - 1));
                continue;
            }
            $this->lastResponse = $response;
            if ($response->status >= 200 && $response->status < 300) {
                return $response;
            }
            $waitMs = $retriesLeft ? $this->retryPolicy->delayAfterResponseMs($attempt - 1, $response) : null;
            if ($waitMs === null) {
                throw ApiException::fromResponse($response);
            }
            self::sleepMs($waitMs);
        }
    }

    /** @return array<string, mixed> */
    protected function data(Response $response): array
    {
        try {
            $envelope = json_decode($response->body, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            $envelope = null;
        }
        if (!is_array($envelope) || !is_array($envelope['data'] ?? null)) {
            throw new ApiException($response, 'the answer is not the success envelope of the contract ({"status": "success", "data": ...})');
        }
        return $envelope['data'];
    }

    /**
     * @param array<string, scalar> $query
     * @param callable(array<string, mixed>): object $build
     */
    protected function page(string $method, string $path, array $query, callable $build): Page
    {
        $data = $this->data($this->send($method, $path, $query));
        $fetchAfter = fn (string $cursor): Page => $this->page($method, $path, ['cursor' => $cursor] + $query, $build);
        return new Page(
            array_map($build, $data['items']),
            (bool) $data['has_more'],
            $data['next_cursor'] ?? null,
            $fetchAfter,
        );
    }

    /** @param array<string, scalar|null> $query */
    private function urlOf(string $path, array $query): string
    {
        if ($this->sandbox) {
            $query['test'] = true;
        }
        $pairs = [];
        foreach ($query as $name => $value) {
            if ($value === null) {
                continue;
            }
            $text = is_bool($value) ? ($value ? 'true' : 'false') : (string) $value;
            $pairs[] = rawurlencode((string) $name) . '=' . rawurlencode($text);
        }
        return $this->baseUrl . $path . ($pairs === [] ? '' : '?' . implode('&', $pairs));
    }

    private static function sleepMs(int $ms): void
    {
        if ($ms > 0) {
            usleep($ms * 1000);
        }
    }
}
