/**
 * The server's architecture as rules that `npm run lint` checks (dependency-cruiser): a request
 * goes http -> routes -> domain -> storage, and nothing points back up. Each rule says what to
 * do instead when it fails.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-import-cycles',
      comment:
        'Modules that import each other cannot be read, tested or moved one at a time. Move what both need into a module of its own, or pass it in.',
      severity: 'error',
      from: { path: '^(server|client/src|scripts)/' },
      to: { circular: true },
    },
    {
      name: 'storage-knows-no-domain-or-http',
      comment:
        'server/storage/ is the only SQL and knows nothing of the rules or of HTTP: return plain data or throw a storage error, and let the domain or the HTTP layer decide what it means.',
      severity: 'error',
      from: { path: '^server/storage/' },
      to: { path: '^server/(domain|http|routes|dashboard|checkout|workers|webhooks|operators)/' },
    },
    {
      name: 'domain-knows-no-express',
      comment:
        'server/domain/ holds the rules, callable from routes, the dashboard, workers and tests alike: take plain arguments, never a request or a response.',
      severity: 'error',
      from: { path: '^server/domain/' },
      to: { path: '(^|/)node_modules/(express|express-openapi-validator|@types/express)/' },
    },
    {
      name: 'domain-knows-no-engine',
      comment:
        'The domain writes through units of work and `write` (server/domain/write.ts) and reads through `Store`: the engine (SQLite or PostgreSQL) is chosen at start-up, never imported by a rule.',
      severity: 'error',
      from: { path: '^server/domain/' },
      to: { path: '^server/storage/(sqlite|postgres)/' },
    },
    {
      name: 'domain-knows-no-http',
      comment:
        'The domain answers with rows and results; how they look on the wire is server/http/ (representations and renderings).',
      severity: 'error',
      from: { path: '^server/domain/' },
      to: { path: '^server/(http|routes|dashboard|checkout)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|build|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
