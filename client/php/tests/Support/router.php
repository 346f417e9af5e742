<?php

/**
 * The router of a `php -S` server started by `LocalServer`: records every request it receives
 * (method, URI, headers, raw body) in requests.jsonl, then answers the next response of
 * script.json (the last one again once they are spent). Both files are in LOCAL_SERVER_DIR.
 */

declare(strict_types=1);

$dir = getenv('LOCAL_SERVER_DIR');
$lock = fopen("{$dir}/lock", 'c');
flock($lock, LOCK_EX);
$script = json_decode((string) file_get_contents("{$dir}/script.json"), true);
$index = (int) @file_get_contents("{$dir}/count");
file_put_contents("{$dir}/count", (string) ($index + 1));
file_put_contents("{$dir}/requests.jsonl", json_encode([
    'method' => $_SERVER['REQUEST_METHOD'],
    'uri' => $_SERVER['REQUEST_URI'],
    'headers' => array_change_key_case(getallheaders(), CASE_LOWER),
    'body' => file_get_contents('php://input'),
], JSON_UNESCAPED_SLASHES) . "\n", FILE_APPEND);
flock($lock, LOCK_UN);

$response = $script[min($index, count($script) - 1)] ?? ['status' => 200, 'body' => ''];
if (($response['sleep_ms'] ?? 0) > 0) {
    usleep($response['sleep_ms'] * 1000);
}
http_response_code($response['status']);
foreach ($response['headers'] ?? [] as $name => $value) {
    header("{$name}: {$value}");
}
$body = $response['body'] ?? '';
if (!is_string($body)) {
    header('Content-Type: application/json');
    $body = json_encode($body, JSON_UNESCAPED_SLASHES);
}
echo $body;
