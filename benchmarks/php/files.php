<?php
// The cost per call of small plain-file operations inside a coroutine
// (async.file_offload=auto: local files served inline, the page cache
// first) against the same calls in plain PHP, without the extension, in a
// child process of the same run. Issue 11 item 5: ordinary scripts must not
// be slowed much; the goal is a ratio of at most 1.5 per call.
declare(strict_types=1);
require __DIR__ . '/lib.php';

use function Async\await;
use function Async\spawn;

const N = 20000;

// The same code measures both sides: it defines baseline() for the child.
const BODY = <<<'PHP'
function measure(string $what, string $path): float
{
    $n = 20000;
    clearstatcache();
    $f = fopen($path, 'r');
    $t = hrtime(true);
    switch ($what) {
        case 'fgets':
            for ($i = 0; $i < $n; $i++) {
                if (fgets($f) === false) {
                    rewind($f);
                }
            }
            break;
        case 'fread':
            for ($i = 0; $i < $n; $i++) {
                if (fread($f, 4096) === '') {
                    rewind($f);
                }
            }
            break;
        case 'stat':
            for ($i = 0; $i < $n; $i++) {
                clearstatcache();
                stat($path);
            }
            break;
        case 'file_exists':
            for ($i = 0; $i < $n; $i++) {
                file_exists($path);
            }
            break;
        case 'file_get_contents':
            for ($i = 0; $i < $n; $i++) {
                file_get_contents($path);
            }
            break;
    }
    $ns = (hrtime(true) - $t) / $n;
    fclose($f);
    return $ns;
}
PHP;

eval(BODY);

$path = tempnam(sys_get_temp_dir(), 'tasync-files-bench-');
file_put_contents($path, str_repeat(str_repeat('x', 79) . "\n", 1000)); // 80 kB, in the page cache

bench_header('plain-file calls per call, async.file_offload=' . ini_get('async.file_offload'));
foreach (['fgets', 'fread', 'stat', 'file_exists', 'file_get_contents'] as $what) {
    measure($what, $path); // warm-up
    $ns = await(spawn(fn() => measure($what, $path)));
    // Plain PHP: a child process without the extension.
    $file = tempnam(sys_get_temp_dir(), 'tasync-bench-');
    file_put_contents($file, "<?php\n" . BODY . "\nmeasure('$what', '$path');\necho json_encode(measure('$what', '$path'));\n");
    $base = (float) json_decode((string) shell_exec(escapeshellarg(PHP_BINARY) . ' -n ' . escapeshellarg($file)));
    unlink($file);
    bench_report("$what in a coroutine", $ns, 'ns', 'plain PHP', $base, '<= 1.5x', $base > 0 && $ns <= 1.5 * $base);
}
unlink($path);
