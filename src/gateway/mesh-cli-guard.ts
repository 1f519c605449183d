/**
 * Named under `plugins:` in .meshrc.yaml so that the Mesh CLI (`mesh dev`, `mesh start`, `mesh
 * build`, `mesh validate`) stops at once with one clear line. The gateway is more than this config:
 * the translation runtime, the links' batching, the upstream steps and the client guards are code
 * that createGateway() adds, and without them the CLI would serve a gateway whose translation fields
 * all fail. buildMesh() removes this entry before it builds.
 */
export const MESH_CLI_GUARD = './src/gateway/mesh-cli-guard.ts';

export const MESH_CLI_REFUSAL =
  'This .meshrc.yaml is served by the gateway itself: run `npm start` (or createGateway() in your app), not the Mesh CLI, which would leave out its translation runtime, upstream steps and client guards.';

export default function refuseMeshCli(): never {
  throw new Error(MESH_CLI_REFUSAL);
}
