import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const GATEWAY = 'src/gateway';

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.ts$/.test(file))
    .map((file) => join(folder, file));
}

/** Every relative module a file imports (static, dynamic, type-only and re-exports), as a path from the project root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]);
  return specifiers.map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)));
}

/**
 * The floors of src/gateway, from the ground up; a file stands on the floor of the longest entry that
 * names it (a folder ends in `/`). A file imports only from its own floor or below: the request and
 * plan types never know the features that read them, the features never know the front door that
 * runs them, and only the composition root knows everything.
 */
const FLOORS: { name: string; members: string[] }[] = [
  {
    name: 'ground',
    members: [
      'errors.ts',
      'project-root.ts',
      'mesh-cli-guard.ts',
      'public-schema.ts',
      'settings.ts',
      'settings/',
      'stores/',
      'graphiql/',
      // Where the gateway's own lines go: every part writes there.
      'gateway-log.ts',
      'gateway-yoga.ts',
    ],
  },
  // The request object and the plain data every part of a request reads: guards' types, early
  // answers, the operation's estimate, the answer's languages, a cached answer, and what the request
  // log, metrics and traces know of it (observed-request.ts: the upstream steps write there too).
  { name: 'request', members: ['request/'] },
  // The features, each on a floor of its own, so that every arrow between two of them runs one way:
  // what keeps data (Redis, statements' workers) and calls services at the bottom, translation on
  // them, the link that joins a problem to its translation, the schema the link is part of, what
  // observes all of these, the mesh built from them, the execution of operations on the mesh, and
  // the guards that decide, from all of these, whether an operation runs.
  { name: 'stores', members: ['redis/'] },
  { name: 'statements', members: ['statement/'] },
  { name: 'upstream calls', members: ['upstream/'] },
  { name: 'translation', members: ['translation/'] },
  { name: 'links', members: ['links/'] },
  { name: 'schema', members: ['schema/'] },
  { name: 'observability', members: ['observability/'] },
  { name: 'mesh', members: ['mesh.ts', 'mesh-config.ts', 'mesh-options.ts', 'mesh-turns.ts'] },
  { name: 'execution', members: ['execution/'] },
  { name: 'guards', members: ['guards/'] },
  // The front door: the adapters and the path every request takes.
  { name: 'front door', members: ['pipeline/'] },
  // The composition root: every guard, plugin and step in order (create-gateway.ts, in parts under
  // composition/: the guard list, one engine with its yoga stages, the engine serving now).
  { name: 'composition root', members: ['create-gateway.ts', 'composition/', 'graphiql.ts', 'shared-stores.ts'] },
];

/** Imports that run from a lower floor to a higher one, each with why it is there (file → file). */
const ARROWS_BACK_UP: Record<string, string> = {};

function floorOf(file: string): number {
  const inside = relative(GATEWAY, file);
  let found = -1;
  let longest = -1;
  FLOORS.forEach(({ members }, index) => {
    for (const member of members) {
      const matches = member.endsWith('/') ? inside.startsWith(member) : inside === member;
      if (matches && member.length > longest) {
        longest = member.length;
        found = index;
      }
    }
  });
  return found;
}

/** Import circles of a graph (file → what it imports): Tarjan's strongly connected components of more than one file, or a file importing itself. */
function circlesOf(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file)!.includes(file)) circles.push(component.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/**
 * The gateway never depends on the stand-ins, and the stand-ins never on the gateway: either can be
 * read, changed or shipped without the other. Only the entries under src/cli/ know both.
 */
describe('layout', () => {
  it.each([
    ['src/gateway', 'src/upstreams'],
    ['src/upstreams', 'src/gateway'],
    ['src/upstreams', 'src/cli'],
    ['src/gateway', 'src/cli'],
    // The SDK is what an app imports: the operations and their types, never the gateway that serves them.
    ['src/sdk', 'src/gateway'],
    ['src/sdk', 'src/cli'],
  ])('nothing under %s imports from %s', (from, forbidden) => {
    const offending = sourceFiles(from).flatMap((file) =>
      importsOf(file)
        .filter((target) => target === forbidden || target.startsWith(`${forbidden}/`))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('finds the imports it checks (the check itself works)', () => {
    expect(importsOf('src/cli/upstreams.ts')).toContain('src/upstreams/stand-ins.ts');
    expect(importsOf('src/cli/start.ts')).toContain('src/gateway/create-gateway.ts');
    // Type-only imports count: a circle of types is a circle a reader has to untangle too.
    expect(importsOf('src/gateway/request/guards.ts')).toContain('src/gateway/request/gateway-request.ts');
  });

  it('library code neither reads nor writes process.env', () => {
    const readers = [...sourceFiles('src/gateway'), 'src/index.ts'].filter((file) => /process\.env/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });
});

describe('the floors of src/gateway', () => {
  const files = sourceFiles(GATEWAY);

  it('places every file of src/gateway on a floor', () => {
    expect(files.filter((file) => floorOf(file) < 0)).toEqual([]);
  });

  it('no file imports from a floor above its own, but the arrows named with their reason', () => {
    const upward = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(`${GATEWAY}/`) && floorOf(target) > floorOf(file))
        .map((target) => `${file} → ${target}`),
    );
    expect(upward.filter((arrow) => !(arrow in ARROWS_BACK_UP))).toEqual([]);
  });

  it('has no import circle', () => {
    expect(circlesOf(new Map(files.map((file) => [file, importsOf(file)])))).toEqual([]);
  });

  it('sees a circle when there is one (the check itself works)', () => {
    // The request object as it was: it took a type from the response cache, which took one from the
    // languages served, which read the request back.
    const circle = new Map([
      ['request.ts', ['cache.ts']],
      ['cache.ts', ['languages.ts']],
      ['languages.ts', ['request.ts']],
      ['guard.ts', ['request.ts']],
    ]);
    expect(circlesOf(circle)).toEqual([['cache.ts', 'languages.ts', 'request.ts']]);
    expect(circlesOf(new Map([['request.ts', ['request.ts']]]))).toEqual([['request.ts']]);
  });
});
