import type { GraphQLSchema } from 'graphql';
import { createYoga, useSchema, type YogaServerInstance } from 'graphql-yoga';
import { graphiqlYogaOptions } from './graphiql.ts';
import { buildMesh, type BuildMeshOptions } from './mesh.ts';
import { toPublicSchema } from './public-schema.ts';
import { readSettings, type GatewaySettings } from './settings.ts';

export interface GatewayOptions extends Omit<BuildMeshOptions, 'settings'> {
  /** Settings over those read from the environment (validated the same way). */
  settings?: Partial<GatewaySettings>;
  /** Path of the GraphQL endpoint. @default '/graphql' */
  graphqlEndpoint?: string;
}

export interface Gateway {
  /** The yoga server: a Node request listener (`http.createServer(gateway.yoga)`) and a fetch handler (`gateway.yoga.fetch`). */
  yoga: YogaServerInstance<object, object>;
  /** Fetch-style handler: `(request: Request) => Promise<Response>`. */
  fetch: (request: Request) => Promise<Response>;
  /** The unified schema clients see. */
  schema: GraphQLSchema;
  linksLeftOut: { name: string; reason: string }[];
  /** Stops the mesh and closes upstream connections. */
  close(): Promise<void>;
}

/** Builds the gateway: the mesh from .meshrc.yaml, served by graphql-yoga. Nothing listens yet. */
export async function createGateway({ graphqlEndpoint = '/graphql', settings, ...meshOptions }: GatewayOptions = {}): Promise<Gateway> {
  const resolvedSettings = { ...readSettings(), ...settings };
  const { mesh, linksLeftOut, destroy } = await buildMesh({ ...meshOptions, settings: resolvedSettings });
  const schema = toPublicSchema(mesh.schema);
  const yoga = createYoga({
    // mesh.plugins carries Mesh's execution engine and the per-request in-context SDK.
    plugins: [...mesh.plugins, useSchema(schema)],
    graphqlEndpoint,
    landingPage: false,
    logging: false,
    ...graphiqlYogaOptions({ keysRequired: resolvedSettings.gatewayApiKeys.length > 0 }),
  }) as unknown as YogaServerInstance<object, object>;
  return {
    yoga,
    fetch: (request) => Promise.resolve(yoga.fetch(request)),
    schema,
    linksLeftOut,
    close: async () => {
      await yoga.dispose();
      await destroy();
    },
  };
}
