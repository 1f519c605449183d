import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { estimateExecution } from '../execution/shape/operation-cost.ts';
import { gatewayRequestOf, takeHandedOperation, type GatewayRequest } from '../request/gateway-request.ts';
import { responseOf, UNEXPECTED_ERROR, UNEXPECTED_RESULT, type EarlyAnswer } from '../request/early-answer.ts';
import type { GuardList } from '../request/guards.ts';
import { asksOperation, createGatewayRequest } from './create-gateway-request.ts';
import { runBatchGuards, runHeadGuards, runOperationGuards, runParamsGuards } from './guard-list.ts';

/** yoga's server context as the gateway fills it: the request object, and node:http's request when there is one. */
interface ServerContext {
  gateway?: GatewayRequest;
  req?: IncomingMessage;
}

/**
 * The guard list (guard-list.ts) as a yoga plugin: the adapter for requests yoga serves. A request
 * that came through the node:http adapter already carries its request object, head guards run; one
 * that reaches yoga directly (`gateway.fetch`, or yoga mounted on its own) gets its request object
 * here and its head guards run here. The other phases run where yoga reaches them: the batch guards
 * once a batch is parsed, the params guards on each operation's parameters, the operation guards just
 * before execution. Nothing is checked here that the list does not hold.
 */
export function useGatewayPipeline(guards: GuardList): Plugin {
  return {
    onRequest({ request, url, serverContext, endResponse }) {
      const context = serverContext as ServerContext;
      let gateway = context.gateway;
      if (!gateway) {
        gateway = createGatewayRequest({
          head: request,
          pathname: url.pathname,
          hasQueryParameter: asksOperation(url.searchParams),
          socketAddress: context.req?.socket?.remoteAddress,
        });
        context.gateway = gateway;
      }
      if (gateway.headChecked) return undefined;
      const end = (answer: EarlyAnswer | undefined) => {
        if (answer) endResponse(responseOf(answer));
      };
      // A guard that throws (an app's own, say) gets a 500 that says nothing of the cause.
      const failed = () => {
        gateway.observed.result = UNEXPECTED_RESULT;
        end(UNEXPECTED_ERROR);
      };
      try {
        const answered = runHeadGuards(guards.head, gateway);
        if (!(answered instanceof Promise)) return end(answered);
        return answered.then(end, failed);
      } catch {
        return failed();
      }
    },
    onRequestParse({ serverContext }) {
      const gateway = gatewayRequestOf(serverContext);
      if (!gateway?.graphql || (guards.batch.length === 0 && !gateway.handedOn)) return undefined;
      return {
        async onRequestParseDone({ requestParserResult }) {
          const handedOn = gateway.handedOn;
          // The operations the front door began, as yoga parsed them (the same body, the same order).
          if (handedOn) handedOn.parsed = Array.isArray(requestParserResult) ? requestParserResult : [requestParserResult];
          if (!Array.isArray(requestParserResult) || handedOn?.batchChecked) return;
          const refusal = await runBatchGuards(guards.batch, gateway, requestParserResult.length);
          if (refusal) throw refusal;
        },
      };
    },
    onParams({ params, context }) {
      const gateway = gatewayRequestOf(context);
      if (!gateway) return;
      // The front door ran them on this very operation before handing the request on: its verdict stands.
      const handed = gateway.handedOn && takeHandedOperation(gateway, params, context);
      const refusal = handed ? handed.refusal : runParamsGuards(guards.params, gateway, params);
      if (refusal) throw refusal;
    },
    onExecute({ args, setResultAndStopExecution }) {
      const gateway = gatewayRequestOf(args.contextValue);
      const estimate = gateway && estimateExecution(args);
      if (!estimate) return undefined;
      const refused = runOperationGuards(guards.operation, gateway, estimate);
      if (!(refused instanceof Promise)) {
        if (refused) setResultAndStopExecution({ errors: [refused] });
        return undefined;
      }
      return refused.then((refusal) => {
        if (refusal) setResultAndStopExecution({ errors: [refusal] });
      });
    },
  };
}
