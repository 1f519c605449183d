import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRACING_PACKAGES } from '../../src/gateway/observability/load-tracing.ts';
import { listen } from '../../src/shared/listen.ts';
import { compiledBuild } from '../helpers/compiled-build.ts';
import { runCommand, type RunningCommand } from '../helpers/run-command.ts';
import { refusingPackages } from '../helpers/installed-engines.ts';
import { sharedStack } from '../helpers/shared-stack.ts';
import type { Stack } from '../helpers/start-stack.ts';
import { translatedTitleOf } from '../helpers/stand-in-translation.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
/** The checkout's own compiler and Node typings check the app: the app installs the package alone, as a user's would. */
const TSC = `${ROOT}node_modules/typescript/bin/tsc`;
const TYPE_ROOTS = [`${ROOT}node_modules/@types`];
/**
 * What only building, generating code or testing needs (Mesh's CLI and config processor with their
 * code loaders and Babel among them): none of it may reach an app, at any depth.
 */
const BUILD_ONLY = /^(typescript|tsx|esbuild|vitest|node|@graphql-mesh\/(cli|config)|@graphql-codegen\/.*|@babel\/.*|@graphql-tools\/(code-file-loader|graphql-tag-pluck))$/;
const LINK = /* GraphQL */ `query Traced { problem(id: "p1001") { title translation(to: "es") { title } } }`;

/**
 * The package as a user gets it: `npm pack` of a copy of this checkout, the tarball installed into a
 * new app with npm (once: every check reads that one install), imported by name from TypeScript and
 * run on plain Node as one app process, and its start-up entry run from node_modules. Packing runs
 * the package's `prepare` script, `tsc -p tsconfig.build.json`: the very build the suite's other
 * compiled-entry tests share (test/helpers/compiled-build.ts), so the copy gets that build's dist/
 * and is packed without running it again.
 */
describe('the packed package, installed in a new app', () => {
  let stack: Stack;
  let work: string;
  let app: string;
  let files: string[];
  let upstreamEnv: Record<string, string>;
  const npm = (args: string[], cwd: string) => run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });

  beforeAll(async () => {
    // The build first: tsc runs in its own process while this thread builds the stack and copies the checkout.
    const building = compiledBuild();
    building.catch(() => undefined); // awaited below; a failure meanwhile is reported there
    stack = await sharedStack('open');
    upstreamEnv = {
      PROBLEMS_URL: stack.upstreamSettings.problemsUrl!,
      PROBLEMS_API_KEY: stack.upstreamSettings.problemsApiKey!,
      TRANSLATION_URL: stack.upstreamSettings.translationUrl!,
      TRANSLATION_API_KEY: stack.upstreamSettings.translationApiKey!,
    };
    work = mkdtempSync(join(tmpdir(), 'gateway-package-'));
    // A clean checkout: the files git knows (as they are in the working tree), never a dist/ of the checkout's.
    const checkout = join(work, 'checkout');
    const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    for (const file of stdout.split('\n').filter(Boolean)) {
      mkdirSync(dirname(join(checkout, file)), { recursive: true });
      try {
        cpSync(join(ROOT, file), join(checkout, file));
      } catch {
        // Listed by git but deleted in the working tree.
      }
    }
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    // What `prepare` would build (its script checked below), built once for the run.
    cpSync(join(await building, 'dist'), join(checkout, 'dist'), { recursive: true });
    const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], checkout);
    const [report] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
    files = report.files.map((entry: { path: string }) => entry.path);
    console.log(`packed ${report.filename}: ${report.entryCount} files, ${report.size} bytes (${report.unpackedSize} unpacked)`);

    app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'new-app', private: true, type: 'module' }));
    await npm(
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(work, report.filename)],
      app,
    );
  }, 600_000);
  afterAll(async () => {
    entryCommand?.child.kill('SIGKILL');
    await stack?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('builds what it ships when packed: `prepare` runs the build the suite shares', () => {
    // npm runs `prepare` on pack; the test packs the output of compiledBuild(), which runs this command.
    expect(manifest.scripts.prepare).toBe('npm run build');
    expect(manifest.scripts.build).toBe('tsc -p tsconfig.build.json');
  });

  it('ships the compiled library, what it reads at run time and its licence, and no tests, sources or maps', () => {
    for (const needed of ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/sdk/index.js', 'dist/src/cli/start.js', '.meshrc.yaml', 'sources/problems/schema.graphql', 'sources/translation/openapi.yaml', 'src/gateway/translation/namespace.graphql', 'src/gateway/links/problem-translation.graphql', 'schema.graphql', 'LICENSE', 'README.md', 'package.json', 'docs/operations.md', 'docs/architecture.md']) {
      expect(files).toContain(needed);
    }
    // The local stand-ins are compiled in because the start-up entry runs them in development.
    expect(files).toContain('dist/src/upstreams/stand-ins.js');
    const unwanted = files.filter((file) => /^test\/|^examples\/|\.map$|\.test\.|^src\/.*\.ts$|^tsconfig|^codegen|^vitest|^\.ci\//.test(file));
    expect(unwanted).toEqual([]);
  });

  it("brings no Node along: the project's own Node (npm scripts, tests) is a devDependency, the app's Node runs it", () => {
    expect(manifest.devDependencies.node).toBeDefined();
    expect(existsSync(join(app, 'node_modules/node'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/.bin/node'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/problems-translation-gateway'))).toBe(true);
  });

  it('installs what runs the gateway only: no compiler, bundler, code generator or test runner, nor tracing unless asked', () => {
    const installed = Object.keys(JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8')).packages as Record<string, unknown>)
      .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => BUILD_ONLY.test(name) || (name !== '@opentelemetry/api' && name in manifest.peerDependencies));
    expect(installed).toEqual([]);
    // Tracing's packages are optional peers: npm leaves them to the app.
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([...TRACING_PACKAGES].sort());
    for (const name of TRACING_PACKAGES) expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
  });

  it('says at start which tracing packages to install when OTEL_EXPORTER_OTLP_ENDPOINT is set without them', async () => {
    const missing = TRACING_PACKAGES.filter((name) => !existsSync(join(app, 'node_modules', name, 'package.json')));
    expect(missing.length).toBeGreaterThan(0);
    const failed = await run(process.execPath, ['node_modules/problems-translation-gateway/dist/src/cli/start.js'], {
      cwd: app,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', ...upstreamEnv },
    }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
    );
    expect(failed.code).toBe(1);
    expect(failed.output).toContain(`tracing needs packages that are not installed: ${missing.join(', ')}`);
    expect(failed.output).toContain(`npm install ${missing.join(' ')}`);
  }, 240_000);

  const consumer = /* ts */ `
    import { createServer } from 'node:http';
    import { lexicographicSortSchema, printSchema } from 'graphql';
    import { createGateway, mountAt, readSettings, SettingsError, ErrorCode, type Gateway, type GatewayOptions } from 'problems-translation-gateway';
    import { apolloTypePolicies, createGatewaySdk, ProblemsInLanguageDocument } from 'problems-translation-gateway/sdk';

    const options: GatewayOptions = { settings: readSettings(process.env), requestLog: false, log: () => undefined };
    const gateway: Gateway = await createGateway(options);
    const linked = await gateway.fetch(new Request('http://app/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: ${JSON.stringify(LINK)} }) }));
    console.log('LINKED ' + JSON.stringify(await linked.json()));
    console.log('SCHEMA ' + JSON.stringify(printSchema(lexicographicSortSchema(gateway.schema))));
    const server = createServer(mountAt('/api/graphql', gateway.listener));
    await new Promise<void>((resolve) => server.listen(0, resolve));
    const { port } = server.address() as { port: number };
    const sdk = createGatewaySdk({ url: 'http://127.0.0.1:' + port + '/api/graphql', apiKey: process.env.GATEWAY_KEY });
    const { problems } = await sdk.ProblemsInLanguage({ to: 'es', first: 1 });
    const title: string | undefined = problems?.nodes[0]?.translation?.title;
    const merge: true = apolloTypePolicies.TranslationQuery.merge;
    console.log('RESULT ' + JSON.stringify({ title, original: problems?.nodes[0]?.title, merge, document: ProblemsInLanguageDocument.kind, code: ErrorCode.UpstreamError, error: SettingsError.name }));
    server.close();
    await gateway.close();
  `;

  /**
   * The package's start-up entry run from node_modules with no upstream URL (so with the stand-ins),
   * asked the cross-source query and stopped with SIGTERM. It starts once the app's install is
   * complete, beside the app's tsc and run, which read the same node_modules and write nothing it reads.
   */
  let entry: Promise<{ code: number | null; output: string; body: { data?: any; errors?: unknown } }> | undefined;
  let entryCommand: RunningCommand | undefined;
  const entryRun = () => {
    entry ??= (async () => {
      const command = (entryCommand = runCommand(process.execPath, ['node_modules/problems-translation-gateway/dist/src/cli/start.js'], { PORT: '0' }, { cwd: app }));
      const [, url] = await command.waitFor(/listening: (http:\/\/\S+\/graphql)/);
      const response = await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: LINK }) });
      const body = (await response.json()) as { data?: any; errors?: unknown };
      command.child.kill('SIGTERM');
      return { code: await command.exited, output: command.output(), body };
    })();
    // Read by its test; a failure meanwhile is that test's to report.
    entry.catch(() => undefined);
    return entry;
  };

  /**
   * The app, once for the checks below: the tracing packages the start-up line named installed, one
   * tsc over it as a default strict tsc runs (no skipLibCheck; its errors in app.ts are the app's,
   * the others in declarations the package brings along), and its compiled JavaScript run on plain
   * Node with tracing on, against a collector of its own: it asks the cross-source query through
   * gateway.fetch, prints the schema it serves, and asks through the SDK over its own server.
   */
  const runApp = async (): Promise<{ errors: string[]; printed: (prefix: string) => any; spans: string[] }> => {
    const peers = TRACING_PACKAGES.map((name) => `${name}@${manifest.devDependencies[name]}`);
    await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...peers], app);
    void entryRun();
    writeFileSync(join(app, 'app.ts'), consumer);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, module: 'nodenext', target: 'es2022', outDir: 'out', types: ['node'], typeRoots: TYPE_ROOTS }, files: ['app.ts'] }),
    );
    const compiled = await run(process.execPath, [TSC, '-p', '.'], { cwd: app }).catch((error: { stdout: string }) => error);
    const errors = compiled.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    const exported: string[] = [];
    const collector = await listen((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces') exported.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    try {
      const { stdout } = await run(process.execPath, ['out/app.js'], {
        cwd: app,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, ...upstreamEnv },
      });
      const printed = (prefix: string) => JSON.parse(stdout.split('\n').find((line) => line.startsWith(`${prefix} `))!.slice(prefix.length + 1));
      const spans = exported.flatMap((body) => JSON.parse(body).resourceSpans.flatMap((each: any) => each.scopeSpans.flatMap((scope: any) => scope.spans.map((span: { name: string }) => span.name))));
      return { errors, printed, spans };
    } finally {
      await collector.close();
    }
  };

  describe('its app: the tracing packages installed, type-checked, run compiled on plain Node', () => {
    let ran: Awaited<ReturnType<typeof runApp>>;
    // One npm install, one tsc and one app process, each of which a loaded machine slows to a minute.
    beforeAll(async () => {
      ran = await runApp();
    }, 600_000);

    it('traces once the app installs the packages the start-up line names', () => {
      const { spans } = ran;
      expect(spans).toContain('graphql.request Traced');
      expect(spans).toContain('upstream problems');
    });

    it("states in engines what the app's dependencies require, installed without the checkout's overrides", () => {
      expect(refusingPackages(manifest.engines.node, join(app, 'node_modules'))).toEqual([]);
    });

    it('is imported by name, run on plain Node, and answers the cross-source query', () => {
      const { printed } = ran;
      const result = printed('LINKED');
      expect(result.errors).toBeUndefined();
      expect(result.data.problem.translation.title).toBe(translatedTitleOf('p1001', 'es'));
      // The graph the app serves is the one the checkout's tests record, whatever versions its install resolved.
      expect(`${printed('SCHEMA')}\n`).toBe(readFileSync(join(ROOT, 'schema.graphql'), 'utf8'));
    });

    it('type-checks in a strict TypeScript app and runs compiled', () => {
      const { errors, printed } = ran;
      expect(errors.filter((line) => line.startsWith('app.ts'))).toEqual([]);
      const result = printed('RESULT');
      expect(result).toMatchObject({ merge: true, document: 'Document', error: 'SettingsError' });
      expect(result.title).toBe(translatedTitleOf('p1001', 'es'));
    });

    it('type-checks under a default strict tsc, without skipLibCheck: its declarations reach no faulty dependency typings', () => {
      const { errors } = ran;
      expect(errors.filter((line) => !line.startsWith('app.ts'))).toEqual([]);
    });
  });

  it("runs the package's start-up entry from node_modules: the stand-ins in development, the query answered, a clean stop", async () => {
    const { code, output, body } = await entryRun();
    expect(output).toContain('local stand-in');
    expect(body.errors).toBeUndefined();
    expect(body.data.problem.translation.title).toBe(translatedTitleOf('p1001', 'es'));
    expect(code).toBe(0);
  });
});
