/**
 * `npm run lockfile:complete`: adds to package-lock.json the platform-specific optional
 * packages that the registry mirror of this workplace does not carry (darwin, win32, android,
 * musl... builds of rollup, esbuild and biome). `npm install` leaves them out because it cannot
 * fetch them, but `npm ci` (npm >= 11.6.2) refuses a lock that does not list every optional
 * dependency. Each added entry names its os, cpu and libc, so npm skips it on this machine and
 * never tries to download it. Run it after every change to package-lock.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const oses = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'win32',
  'openbsd',
  'openharmony',
  'netbsd',
  'sunos',
  'aix',
  'cygwin',
];
const cpus = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'];

interface LockPackage {
  version?: string;
  optional?: boolean;
  dev?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

function platformOf(name: string): Pick<LockPackage, 'os' | 'cpu' | 'libc'> | undefined {
  const parts = name.split('/').pop()?.split('-') ?? [];
  const os = parts.find((p) => oses.includes(p)) ?? (parts.includes('win32') ? 'win32' : undefined);
  const cpu =
    parts.find((p) => cpus.includes(p)) ??
    (parts.includes('eabi') || parts.includes('gnueabihf') ? 'arm' : undefined);
  if (!os && !cpu) return undefined;
  const libc =
    parts.includes('musl') || parts.includes('musleabihf')
      ? ['musl']
      : parts.includes('gnu')
        ? ['glibc']
        : undefined;
  return {
    ...(os ? { os: [os === 'win32' ? 'win32' : os] } : {}),
    ...(cpu ? { cpu: [cpu] } : {}),
    ...(libc ? { libc } : {}),
  };
}

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, LockPackage> };
let added = 0;
for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const where = key ? `${key}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[`node_modules/${name}`] || lock.packages[where]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    lock.packages[`node_modules/${name}`] = {
      version: version.replace(/^[~^=]/, ''),
      ...(pkg.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform-specific optional packages listed`);
