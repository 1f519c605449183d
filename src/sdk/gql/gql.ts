/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query ProblemsInLanguage($to: [String!]!, $first: Int = 3) {\n  problems(first: $first) {\n    nodes {\n      id\n      title\n      translation(to: $to) {\n        language\n        title\n        statement\n      }\n    }\n  }\n}": typeof types.ProblemsInLanguageDocument,
    "query ProblemsInReadersLanguage($first: Int = 3) {\n  problems(first: $first) {\n    nodes {\n      id\n      title\n      translation {\n        language\n        title\n        statement\n        provenance {\n          kind\n          sourceLanguage\n          madeAt\n          stale\n        }\n      }\n    }\n  }\n}": typeof types.ProblemsInReadersLanguageDocument,
    "query ProblemsPage($first: Int = 5, $after: String, $filter: ProblemFilter, $sort: ProblemSort) {\n  problems(first: $first, after: $after, filter: $filter, sort: $sort) {\n    totalCount\n    nodes {\n      id\n      title\n      rating\n      tags\n      statistics {\n        acceptanceRate\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": typeof types.ProblemsPageDocument,
    "query TranslateText($text: String!, $to: [String!]!, $from: String) {\n  translation {\n    translate(text: $text, to: $to, from: $from) {\n      text\n      detectedLanguage {\n        code\n        confidence\n      }\n    }\n  }\n}": typeof types.TranslateTextDocument,
    "query TranslationLanguages {\n  translation {\n    languages {\n      code\n      name\n      targets\n    }\n  }\n}": typeof types.TranslationLanguagesDocument,
};
const documents: Documents = {
    "query ProblemsInLanguage($to: [String!]!, $first: Int = 3) {\n  problems(first: $first) {\n    nodes {\n      id\n      title\n      translation(to: $to) {\n        language\n        title\n        statement\n      }\n    }\n  }\n}": types.ProblemsInLanguageDocument,
    "query ProblemsInReadersLanguage($first: Int = 3) {\n  problems(first: $first) {\n    nodes {\n      id\n      title\n      translation {\n        language\n        title\n        statement\n        provenance {\n          kind\n          sourceLanguage\n          madeAt\n          stale\n        }\n      }\n    }\n  }\n}": types.ProblemsInReadersLanguageDocument,
    "query ProblemsPage($first: Int = 5, $after: String, $filter: ProblemFilter, $sort: ProblemSort) {\n  problems(first: $first, after: $after, filter: $filter, sort: $sort) {\n    totalCount\n    nodes {\n      id\n      title\n      rating\n      tags\n      statistics {\n        acceptanceRate\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": types.ProblemsPageDocument,
    "query TranslateText($text: String!, $to: [String!]!, $from: String) {\n  translation {\n    translate(text: $text, to: $to, from: $from) {\n      text\n      detectedLanguage {\n        code\n        confidence\n      }\n    }\n  }\n}": types.TranslateTextDocument,
    "query TranslationLanguages {\n  translation {\n    languages {\n      code\n      name\n      targets\n    }\n  }\n}": types.TranslationLanguagesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ProblemsInLanguage($to: [String!]!, $first: Int = 3) {\n  problems(first: $first) {\n    nodes {\n      id\n      title\n      translation(to: $to) {\n        language\n        title\n        statement\n      }\n    }\n  }\n}"): (typeof documents)["query ProblemsInLanguage($to: [String!]!, $first: Int = 3) {\n  problems(first: $first) {\n    nodes {\n      id\n      title\n      translation(to: $to) {\n        language\n        title\n        statement\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ProblemsInReadersLanguage($first: Int = 3) {\n  problems(first: $first) {\n    nodes {\n      id\n      title\n      translation {\n        language\n        title\n        statement\n        provenance {\n          kind\n          sourceLanguage\n          madeAt\n          stale\n        }\n      }\n    }\n  }\n}"): (typeof documents)["query ProblemsInReadersLanguage($first: Int = 3) {\n  problems(first: $first) {\n    nodes {\n      id\n      title\n      translation {\n        language\n        title\n        statement\n        provenance {\n          kind\n          sourceLanguage\n          madeAt\n          stale\n        }\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ProblemsPage($first: Int = 5, $after: String, $filter: ProblemFilter, $sort: ProblemSort) {\n  problems(first: $first, after: $after, filter: $filter, sort: $sort) {\n    totalCount\n    nodes {\n      id\n      title\n      rating\n      tags\n      statistics {\n        acceptanceRate\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"): (typeof documents)["query ProblemsPage($first: Int = 5, $after: String, $filter: ProblemFilter, $sort: ProblemSort) {\n  problems(first: $first, after: $after, filter: $filter, sort: $sort) {\n    totalCount\n    nodes {\n      id\n      title\n      rating\n      tags\n      statistics {\n        acceptanceRate\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TranslateText($text: String!, $to: [String!]!, $from: String) {\n  translation {\n    translate(text: $text, to: $to, from: $from) {\n      text\n      detectedLanguage {\n        code\n        confidence\n      }\n    }\n  }\n}"): (typeof documents)["query TranslateText($text: String!, $to: [String!]!, $from: String) {\n  translation {\n    translate(text: $text, to: $to, from: $from) {\n      text\n      detectedLanguage {\n        code\n        confidence\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TranslationLanguages {\n  translation {\n    languages {\n      code\n      name\n      targets\n    }\n  }\n}"): (typeof documents)["query TranslationLanguages {\n  translation {\n    languages {\n      code\n      name\n      targets\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;