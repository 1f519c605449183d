import { getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { gatewayRequestOf } from '../request/gateway-request.ts';
import type { HeadGuard } from '../request/guards.ts';
import { REQUEST_ID_HEADER, operationNameOf, tellFinished, tellStarted, type RequestObserver } from '../request/observed-request.ts';

export interface RequestObservationOptions {
  /** Told about every GraphQL request: the request log, the metrics, the tracer. */
  observers: RequestObserver[];
}

/**
 * Tells the observers that a GraphQL request arrived. A head guard right after the route, so the
 * requests that later guards refuse (401, 429) are observed too; every request already has its id
 * (the client's `x-request-id` if sane, else a UUID) from when its request object was made.
 */
export function observeArrivalGuard({ observers }: RequestObservationOptions): HeadGuard {
  return {
    name: 'observe arrival',
    check(request) {
      request.observed.graphql = request.graphql;
      if (request.graphql) tellStarted(observers, request.observed, request.head);
    },
  };
}

/**
 * For requests yoga answers: follows the operation name and outcome, returns the request id in the
 * `x-request-id` response header and, for GraphQL requests, tells the observers when the request is
 * answered. (The node:http adapter does the same for the answers it writes itself.)
 */
export function useRequestObservation({ observers }: RequestObservationOptions): Plugin {
  return {
    onParams({ params, context }) {
      // The name the client asked for; replaced by the document's own once it is parsed.
      gatewayRequestOf(context)?.observed.operations.set(context, { name: operationNameOf(params.operationName) });
    },
    onValidate({ params, context }) {
      const observed = gatewayRequestOf(context)?.observed;
      if (!observed) return;
      const operation = getOperationAST(params.documentAST as DocumentNode, (context as { params?: { operationName?: string } }).params?.operationName);
      const known = observed.operations.get(context);
      // Only a name the document really has: a client's operationName that matches nothing is not
      // an operation, and must not become a metrics label or a log field.
      observed.operations.set(context, {
        name: operationNameOf(operation?.name?.value),
        type: operation?.operation ?? known?.type,
      });
    },
    onResultProcess({ result, serverContext }) {
      const observed = gatewayRequestOf(serverContext)?.observed;
      if (observed) observed.result = result;
    },
    onResponse({ response, setResponse, serverContext }) {
      const observed = gatewayRequestOf(serverContext)?.observed;
      if (!observed) return;
      try {
        response.headers.set(REQUEST_ID_HEADER, observed.id);
      } catch {
        // Immutable headers (a response passed through from fetch): copy it.
        const headers = new Headers(response.headers);
        headers.set(REQUEST_ID_HEADER, observed.id);
        setResponse(new Response(response.body, { status: response.status, statusText: response.statusText, headers }));
      }
      if (observed.graphql) tellFinished(observers, observed, response.status);
    },
  };
}
