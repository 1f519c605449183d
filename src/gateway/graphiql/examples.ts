import {
  getNamedType,
  isEnumType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  validate,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { listedItemsOf, type ListedItems } from '../../shared/listed-items.ts';

/**
 * The operations GraphiQL opens with, one tab each (the tab is titled by the operation's name),
 * written from the schema in force: the problems service's list field, its pagination shape (a
 * plain list, `nodes`, `items` or `edges { node }`) and its problem's fields, whatever the service calls
 * them. Each engine has its own schema, so the examples follow the service's schema as it changes;
 * an example that does not validate against it is left out rather than shown failing.
 */
export interface GraphiQLExample {
  /** The operation's name, which GraphiQL shows as the tab's title. */
  name: string;
  query: string;
}

/** A root field listing objects, as an example can ask for it. */
interface ListField extends ListedItems {
  name: string;
  /** The argument bounding the page (`first`, `limit`, …), when it has one. */
  sizeArgument: string | undefined;
}

const SIZE_ARGUMENTS = ['first', 'limit', 'take', 'pageSize', 'size', 'count', 'perPage'];
/** Item fields shown first when the item has them; then its other leaf fields in schema order. */
const PREFERRED_FIELDS = ['id', 'title', 'name'];
const LINK_FIELD = 'translation';
/** Long texts (the link translates them): left out of the list's own tab, which shows a page at a glance. */
const LONG_TEXT_FIELDS = new Set(['statement', 'description', 'body', 'content', 'text']);

/** The examples for this schema, in tab order: the cross-source query first (the tab the page opens on). */
export function graphiqlExamplesFor(schema: GraphQLSchema): GraphiQLExample[] {
  const list = listFieldOf(schema);
  const linked = list && hasLink(list.item) ? list : undefined;
  const examples = [
    linked && crossSourceExample(linked),
    list && problemsOnlyExample(list),
    TRANSLATION_ONLY,
    linked && linkExample(linked),
  ].filter((example): example is GraphiQLExample => example !== undefined);
  return examples.filter(({ query }) => validate(schema, parse(query)).length === 0);
}

/**
 * The root field of the problems' list: among the Query fields whose items are objects, one whose
 * items carry the translation link, named `problems` if there is one; no required argument.
 */
export function listFieldOf(schema: GraphQLSchema): ListField | undefined {
  const candidates = Object.values(schema.getQueryType()?.getFields() ?? {})
    .filter((field) => field.name !== LINK_FIELD && field.args.every((argument) => !isNonNullType(argument.type) || argument.defaultValue !== undefined))
    .map((field) => listOf(field))
    .filter((candidate): candidate is ListField => candidate !== undefined);
  const rank = (candidate: ListField) => (hasLink(candidate.item) ? 0 : 2) + (candidate.name === 'problems' ? 0 : 1);
  return candidates.sort((a, b) => rank(a) - rank(b))[0];
}

function listOf(field: GraphQLField<unknown, unknown>): ListField | undefined {
  const listed = listedItemsOf(field.type);
  const sizeArgument = SIZE_ARGUMENTS.find((name) => field.args.some((argument) => argument.name === name && getNamedType(argument.type).name === 'Int'));
  return listed && { ...listed, name: field.name, sizeArgument };
}

function hasLink(item: GraphQLObjectType): boolean {
  return item.getFields()[LINK_FIELD] !== undefined;
}

/** Up to `count` short leaf fields of the item (scalars and enums, no required argument, no long text), the preferred ones first. */
function leafFieldsOf(item: GraphQLObjectType, count: number): string[] {
  const leaves = Object.values(item.getFields())
    .filter((field) => !LONG_TEXT_FIELDS.has(field.name))
    .filter((field) => {
      const named = getNamedType(field.type);
      return (isScalarType(named) || isEnumType(named)) && field.args.every((argument) => !isNonNullType(argument.type));
    })
    .map((field) => field.name);
  const preferred = PREFERRED_FIELDS.filter((name) => leaves.includes(name));
  return [...preferred, ...leaves.filter((name) => !preferred.includes(name))].slice(0, count);
}

/** The selection of a page of the list: its items' selection under the shape's own field names, and what the connection tells about the page. */
function pageSelection(list: ListField, itemSelection: string, indent: string, withPageInfo: boolean): string {
  const connection = list.connection?.getFields();
  const lines: string[] = [];
  if (connection?.totalCount) lines.push('totalCount');
  if (list.shape === 'edges') lines.push(`edges {\nnode {\n${itemSelection}\n}\n}`);
  else if (list.shape === 'list') lines.push(itemSelection);
  else lines.push(`${list.shape} {\n${itemSelection}\n}`);
  const pageInfo = connection?.pageInfo && getNamedType(connection.pageInfo.type);
  if (withPageInfo && pageInfo && isObjectType(pageInfo)) {
    const known = ['hasNextPage', 'endCursor'].filter((name) => pageInfo.getFields()[name]);
    if (known.length > 0) lines.push(`pageInfo { ${known.join(' ')} }`);
  }
  return indentBlock(lines.join('\n'), indent);
}

function call(list: ListField, size: number): string {
  return list.sizeArgument ? `${list.name}(${list.sizeArgument}: ${size})` : list.name;
}

function crossSourceExample(list: ListField): GraphiQLExample {
  const fields = leafFieldsOf(list.item, 2);
  const item = [...fields, `translation(to: $language) {\n  language\n  title\n  statement\n}`].join('\n');
  return {
    name: 'ProblemsInYourLanguage',
    query: `# One query, two services: ${list.name} from the
# problems service, each with its \`translation\` from
# the translation service (one batched call per page).
#
# Run it with the ▶ button or Ctrl-Enter. For another
# language, change "es" below or set Variables to
# {"language": "fr"}, or to several, most wanted first:
# {"language": ["pt-BR", "es"]}. More in the other tabs.
query ProblemsInYourLanguage($language: [String!]! = ["es"]) {
  ${call(list, 3)} {
${pageSelection(list, item, '    ', false)}
  }
}
`,
  };
}

function problemsOnlyExample(list: ListField): GraphiQLExample {
  return {
    name: 'ProblemsOnly',
    query: `# The problems service alone: a page of ${list.name}.
query ProblemsOnly {
  ${call(list, 5)} {
${pageSelection(list, leafFieldsOf(list.item, 6).join('\n'), '    ', true)}
  }
}
`,
  };
}

function linkExample(list: ListField): GraphiQLExample {
  const item = [...leafFieldsOf(list.item, 2), 'translation { language title statement }'].join('\n');
  return {
    name: 'TheLink',
    query: `# The link: ${list.item.name}.translation(to:, from:) gives its title and statement
# in the reader's language. @inContext sets it for every field of the query
# that names no \`to:\` (else the request's Accept-Language decides); the
# answer's extensions say what was served.
query TheLink @inContext(language: "es") {
  ${call(list, 3)} {
${pageSelection(list, item, '    ', false)}
  }
}
`,
  };
}

/** The translation part is the gateway's own (sources/translation/openapi.yaml): the same in every schema. */
const TRANSLATION_ONLY: GraphiQLExample = {
  name: 'TranslationOnly',
  query: `# The translation service alone, under the \`translation\` namespace.
query TranslationOnly {
  translation {
    languages { code name targets }
    translate(text: "Find the shortest path.", to: "es") { text detectedLanguage { code confidence } }
    translateMany(texts: ["Print the answer.", "Each test case"], to: "fr", from: "en") { text }
    detect(text: "Dado un arreglo de enteros") { code confidence }
  }
}
`,
};

/** Indents every line of a block of lines nested with two spaces per level. */
function indentBlock(block: string, indent: string): string {
  let depth = 0;
  return block
    .split('\n')
    .map((line) => {
      const text = line.trim();
      if (text.startsWith('}')) depth -= 1;
      const out = `${indent}${'  '.repeat(Math.max(depth, 0))}${text}`;
      if (text.endsWith('{')) depth += 1;
      return out;
    })
    .join('\n');
}
