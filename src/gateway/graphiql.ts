import type { YogaServerOptions } from 'graphql-yoga';

export interface GraphiQLPageOptions {
  /** Whether clients must send a gateway key (GATEWAY_API_KEYS set): the page then hints at the header. */
  keysRequired: boolean;
}

/** The yoga options that shape the GraphiQL page served on GET /graphql from a browser. */
export function graphiqlYogaOptions({ keysRequired }: GraphiQLPageOptions): Pick<YogaServerOptions<object, object>, 'graphiql'> {
  return {
    graphiql: {
      title: 'Problems + Translation gateway',
      ...(keysRequired ? { headers: JSON.stringify({ Authorization: 'Bearer <your gateway key>' }, null, 2) } : {}),
    },
  };
}
