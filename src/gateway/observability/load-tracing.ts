import type { GatewayTracing, TracingOptions } from './tracing.ts';

/**
 * The OpenTelemetry packages tracing runs on. They are optional peer dependencies of the package
 * (`peerDependenciesMeta` in package.json, with these names): an app that never sets
 * OTEL_EXPORTER_OTLP_ENDPOINT does not install them, and one that does installs them itself.
 */
export const TRACING_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/semantic-conventions',
] as const;

/** Tracing is on but the packages it runs on are not installed: the message names them and the command. */
export class TracingPackagesMissingError extends Error {
  override name = 'TracingPackagesMissingError';
  readonly missing: readonly string[];
  constructor(missing: readonly string[]) {
    super(
      `OTEL_EXPORTER_OTLP_ENDPOINT is set, and tracing needs packages that are not installed: ${missing.join(', ')}. ` +
        `Install them beside the gateway (npm install ${missing.join(' ')}), or unset OTEL_EXPORTER_OTLP_ENDPOINT.`,
    );
    this.missing = missing;
  }
}

/**
 * Loads the tracer only now (the OpenTelemetry SDK and its exporter cost about 9 MiB of resident
 * memory, and an app without tracing may not have them installed). Which packages are missing is
 * asked of the resolver that would load them, so the message lists all of them at once.
 */
export async function loadTracing(options: TracingOptions): Promise<GatewayTracing> {
  const missing = TRACING_PACKAGES.filter((name) => !resolvable(name));
  if (missing.length > 0) throw new TracingPackagesMissingError(missing);
  const { createTracing } = await import('./tracing.ts');
  return createTracing(options);
}

function resolvable(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}
