<?php

/**
 * The library's autoloader without Composer: `require '/path/to/client/php/autoload.php';`
 * loads `MomoPayments\...` classes from src/ (PSR-4, as composer.json maps them). With Composer,
 * use `vendor/autoload.php` instead.
 */

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'MomoPayments\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
