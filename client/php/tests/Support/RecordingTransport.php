<?php

declare(strict_types=1);

namespace MomoPayments\Tests\Support;

use MomoPayments\Http\CurlTransport;
use MomoPayments\Http\Request;
use MomoPayments\Http\Response;
use MomoPayments\Http\Transport;

/** The real cURL transport, keeping every request it sends (retries included). */
final class RecordingTransport implements Transport
{
    /** @var list<Request> */
    public array $requests = [];
    private readonly Transport $inner;

    public function __construct()
    {
        $this->inner = new CurlTransport(10_000);
    }

    public function sendRequest(Request $request): Response
    {
        $this->requests[] = $request;
        return $this->inner->sendRequest($request);
    }
}
