<?php

declare(strict_types=1);

namespace MomoPayments\Http;

use CurlHandle;

/**
 * The default transport: PHP's cURL extension. One handle is kept and reused, so calls to the
 * same host share a kept-alive connection.
 */
final class CurlTransport implements Transport
{
    private ?CurlHandle $handle = null;

    /**
     * @param int $timeoutMs Each attempt is abandoned after this long, connecting included.
     * @param int $connectTimeoutMs The longest wait for the connection itself.
     */
    public function __construct(
        private readonly int $timeoutMs = 30_000,
        private readonly int $connectTimeoutMs = 10_000,
    ) {
    }

    public function sendRequest(Request $request): Response
    {
        $handle = $this->handle ??= curl_init();
        curl_reset($handle);
        $headers = [];
        foreach ($request->headers as $name => $value) {
            $headers[] = "{$name}: {$value}";
        }
        // cURL would otherwise add "Expect: 100-continue" to larger bodies and wait for it.
        $headers[] = 'Expect:';
        $received = [];
        curl_setopt_array($handle, [
            CURLOPT_URL => $request->uri,
            CURLOPT_CUSTOMREQUEST => $request->method,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => $this->timeoutMs,
            CURLOPT_CONNECTTIMEOUT_MS => min($this->connectTimeoutMs, $this->timeoutMs),
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$received): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $name = strtolower(trim($parts[0]));
                    $value = trim($parts[1]);
                    $received[$name] = isset($received[$name]) ? "{$received[$name]}, {$value}" : $value;
                } elseif (str_starts_with($line, 'HTTP/')) {
                    // A new status line (after a 100 Continue): only the last response's headers count.
                    $received = [];
                }
                return strlen($line);
            },
        ]);
        if ($request->body !== null) {
            curl_setopt($handle, CURLOPT_POSTFIELDS, $request->body);
        } elseif ($request->method === 'HEAD') {
            curl_setopt($handle, CURLOPT_NOBODY, true);
        }
        $body = curl_exec($handle);
        if ($body === false) {
            $errno = curl_errno($handle);
            $message = curl_error($handle);
            // A failed handle may hold a broken connection: start the next call afresh.
            $this->handle = null;
            throw new TransportException(
                "{$message} (cURL error {$errno})",
                $errno === CURLE_OPERATION_TIMEDOUT,
            );
        }
        return new Response((int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE), $received, (string) $body);
    }
}
