/**
 * `npm run schema:print -- <gateway-url> [--key <key>]`: prints the schema a running gateway serves
 * (SDL, types and fields sorted), for codegen against a deployment: `npm run -s schema:print --
 * https://gw.example.org > schema.graphql`. The key (one of its GATEWAY_API_KEYS) may come from
 * GATEWAY_KEY instead, which keeps it out of the process list. The gateway must allow introspection
 * (GATEWAY_INTROSPECTION; off by default in production): when it does not, says so and exits 1.
 */
import { introspect, IntrospectionError } from '../gateway/schema/introspection.ts';

const USAGE = 'usage: npm run schema:print -- <gateway-url> [--key <key>]   (or the key in GATEWAY_KEY)';

/** The GraphQL endpoint of `given`: as it is, or `/graphql` below a bare origin. */
function endpointOf(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error(`not a URL: ${given}\n${USAGE}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`expected an http(s) URL, got ${url.protocol}\n${USAGE}`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/graphql';
  return url.toString();
}

function argumentsOf(argv: string[]): { url: string; key?: string } {
  let url: string | undefined;
  let key = process.env.GATEWAY_KEY?.trim() || undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--key') key = argv[++index];
    else if (argument.startsWith('--key=')) key = argument.slice('--key='.length);
    else if (!argument.startsWith('-') && url === undefined) url = argument;
    else throw new Error(`unexpected argument ${argument.startsWith('--key') ? '--key' : argument}\n${USAGE}`);
  }
  if (!url) throw new Error(USAGE);
  return { url, key };
}

async function main(): Promise<void> {
  const { url, key } = argumentsOf(process.argv.slice(2));
  const endpoint = endpointOf(url);
  try {
    const { sdl } = await introspect({ endpoint, apiKey: key, timeoutMs: 30_000 });
    process.stdout.write(`${sdl}\n`);
  } catch (error) {
    if (!(error instanceof IntrospectionError)) throw error;
    if (error.failure === 'refused') throw new Error(`${endpoint} refused ${key ? 'the key given' : 'a request without a key'}: pass one of its GATEWAY_API_KEYS with --key (or GATEWAY_KEY)`);
    if (error.serviceMessage && /introspection/i.test(error.serviceMessage)) {
      throw new Error(`${endpoint} has introspection turned off (GATEWAY_INTROSPECTION=false, the default in production), so it does not tell its schema: turn it on where you generate from, or use the schema.graphql shipped with the package`);
    }
    throw error;
  }
}

main().catch((error: Error) => {
  console.error(`schema:print failed: ${error.message}`);
  process.exitCode = 1;
});
