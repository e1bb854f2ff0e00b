// The layering of src/, checked by dependency-cruiser (test/layering.test.ts runs it; `npm run
// layers` prints the folder graph; docs/layering.md explains it):
//
//   core  <-  schemes  <-  operations  <-  clients  <-  check  <-  cli / gateway
//
// core (src/core/) is the scanner, the record, the % codec and the errors, and knows nothing
// else; schemes (src/schemes/) are the scheme entries and the registry; operations are the
// top-level modules (src/*.ts: parser, index, build, resolve, normalize, lint, policy, redact)
// with src/lint/ and src/extract/; clients (src/clients/) reach the network; the checker
// (src/check/, operations over clients: `locator check`) uses them; the CLI (src/cli/) and the
// gateway (src/gateway/) sit on top. An arrow points from the imported to the importer.
//
// Type-only imports: tsPreCompilationDeps is 'specify', so an import that the compiler erases
// (`import type`, or a value import used only as a type) is kept in the graph and marked
// `pre-compilation-only`.
// - The LAYER rules count them. A layer that names another layer's types knows that layer: the
//   types go into the published .d.ts (a `node:` type in the root's declarations needs
//   @types/node in a browser project), and the import becomes a runtime one the day someone uses
//   the name as a value. So `import type` is no way around a layer rule.
// - The CYCLE rule does not: a cycle is reported when every edge of it is kept at run time
//   (static, re-export or dynamic `import()`: dynamic imports count). A cycle through an erased
//   edge cannot change evaluation order, leave a binding uninitialised or confuse a bundler;
//   types that refer to each other (core/url.ts's record and core/scheme.ts's syntax interface)
//   are the normal way to describe two things that point at each other. Such cycles are listed
//   at severity `info` (rule type-only-cycle) so they stay visible without failing the check.
// Inside src/clients/ (docs/layering.md, "Inside the clients"): three tiers, each importing only
// the ones below it. At the bottom, what every client shares: the top-level modules that are not
// drivers (connection, dial, types, the face's type, ...) and the shared folders, framing/ (the
// line-based protocols' reader), probe/ (what every probe shares) and telnet-engine/ (the one
// Telnet engine, which the telnet and tn3270 sessions run). In the middle, one folder per
// protocol, src/clients/<scheme>/: its face, client, probe, session and server; it imports no
// other scheme's folder, with no exemption (a protocol carried over another's, file over ftp, is
// given the other's face by the face table). At the top, the drivers that choose a scheme's
// folder by the URL: the face table and its lookup, open(), probe(), connect() and the index.
const CLIENT_SHARED_FOLDERS = ['framing', 'probe', 'telnet-engine'];
const CLIENT_DRIVERS = ['builtin-faces', 'face-of', 'open', 'probe-url', 'connect', 'index'];
const NOT_SHARED = `(?!(?:${CLIENT_SHARED_FOLDERS.join('|')})/)`;
const SCHEME_FOLDER = `^src/clients/${NOT_SHARED}[^/]+/`;
const DRIVER = `^src/clients/(?:${CLIENT_DRIVERS.join('|')})\\.ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-stands-alone',
      comment: 'src/core/ imports nothing outside src/core/ (no scheme, no operation, no node: module, no package)',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { pathNot: '^src/core/' },
    },
    {
      name: 'schemes-on-core',
      comment: 'src/schemes/ imports only src/core/ and src/schemes/',
      severity: 'error',
      from: { path: '^src/schemes/' },
      to: { pathNot: '^src/(core|schemes)/' },
    },
    {
      name: 'operations-below-clients',
      comment:
        'the operations (src/operations/, the entries src/index.ts and src/parser.ts, src/lint/, src/extract/) import nothing from the clients, the checker, the CLI or the gateway: the package root must run in a browser',
      severity: 'error',
      from: { path: ['^src/[^/]+\\.ts$', '^src/(operations|lint|extract)/'] },
      to: { path: '^src/(clients|crawl|check|cli|gateway)/' },
    },
    {
      name: 'clients-below-cli',
      comment: 'src/clients/ imports nothing from the crawl engine, the checker, the CLI or the gateway',
      severity: 'error',
      from: { path: '^src/clients/' },
      to: { path: '^src/(crawl|check|cli|gateway)/' },
    },
    {
      name: 'crawl-below-check',
      comment:
        'src/crawl/ (the crawl and politeness engines, over the clients) imports nothing from the checker, the CLI or the gateway, which all use it',
      severity: 'error',
      from: { path: '^src/crawl/' },
      to: { path: '^src/(check|cli|gateway)/' },
    },
    {
      name: 'check-below-cli',
      comment: 'src/check/ (operations over clients: the link checker) imports nothing from the CLI or the gateway',
      severity: 'error',
      from: { path: '^src/check/' },
      to: { path: '^src/(cli|gateway)/' },
    },
    {
      name: 'clients-through-their-face',
      comment:
        "the CLI, the checker and the gateway use the clients only through their public face, src/clients/index.ts (locator/clients): no reaching into a scheme's client, a probe, the connection or the face table",
      severity: 'error',
      from: { path: '^src/(cli|check|crawl|gateway|archive)/' },
      to: { path: '^src/clients/', pathNot: '^src/clients/index\\.ts$' },
    },
    {
      name: 'scheme-folder-alone',
      comment:
        "a scheme's folder (src/clients/<scheme>/) imports no other scheme's folder: what two share goes into a shared folder below both (telnet-engine/), and a protocol carried over another's is given the other's face by the face table",
      severity: 'error',
      from: { path: `^src/clients/${NOT_SHARED}([^/]+)/` },
      to: { path: SCHEME_FOLDER, pathNot: '^src/clients/$1/' },
    },
    {
      name: 'scheme-folder-below-the-drivers',
      comment:
        "no folder of src/clients/ (a scheme's, framing/, probe/) imports a driver: the face table, faceOf(), open(), probe(), connect() or the index; a driver asks a scheme's folder through its face, never the other way round",
      severity: 'error',
      from: { path: '^src/clients/[^/]+/' },
      to: { path: DRIVER },
    },
    {
      name: 'shared-below-schemes',
      comment:
        "what every client shares (src/clients/framing/, src/clients/probe/, the top-level modules that are not drivers) imports no scheme's folder",
      severity: 'error',
      from: {
        path: [`^src/clients/(?:${CLIENT_SHARED_FOLDERS.join('|')})/`, '^src/clients/[^/]+\\.ts$'],
        pathNot: DRIVER,
      },
      to: { path: SCHEME_FOLDER },
    },
    {
      name: 'archive-for-the-cli-only',
      comment:
        'src/archive/ (the WARC writer and reader, node only) is imported by the CLI alone, and imports nothing from the checker, the CLI or the gateway',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(archive|cli)/' },
      to: { path: '^src/archive/' },
    },
    {
      name: 'archive-below-cli',
      comment: 'src/archive/ imports nothing from the checker, the CLI or the gateway',
      severity: 'error',
      from: { path: '^src/archive/' },
      to: { path: '^src/(check|cli|gateway)/' },
    },
    {
      name: 'node-builtins-only-in-clients-and-cli',
      comment:
        'node: modules (net, fs, stream, http, ...) only in src/clients/, src/cli/, src/gateway/ and src/archive/: everything else runs in a browser',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(clients|crawl|cli|gateway|archive)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-cycle',
      comment: 'no import cycle in src/ whose every edge is kept at run time (static, re-export, dynamic import())',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        circular: true,
        dependencyTypesNot: ['pre-compilation-only'],
        viaOnly: { dependencyTypesNot: ['pre-compilation-only'] },
      },
    },
    {
      name: 'type-only-cycle',
      comment:
        'a cycle through an import the compiler erases: allowed (see the head of this file), listed for information',
      severity: 'info',
      from: { path: '^src/' },
      to: { circular: true, via: { dependencyTypes: ['pre-compilation-only'] } },
    },
    {
      name: 'zero-dependencies',
      comment:
        "src/ imports only src/ and node: modules, except the checker's readers of markup (src/check/markup/), which import exactly markdown-it and parse5, and the archive's reader of HTML links (src/archive/html-links.ts), which imports parse5: the core, the operations and locator/core have no runtime dependency",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/check/markup/', '^src/archive/html-links\\.ts$'] },
      to: { pathNot: '^src/', dependencyTypesNot: ['core'], couldNotResolve: false },
    },
    {
      name: 'zero-dependencies',
      comment: 'src/check/markup/ imports src/, markdown-it and parse5, and no other package',
      severity: 'error',
      from: { path: '^src/check/markup/' },
      to: {
        pathNot: ['^src/', '^node_modules/(markdown-it|parse5)/'],
        dependencyTypesNot: ['core'],
        couldNotResolve: false,
      },
    },
    {
      name: 'zero-dependencies',
      comment: 'src/archive/html-links.ts imports src/ and parse5, and no other package',
      severity: 'error',
      from: { path: '^src/archive/html-links\\.ts$' },
      to: {
        pathNot: ['^src/', '^node_modules/parse5/'],
        dependencyTypesNot: ['core'],
        couldNotResolve: false,
      },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every import resolves (an unresolved one would escape the rules above)',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'known-layer',
      comment: 'every module of src/ is in a layer named above; a new folder gets a place in this file first',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [
          '^src/[^/]+\\.ts$',
          '^src/(core|schemes|operations|lint|extract|clients|crawl|check|cli|gateway|archive)/',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: 'specify',
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
