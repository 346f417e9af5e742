<?php

declare(strict_types=1);

namespace MomoPayments\Tests\Support;

/**
 * A real HTTP server on 127.0.0.1: PHP's built-in server (`php -S`, two workers) with
 * tests/Support/router.php, answering the responses a test scripts and recording every request
 * it receives. The client under test talks to it over a real socket, through its real transport.
 */
final class LocalServer
{
    public readonly string $url;
    private readonly string $dir;
    /** @var resource */
    private $process;

    /** @param list<array<string, mixed>> $responses What to answer, in order; see router.php. */
    public static function start(array $responses = [['status' => 200, 'body' => '']]): self
    {
        return new self($responses);
    }

    /** @param list<array<string, mixed>> $responses */
    private function __construct(array $responses)
    {
        $this->dir = sys_get_temp_dir() . '/momo-php-server-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
        $this->script($responses);
        $port = self::freePort();
        $command = [PHP_BINARY, '-S', "127.0.0.1:{$port}", __DIR__ . '/router.php'];
        $env = getenv() + ['LOCAL_SERVER_DIR' => $this->dir, 'PHP_CLI_SERVER_WORKERS' => '2'];
        $env['LOCAL_SERVER_DIR'] = $this->dir;
        $log = "{$this->dir}/server.log";
        $process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['file', $log, 'a'], 2 => ['file', $log, 'a']], $pipes, null, $env);
        if ($process === false) {
            throw new \RuntimeException('php -S did not start');
        }
        $this->process = $process;
        $this->url = "http://127.0.0.1:{$port}";
        $deadline = microtime(true) + 10;
        while (@fsockopen('127.0.0.1', $port, $errno, $error, 0.2) === false) {
            if (microtime(true) > $deadline || !proc_get_status($process)['running']) {
                $this->stop();
                throw new \RuntimeException("php -S did not listen on {$port}: " . @file_get_contents($log));
            }
            usleep(20_000);
        }
    }

    /** @param list<array<string, mixed>> $responses Replaces what the next requests get. */
    public function script(array $responses): void
    {
        file_put_contents("{$this->dir}/script.json", json_encode($responses, JSON_UNESCAPED_SLASHES));
        file_put_contents("{$this->dir}/count", '0');
        file_put_contents("{$this->dir}/requests.jsonl", '');
    }

    /** @return list<array{method: string, uri: string, headers: array<string, string>, body: string}> */
    public function requests(): array
    {
        $lines = array_filter(explode("\n", (string) file_get_contents("{$this->dir}/requests.jsonl")));
        return array_values(array_map(static fn (string $line) => json_decode($line, true), $lines));
    }

    public function stop(): void
    {
        // The workers outlive a SIGTERM to their parent: each gets its own, then the parent.
        $pid = proc_get_status($this->process)['pid'];
        $children = trim((string) @file_get_contents("/proc/{$pid}/task/{$pid}/children"));
        foreach ($children === '' ? [] : explode(' ', $children) as $child) {
            posix_kill((int) $child, 15);
        }
        proc_terminate($this->process);
        proc_close($this->process);
        foreach (glob("{$this->dir}/*") ?: [] as $file) {
            unlink($file);
        }
        @rmdir($this->dir);
    }

    /** A port nothing listens on: the kernel picks one, then it is released for `php -S`. */
    public static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        if ($socket === false) {
            throw new \RuntimeException('no free port');
        }
        $name = stream_socket_get_name($socket, false);
        fclose($socket);
        return (int) substr((string) $name, strrpos((string) $name, ':') + 1);
    }
}
