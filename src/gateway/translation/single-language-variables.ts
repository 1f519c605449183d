import type { MeshPlugin } from '@graphql-mesh/types';
import {
  Kind,
  specifiedRules,
  TypeInfo,
  VariablesInAllowedPositionRule,
  visit,
  visitWithTypeInfo,
  type ASTVisitor,
  type GraphQLError,
  type ValidationContext,
  type ValidationRule,
  type VariableNode,
} from 'graphql';

/** The fields whose `to:` became a list of languages (`[String!]`) where it was one (`String`). */
const LANGUAGE_LIST_FIELDS = new Set(['Problem.translation', 'TranslationQuery.translate', 'TranslationQuery.translateMany']);

/**
 * graphql-js's VariablesInAllowedPositionRule, except that a `String` variable (`$to: String!`)
 * stays allowed as the `to:` of a translation field, which now takes a list. GraphQL coerces one
 * value given literally (`to: "es"`) into a list, but refuses a variable of the item's type where a
 * list is expected; without this, every client written when `to:` took one language (typed
 * documents, persisted queries) would be refused after the change. Execution hands such a variable
 * to the resolver as it is, one tag, which the translation fields read as a list of one
 * (language-choice.ts: wantedLanguages). Every other usage is checked as the specification says.
 */
export const SingleLanguageVariablesRule: ValidationRule = (context: ValidationContext): ASTVisitor => {
  const document = context.getDocument();
  const hasVariables = document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.variableDefinitions?.length);
  if (!hasVariables) return VariablesInAllowedPositionRule(context);
  const allowed = new Set<VariableNode>();
  const typeInfo = new TypeInfo(context.getSchema());
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        if (node.name.value !== 'to' || node.value.kind !== Kind.VARIABLE) return;
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (parent && field && LANGUAGE_LIST_FIELDS.has(`${parent.name}.${field.name}`)) allowed.add(node.value);
      },
    }),
  );
  const isOneLanguage = (error: GraphQLError): boolean => {
    const [definition, usage] = error.nodes ?? [];
    if (usage?.kind !== Kind.VARIABLE || !allowed.has(usage) || definition?.kind !== Kind.VARIABLE_DEFINITION) return false;
    const type = definition.type.kind === Kind.NON_NULL_TYPE ? definition.type.type : definition.type;
    return type.kind === Kind.NAMED_TYPE && type.name.value === 'String';
  };
  const filtering: ValidationContext = Object.create(context, {
    reportError: { value: (error: GraphQLError) => (isOneLanguage(error) ? undefined : context.reportError(error)) },
  });
  return VariablesInAllowedPositionRule(filtering);
};

/** Validation with SingleLanguageVariablesRule in place of graphql-js's rule, for every way a document is validated (yoga's, the front door's plans). */
export function useSingleLanguageVariables(): MeshPlugin<object> {
  return {
    onValidate({ validateFn, setValidationFn }) {
      setValidationFn((schema, document, rules, ...rest) =>
        validateFn(schema, document, (rules ?? specifiedRules).map((rule: ValidationRule) => (rule === VariablesInAllowedPositionRule ? SingleLanguageVariablesRule : rule)), ...rest),
      );
    },
  } as MeshPlugin<object>;
}
