import { getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isGraphQLRequest } from '../guards/route.ts';
import {
  REQUEST_ID_HEADER,
  observedRequestOf,
  operationNameOf,
  startObservedRequest,
  tellFinished,
  tellStarted,
  type RequestObserver,
} from './observed-request.ts';

export interface RequestObservationOptions {
  /** Told about every GraphQL request: the request log, the metrics, the tracer. */
  observers: RequestObserver[];
}

/**
 * Gives every request an id (the client's `x-request-id` if sane, else a UUID) and returns it in the
 * `x-request-id` response header; for GraphQL requests, follows the operation name and outcome and
 * tells the observers when the request starts and when it is answered. Must come right after the
 * routes (useClientGuards), so it also sees the requests that later plugins refuse (401, 429).
 */
export function useRequestObservation({ observers }: RequestObservationOptions): Plugin {
  return {
    onRequest({ request }) {
      const graphql = isGraphQLRequest(request);
      const observed = startObservedRequest(request, graphql);
      if (graphql) tellStarted(observers, observed, request);
    },
    onParams({ request, params, context }) {
      // The name the client asked for; replaced by the document's own once it is parsed.
      observedRequestOf(request)?.operations.set(context, { name: operationNameOf(params.operationName) });
    },
    onValidate({ params, context }) {
      const yogaContext = context as { request?: Request; params?: { operationName?: string } };
      const observed = observedRequestOf(yogaContext.request);
      if (!observed) return;
      const operation = getOperationAST(params.documentAST as DocumentNode, yogaContext.params?.operationName);
      const known = observed.operations.get(context);
      // Only a name the document really has: a client's operationName that matches nothing is not
      // an operation, and must not become a metrics label or a log field.
      observed.operations.set(context, {
        name: operationNameOf(operation?.name?.value),
        type: operation?.operation ?? known?.type,
      });
    },
    onResultProcess({ request, result }) {
      const observed = observedRequestOf(request);
      if (observed) observed.result = result;
    },
    onResponse({ request, response, setResponse }) {
      const observed = observedRequestOf(request);
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
