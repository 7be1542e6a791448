/* global module */
/**
 * The layers of src/, checked in CI (`npm run layers`). Lower layers never import upper ones:
 *
 *   composition root   src/app.ts, src/services.ts, src/cli*.ts, src/process-guards.ts
 *   web                src/http, src/mcp, src/dashboard, src/connect, src/sandbox
 *   background         src/events, src/jobs
 *   core services      src/core (minus the foundation below)
 *   adapters | store   src/providers        src/store
 *   foundation         src/config.ts, src/observability, src/core/errors.ts, network.ts, lost-attempt.ts,
 *                      access.ts, read-ahead.ts, and the unified model (src/core/unified/{ticketing,crm,common,ids}.ts)
 *
 * Type-only imports count too (but for the Services type handlers are given), and no cycle is allowed in src/.
 */
const FOUNDATION = '^src/(config\\.ts|observability/|core/(errors|network|lost-attempt|access|read-ahead)\\.ts|core/unified/(ticketing|crm|common|ids)\\.ts)';
const ROOT = '^src/(app|services|cli[^/]*|process-guards)\\.ts$';
const WEB = '^src/(http|dashboard|connect|sandbox|mcp)/';
const BACKGROUND = '^src/(events|jobs)/';

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'a cycle makes two modules one: split the shared part out', from: { path: '^src/' }, to: { circular: true } },
    {
      name: 'root-is-imported-by-nobody',
      severity: 'error',
      comment: 'only the composition root wires the layers together (the Services type may be named by the handlers it is given to)',
      from: { path: '^src/', pathNot: ROOT },
      to: { path: ROOT, dependencyTypesNot: ['type-only'] },
    },
    { name: 'foundation-stays-at-the-bottom', severity: 'error', from: { path: FOUNDATION }, to: { path: '^src/', pathNot: FOUNDATION } },
    { name: 'store-below-core', severity: 'error', comment: 'the store answers queries; rules live in core', from: { path: '^src/store/' }, to: { path: '^src/', pathNot: `${FOUNDATION}|^src/store/` } },
    { name: 'providers-below-core', severity: 'error', comment: 'an adapter talks to its product only: no store, no services, no HTTP routes', from: { path: '^src/providers/' }, to: { path: '^src/', pathNot: `${FOUNDATION}|^src/providers/` } },
    { name: 'core-below-background-and-web', severity: 'error', from: { path: '^src/core/' }, to: { path: `${WEB}|${BACKGROUND}` } },
    { name: 'background-below-web', severity: 'error', from: { path: BACKGROUND }, to: { path: WEB } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/store/migrations/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
