<?php

declare(strict_types=1);

namespace MomoPayments\Http;

/**
 * Sends one HTTP request and returns its response: the shape of PSR-18's
 * `ClientInterface::sendRequest`, without depending on psr/http-client. `CurlTransport` is the
 * default; to send through your framework's PSR-18 client (Guzzle, Symfony HttpClient), wrap it
 * in a class implementing this interface (client/php/README.md shows one).
 *
 * An HTTP error status is a response, never an exception: the client decides what it means.
 */
interface Transport
{
    /**
     * @throws TransportException when no response arrived (connection refused or reset, DNS
     *                            failure, timeout); the client retries it.
     */
    public function sendRequest(Request $request): Response;
}
